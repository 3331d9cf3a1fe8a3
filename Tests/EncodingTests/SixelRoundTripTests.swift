import Encoding
import GraphicsReadback
import Pixels
import Testing

/// Photos through the whole sixel pipeline and back through the test decoder.
@Suite struct SixelRoundTripTests {
    @Test(arguments: RawFixture.allCases)
    func photoRoundTripKeepsQuality(fixture: RawFixture) throws {
        let source = try fixture.load()
        try Self.expectRoundTrip(source, SixelRenderer().render(source), "\(fixture)")
    }

    /// Each dither the viewer's own mappers can use, on the same photos.
    @Test(arguments: RawFixture.allCases, Dither.allCases)
    func mappedPhotoRoundTripKeepsQuality(fixture: RawFixture, dither: Dither) throws {
        let source = try fixture.load()
        let mapper = SixelRenderer.mapper(PaletteBuilder().build(from: source), dither: dither)
        let bytes = SixelEncoder().encode(mapper.map(source), palette: mapper.palette)
        try Self.expectRoundTrip(source, bytes, "\(fixture) with \(dither) dither")
    }

    private static func expectRoundTrip(_ source: RGBAImage, _ bytes: [UInt8], _ name: String) throws {
        let decoded = try SixelDecoder.decode(bytes)
        #expect(decoded.backgroundSelect == 1)
        #expect(decoded.overpaints == 0)
        let psnr = PSNR.decibels(source, decoded.image)
        #expect(psnr >= 30, "PSNR \(psnr) dB for \(name)")
        // Transparency survives exactly: alpha < 128 is never painted, the rest always is.
        var mismatches = 0
        for y in 0..<source.height {
            for x in 0..<source.width where (source[x, y].a >= 128) != (decoded.image[x, y].a == 255) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    /// What the viewer does while panning: one palette, its mapper kept,
    /// maps each new crop with the dither keyed to the image.
    @Test func aKeptPaletteMapsTheNextFrames() throws {
        let source = try RawFixture.china.load()
        let palette = PaletteBuilder().build(from: source)
        let mapper = SixelRenderer.mapper(palette, dither: .ordered)
        let crop = source.cropped(to: PixelRect(x: 40, y: 30, width: 200, height: 120))
        let indexed = mapper.map(crop, ditherOriginX: 40, ditherOriginY: 30)
        let decoded = try SixelDecoder.decode(SixelEncoder().encode(indexed, palette: palette))
        #expect(Set(decoded.registers.values).isSubset(of: Set(palette.colors.map(Self.throughPercent))))
        #expect(PSNR.decibels(crop, decoded.image) >= 30)
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
