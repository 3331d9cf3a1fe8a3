import GraphicsReadback
import Encoding
import Pixels
import Testing

/// Photos through the whole sixel pipeline and back through the test decoder.
@Suite struct SixelRoundTripTests {
    @Test(arguments: RawFixture.allCases, Dither.allCases)
    func photoRoundTripKeepsQuality(fixture: RawFixture, dither: Dither) throws {
        let source = try fixture.load()
        let bytes = SixelRenderer(options: .init(dither: dither)).render(source)
        let decoded = try SixelDecoder.decode(bytes)
        #expect(decoded.backgroundSelect == 1)
        #expect(decoded.overpaints == 0)
        let psnr = ImageMetrics.psnr(source, decoded.image)
        #expect(psnr >= 30, "PSNR \(psnr) dB for \(fixture) with \(dither) dither")
        // Transparency survives exactly: alpha < 128 is never painted, the rest always is.
        var mismatches = 0
        for y in 0..<source.height {
            for x in 0..<source.width where (source[x, y].a >= 128) != (decoded.image[x, y].a == 255) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test func fixedPaletteIsReusedAcrossFrames() throws {
        let source = try RawFixture.china.load()
        let first = SixelRenderer().renderFrame(source)
        let reusing = SixelRenderer(options: .init(palette: first.palette))
        let crop = source.cropped(to: PixelRect(x: 40, y: 30, width: 200, height: 120))
        let frame = reusing.renderFrame(crop)
        #expect(frame.palette == first.palette)
        let decoded = try SixelDecoder.decode(frame.bytes)
        #expect(Set(decoded.registers.values).isSubset(of: Set(first.palette.colors.map(Self.throughPercent))))
        #expect(ImageMetrics.psnr(crop, decoded.image) >= 30)
    }

    /// A colour as it comes back from a sixel register (percent precision).
    private static func throughPercent(_ color: RGB) -> RGB {
        func channel(_ value: UInt8) -> UInt8 {
            let percent = (Int(value) * 100 + 127) / 255
            return UInt8((percent * 255 + 50) / 100)
        }
        return RGB(r: channel(color.r), g: channel(color.g), b: channel(color.b))
    }
}
