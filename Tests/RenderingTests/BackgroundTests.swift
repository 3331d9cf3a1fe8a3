import Pixels
import Rendering
import Testing

@Suite struct BackgroundTests {
    private func logo(_ colour: RGBA) -> RGBAImage {
        var image = RGBAImage(width: 64, height: 64)
        for y in 16..<48 { for x in 16..<48 { image[x, y] = colour } }
        return image
    }

    @Test func choicesParse() {
        #expect(BackgroundChoice(parsing: "auto") == .auto)
        #expect(BackgroundChoice(parsing: "none") == BackgroundChoice.none)
        #expect(BackgroundChoice(parsing: "checker") == .checker)
        #expect(BackgroundChoice(parsing: "#FF8000") == .color(RGBA(r: 255, g: 128, b: 0)))
        #expect(BackgroundChoice(parsing: "202020") == .color(RGBA(r: 32, g: 32, b: 32)))
        #expect(BackgroundChoice(parsing: "white") == .color(RGBA(r: 255, g: 255, b: 255)))
        #expect(BackgroundChoice(parsing: "#12345") == nil)
        #expect(BackgroundChoice(parsing: "purple-ish") == nil)
        #expect(BackgroundChoice.color(RGBA(r: 255, g: 128, b: 0)).description == "#ff8000")
    }

    @Test func autoUsesTheTerminalsBackgroundUnlessThePictureWouldVanish() {
        let white = RGBA(r: 255, g: 255, b: 255)
        let black = RGBA(r: 0, g: 0, b: 0)
        let whiteLogo = logo(white)
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: black) == .color(black))
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: white) == .checker)
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: nil) == nil)
        #expect(BackgroundChoice.none.fill(for: whiteLogo, terminal: white) == nil)
        // Opaque pictures are never touched.
        #expect(BackgroundChoice.checker.fill(for: RGBAImage(width: 4, height: 4, fill: white), terminal: white) == nil)
    }

    @Test func compositingMakesEveryPixelOpaque() {
        var image = RGBAImage(width: 2, height: 1)
        image[0, 0] = RGBA(r: 255, g: 0, b: 0, a: 128)
        image[1, 0] = RGBA(r: 0, g: 0, b: 255, a: 255)
        let over = BackgroundFill.color(RGBA(r: 0, g: 0, b: 0)).composite(image)
        #expect(over[0, 0] == RGBA(r: 128, g: 0, b: 0, a: 255))
        #expect(over[1, 0] == RGBA(r: 0, g: 0, b: 255, a: 255))
        let checker = BackgroundFill.checker.composite(RGBAImage(width: 64, height: 64))
        #expect(checker[0, 0] == RGBA(r: 0x99, g: 0x99, b: 0x99) && checker[2, 0] == RGBA(r: 0x66, g: 0x66, b: 0x66))
        #expect(!checker.hasTransparency)
    }
}
