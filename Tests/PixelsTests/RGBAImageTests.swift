import Testing

@testable import Pixels

@Suite struct RGBAImageTests {
    @Test func fillAndSubscript() {
        var image = RGBAImage(width: 3, height: 2, fill: RGBA(r: 1, g: 2, b: 3, a: 255))
        #expect(image[2, 1] == RGBA(r: 1, g: 2, b: 3))
        #expect(!image.hasTransparency)
        image[0, 0] = RGBA(r: 9, g: 9, b: 9, a: 10)
        #expect(image.pixels[0..<4] == [9, 9, 9, 10])
        #expect(image.hasTransparency)
    }

    /// One translucent pixel anywhere, in the first or a later run of
    /// 4096 pixels or in the last, short one, makes the image transparent.
    @Test(arguments: [0, 4095, 4096, 9999, 10_000 - 1])
    func anyTranslucentPixelIsSeen(index: Int) {
        var image = RGBAImage(width: 100, height: 100, fill: RGBA(r: 0, g: 0, b: 0))
        #expect(!image.hasTransparency)
        image[index % 100, index / 100] = RGBA(r: 255, g: 255, b: 255, a: 254)
        #expect(image.hasTransparency)
    }

    @Test func cropClipsToImage() {
        var image = RGBAImage(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { image[x, y] = RGBA(r: UInt8(x), g: UInt8(y), b: 0) } }
        let crop = image.cropped(to: PixelRect(x: 2, y: 1, width: 5, height: 2))
        #expect(crop.size == PixelSize(width: 2, height: 2))
        #expect(crop[0, 0] == RGBA(r: 2, g: 1, b: 0))
        #expect(crop[1, 1] == RGBA(r: 3, g: 2, b: 0))
    }

    @Test func sizeDescription() {
        #expect(PixelSize(width: 800, height: 600).description == "800x600")
        #expect(PixelSize(width: -3, height: 2).width == 0)
    }

    /// One pixel short of opaque, anywhere (inside the 64-pixel blocks and
    /// in the tail after them), makes an image transparent.
    @Test func anyPixelBelowFullAlphaIsTransparency() {
        let opaque = RGBAImage(width: 100, height: 3, fill: RGBA(r: 1, g: 2, b: 3))
        let opaqueIsTransparent = opaque.hasTransparency
        #expect(!opaqueIsTransparent)
        for index in [0, 1, 63, 64, 130, 255, 256, 299] {
            var image = opaque
            image[index % 100, index / 100] = RGBA(r: 1, g: 2, b: 3, a: 254)
            let found = image.hasTransparency
            #expect(found, "pixel \(index)")
        }
        #expect(!RGBAImage(width: 0, height: 0).hasTransparency)
    }
}
