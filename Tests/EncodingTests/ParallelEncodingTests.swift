import CZlib
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

@Suite struct ParallelDeflateTests {
    @Test(arguments: [1, 2, 3, 4])
    func piecesInflateToTheInput(parts: Int) throws {
        var input = [UInt8](repeating: 0, count: 300_001)
        var state: UInt32 = 12345
        for i in input.indices {
            state = state &* 1_103_515_245 &+ 12345
            input[i] = i % 7 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(i % 13)
        }
        let stream = try #require(Zlib.compressHuffmanOnly(input, level: 1, parts: parts))
        var outputCount = uLongf(input.count)
        var output = [UInt8](repeating: 0, count: input.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { source in
                uncompress(out.baseAddress, &outputCount, source.baseAddress, uLong(source.count))
            }
        }
        #expect(status == Z_OK)
        #expect(Int(outputCount) == input.count)
        #expect(output == input)
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
