import Encoding
import GraphicsReadback
import Pixels
import Testing

/// The banding index (see `Banding`) tells contour steps from dither noise,
/// which PSNR cannot: both pictures below have about the same RMS error.
@Suite struct BandingTests {
    /// A 480x300 sky, exact (float) and as 8-bit pixels spoiled two ways.
    static func sky(_ spoil: (Int, Int, Float) -> Float) -> (RGBAImage, [Float]) {
        let size = PixelSize(width: 480, height: 300)
        var reference: [Float] = []
        var pixels: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let t = (Float(x) / Float(size.width - 1) + Float(y) / Float(size.height - 1)) / 2
                let exact = [40 + 110 * t, 90 + 110 * t, 170 + 75 * t]
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
}
