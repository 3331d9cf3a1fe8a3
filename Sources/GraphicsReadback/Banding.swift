import Foundation
import Pixels

/// What eyes see that PSNR misses: contour steps in smooth areas.
///
/// The banding index is the RMS of the mid-frequency part of the error
/// (output minus reference, per RGB channel): the error blurred with σ = 2.5
/// px minus the error blurred with σ = 25 px. The small blur hides dither
/// noise (which eyes average away at viewing distance), the difference
/// removes slow colour shifts over large areas; what is left is the
/// steps a too-coarse palette leaves in a sky. On a 1600x1000 two-blue
/// gradient fitted to 800x600 it was 1.34 for pxview's sixel, 0.82 for
/// chafa's and 1.86 for img2sixel's, where PSNR ranked pxview first.
package enum Banding {
    /// `output` and `reference` are the same size; `reference` as RGB
    /// floats (0...255, row-major), `output` composited over black.
    package static func index(_ output: RGBAImage, reference: [Float]) -> Double {
        let width = output.width
        let height = output.height
        guard width > 0, height > 0, reference.count == width * height * 3 else { return .nan }
        var error = [Float](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let alpha = Float(output.pixels[i * 4 + 3]) / 255
            for c in 0..<3 { error[i * 3 + c] = Float(output.pixels[i * 4 + c]) * alpha - reference[i * 3 + c] }
        }
        let fine = blur(error, width: width, height: height, sigma: 2.5)
        let coarse = blur(error, width: width, height: height, sigma: 25)
        var sum = 0.0
        for i in 0..<error.count {
            let d = Double(fine[i] - coarse[i])
            sum += d * d
        }
        return (sum / Double(error.count)).squareRoot()
    }

    /// Separable Gaussian over RGB floats, edges clamped.
    static func blur(_ data: [Float], width: Int, height: Int, sigma: Double) -> [Float] {
        let radius = Int((3 * sigma).rounded(.up))
        let twoSigmaSquared = 2 * sigma * sigma
        var kernel: [Float] = (-radius...radius).map { (k: Int) -> Float in
            let squared = Double(k * k)
            return Float(Foundation.exp(-squared / twoSigmaSquared))
        }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let horizontal = pass(data, width: width, height: height, kernel: kernel, radius: radius, step: (1, 0))
        return pass(horizontal, width: width, height: height, kernel: kernel, radius: radius, step: (0, 1))
    }

    /// One direction of the blur: `step` (1, 0) along rows, (0, 1) down columns.
    /// A whole row of sums grows one tap at a time (each pixel's taps still
    /// added in order, so the sums are the same as pixel by pixel), which the
    /// compiler vectorises: pxbench scores 2560x1440 outputs, whose σ = 25
    /// blur has 151 taps a pixel.
    private static func pass(
        _ data: [Float], width: Int, height: Int, kernel: [Float], radius: Int, step: (x: Int, y: Int)
    ) -> [Float] {
        var out = [Float](repeating: 0, count: data.count)
        let rowLength = width * 3
        // Along rows, each row is padded with its edge pixels repeated, so
        // every tap is a plain offset; down columns, a tap is a whole row.
        var padded = [Float](repeating: 0, count: step.x == 1 ? (width + 2 * radius) * 3 : 0)
        data.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                padded.withUnsafeMutableBufferPointer { padded in
                    guard let src = source.baseAddress, let dst = target.baseAddress else { return }
                    for y in 0..<height {
                        let row = src + y * rowLength
                        if step.x == 1 {
                            for p in 0..<(width + 2 * radius) {
                                let x = min(width - 1, max(0, p - radius))
                                for c in 0..<3 { padded[p * 3 + c] = row[x * 3 + c] }
                            }
                        }
                        let sums = dst + y * rowLength
                        for (k, w) in kernel.enumerated() {
                            let tap =
                                step.x == 1
                                ? UnsafePointer(padded.baseAddress! + k * 3)
                                : src + min(height - 1, max(0, y + k - radius)) * rowLength
                            for i in 0..<rowLength { sums[i] += tap[i] * w }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The synthetic sky: `size` pixels from one blue at the top-left to
    /// another at the bottom-right, exact to the 8 bits a PNG holds.
    package static func gradient(_ size: PixelSize = PixelSize(width: 1600, height: 1000)) -> RGBAImage {
        let from: (Double, Double, Double) = (40, 90, 170)
        let to: (Double, Double, Double) = (150, 200, 245)
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let t = (Double(x) / Double(max(1, size.width - 1)) + Double(y) / Double(max(1, size.height - 1))) / 2
                let i = (y * size.width + x) * 4
                pixels[i] = UInt8((from.0 + (to.0 - from.0) * t).rounded())
                pixels[i + 1] = UInt8((from.1 + (to.1 - from.1) * t).rounded())
                pixels[i + 2] = UInt8((from.2 + (to.2 - from.2) * t).rounded())
            }
        }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }
}
