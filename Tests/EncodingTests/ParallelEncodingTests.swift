import GraphicsReadback
import Pixels
import Testing

@testable import Encoding

/// Splitting the sixel work across cores must not change a single byte.
@Suite struct ParallelEncodingTests {
    /// 256 colours on noise make every piece grow its buffer to an exact
    /// fit, the case where joining pieces once wrote past the end.
    @Test(arguments: [2, 3, 4], [64, 256])
    func mappingAndEncodingMatchTheSerialResult(parts: Int, colors: Int) throws {
        var image = TestImages.noise(width: 97, height: 61, opaque: false)
        image[0, 0] = RGBA(r: 1, g: 2, b: 3, a: 0)
        let palette = PaletteBuilder(maxColors: colors).build(from: image)
        let mapper = PaletteMapper(palette: palette, dither: .ordered)
        let serial = mapper.map(image, ditherOriginX: 3, ditherOriginY: 5, parts: 1)
        let parallel = mapper.map(image, ditherOriginX: 3, ditherOriginY: 5, parts: parts)
        #expect(parallel == serial)
        let encoder = SixelEncoder()
        #expect(encoder.encode(serial, palette: palette, parts: parts) == encoder.encode(serial, palette: palette, parts: 1))
    }
}

@Suite struct ParallelPNGTests {
    @Test func largeImagesStillRoundTripExactly() throws {
        // Over ParallelRows.minimumPixels, so deflate runs in parts on a multi-core machine.
        let image = TestImages.noise(width: 400, height: 320)
        let bytes = KittyEncoder().transmit(image, imageID: 3)
        #expect(try KittyDecoder.image(bytes).image == image)
    }
}
