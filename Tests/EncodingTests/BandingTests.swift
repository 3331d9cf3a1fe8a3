import Encoding
import GraphicsReadback
import Pixels
import Testing

/// The banding index (see `Banding`) tells contour steps from dither noise,
/// which PSNR cannot: both pictures below have about the same RMS error.
@Suite struct BandingTests {
    /// A 480x300 sky, exact (float) and as 8-bit pixels spoiled two ways.
    static func sky(
        from: [Float] = [40, 90, 170], to: [Float] = [150, 200, 245], _ spoil: (Int, Int, Float) -> Float
    ) -> (RGBAImage, [Float]) {
        let size = PixelSize(width: 480, height: 300)
        var reference: [Float] = []
        var pixels: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let t = (Float(x) / Float(size.width - 1) + Float(y) / Float(size.height - 1)) / 2
                let exact = (0..<3).map { from[$0] + (to[$0] - from[$0]) * t }
                reference += exact
                pixels += exact.map { UInt8(min(255, max(0, spoil(x, y, $0).rounded()))) } + [255]
            }
        }
        return (RGBAImage(width: size.width, height: size.height, pixels: pixels), reference)
    }

    @Test func stepsScoreHighAndFineNoiseLow() {
        // Contours: every channel snapped to steps of 8 levels.
        let (banded, reference) = Self.sky { _, _, value in (value / 8).rounded() * 8 }
        // The same error budget as noise: ±4 levels in a 2x2 checker.
        let (noisy, _) = Self.sky { x, y, value in value + ((x + y) % 2 == 0 ? 4 : -4) }
        let steps = Banding.index(banded, reference: reference)
        let noise = Banding.index(noisy, reference: reference)
        #expect(steps > 1.0, "steps \(steps)")
        #expect(noise < 0.3, "noise \(noise)")
        // An exact copy has none.
        let (exact, _) = Self.sky { _, _, value in value }
        #expect(Banding.index(exact, reference: reference) < 0.2)
    }

    /// What a sixel terminal shows of `indexed` (registers rounded to percent).
    static func shown(_ bytes: [UInt8]) throws -> RGBAImage {
        try SixelDecoder.decode(bytes).image
    }

    static func rms(_ image: RGBAImage, _ reference: [Float]) -> Double {
        var sum = 0.0
        for i in 0..<(image.width * image.height) {
            for c in 0..<3 {
                let d = Double(image.pixels[i * 4 + c]) - Double(reference[i * 3 + c])
                sum += d * d
            }
        }
        return (sum / Double(image.width * image.height * 3)).squareRoot()
    }

    /// A sky of more colours than registers through `show`'s sixel path,
    /// as the terminal shows it: diffused against the colours the terminal
    /// shows (whole percents), it has no contour steps; the viewer's
    /// palette with half-strength ordered dither (what `show` used before)
    /// leaves them.
    @Test func aSixelSkyShowsNoSteps() throws {
        let (sky, reference) = Self.sky(from: [20, 60, 120], to: [200, 230, 255]) { _, _, value in value }
        let (palette, isExact) = PaletteBuilder(maxColors: 256).buildReportingExactness(from: sky)
        #expect(!isExact)
        let shown = try Self.shown(SixelRenderer().render(sky))
        #expect(shown.size == sky.size)
        let index = Banding.index(shown, reference: reference)
        let error = Self.rms(shown, reference)
        // Measured: 0.39 and RMS 1.9 levels; the ordered dither 0.95.
        #expect(index < 0.5, "banding \(index)")
        #expect(error < 2.5, "RMS \(error)")
        let ordered = SixelRenderer.mapper(palette, dither: .ordered).map(sky)
        let stepped = try Self.shown(SixelEncoder().encode(ordered, palette: palette))
        let steps = Banding.index(stepped, reference: reference)
        #expect(steps > 2 * index, "ordered \(steps) against diffused \(index)")
    }

    /// Colours already on the percent grid are sent as they are, undithered.
    @Test func colorsOnThePercentGridStayExact() throws {
        let colors = [RGB(r: 0, g: 0, b: 0), RGB(r: 255, g: 128, b: 0), RGB(r: 51, g: 102, b: 153)]
        var pixels: [UInt8] = []
        for i in 0..<(64 * 48) {
            let c = colors[(i / 7) % 3]
            pixels += [c.r, c.g, c.b, 255]
        }
        let image = RGBAImage(width: 64, height: 48, pixels: pixels)
        let shown = try Self.shown(SixelRenderer().render(image))
        #expect(shown.pixels == image.pixels)
    }
}
