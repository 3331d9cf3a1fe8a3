import Encoding
import GraphicsReadback
import Pixels
import Testing

@Suite struct PaletteBuilderTests {
    @Test(arguments: [1, 2, 16, 64, 256])
    func neverMoreThanMaxColors(maxColors: Int) throws {
        let photo = try RawFixture.china.load()
        let palette = PaletteBuilder(maxColors: maxColors).build(from: photo)
        #expect(palette.count == maxColors)
        #expect(Set(palette.colors).count == palette.count, "duplicate colours waste registers")
    }

    @Test func fewColoursGiveExactlyThoseColours() {
        let colors: [RGBA] = (0..<40).map { (i: Int) -> RGBA in
            let blue = UInt8((i * 37) % 256)
            return RGBA(r: UInt8(i * 6), g: UInt8(255 - i * 3), b: blue)
        }
        var image = RGBAImage(width: 40, height: 10)
        for y in 0..<10 { for x in 0..<40 { image[x, y] = colors[(x + y) % 40] } }
        let palette = PaletteBuilder(maxColors: 40).build(from: image)
        #expect(Set(palette.colors) == Set(colors.map { RGB(r: $0.r, g: $0.g, b: $0.b) }))
        #expect(palette.count == 40)
    }

    @Test func nearlyIdenticalColoursStayDistinctAndMapExactly() throws {
        // Colours one step apart share a histogram cell; the exact path must still keep them.
        let image = TestImages.image([
            [
                RGBA(r: 100, g: 100, b: 100), RGBA(r: 101, g: 100, b: 100),
                RGBA(r: 100, g: 101, b: 100), RGBA(r: 100, g: 100, b: 101),
            ]
        ])
        let frame = SixelRenderer().renderFrame(image)
        #expect(frame.palette.count == 4)
        #expect(frame.indexed.indices == [0, 1, 2, 3])
    }

    @Test func singleColourGivesOneColour() {
        let image = RGBAImage(width: 30, height: 20, fill: RGBA(r: 12, g: 34, b: 56))
        #expect(PaletteBuilder().build(from: image).colors == [RGB(r: 12, g: 34, b: 56)])
    }

    @Test func transparentPixelsDoNotContribute() {
        var image = RGBAImage(width: 4, height: 1, fill: RGBA(r: 200, g: 0, b: 0, a: 127))
        image[0, 0] = RGBA(r: 0, g: 0, b: 200, a: 128)
        #expect(PaletteBuilder().build(from: image).colors == [RGB(r: 0, g: 0, b: 200)])
        #expect(PaletteBuilder().build(from: RGBAImage(width: 3, height: 3)).isEmpty)
    }

    @Test func quantizedPaletteStaysCloseToThePhoto() throws {
        // Undithered mapping error through the palette alone, without sixel's percent rounding.
        let photo = try RawFixture.coffee.load()
        let palette = PaletteBuilder(maxColors: 256).build(from: photo)
        let indexed = PaletteMapper(palette: palette, dither: .none).map(photo)
        var mapped = photo
        for (i, index) in indexed.indices.enumerated() {
            let color = palette.colors[Int(index)]
            mapped.pixels[i * 4] = color.r
            mapped.pixels[i * 4 + 1] = color.g
            mapped.pixels[i * 4 + 2] = color.b
        }
        #expect(PSNR.decibels(photo, mapped) >= 33)
    }

    @Test func paletteKeepsAtMost256Entries() {
        let many = (0..<300).map { RGB(r: UInt8($0 % 256), g: UInt8($0 / 256), b: 0) }
        #expect(Palette(colors: many).count == 256)
        var palette = Palette(colors: [])
        palette.colors = many
        #expect(palette.count == 256)
    }
}
