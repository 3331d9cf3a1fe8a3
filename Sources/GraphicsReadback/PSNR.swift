import Foundation
import Pixels

/// Peak signal-to-noise ratio for 8-bit samples, the one helper pxbench and
/// the tests score pictures with: 10·log10(255² / mean squared error), in dB.
package enum PSNR {
    /// dB for this mean squared error; infinity when it is 0 (identical).
    package static func decibels(meanSquaredError: Double) -> Double {
        meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
    }

    /// dB over sample differences (on the 0...255 scale); nil when there
    /// are none, so a caller decides what comparing nothing scores.
    package static func decibels(differences: some Sequence<Double>) -> Double? {
        var squaredError = 0.0
        var count = 0
        for difference in differences {
            squaredError += difference * difference
            count += 1
        }
        return count == 0 ? nil : decibels(meanSquaredError: squaredError / Double(count))
    }

    /// dB over the RGB channels of the pixels opaque (alpha >= 128) in
    /// `reference`; the images must be the same size. Infinity when those
    /// match exactly, 0 when `reference` has no opaque pixel.
    package static func decibels(_ reference: RGBAImage, _ other: RGBAImage) -> Double {
        precondition(reference.width == other.width && reference.height == other.height, "PSNR of different sizes")
        let a = reference.pixels
        let b = other.pixels
        let differences = stride(from: 0, to: a.count, by: 4).lazy.filter { a[$0 + 3] >= 128 }
            .flatMap { i in (0..<3).lazy.map { c in Double(a[i + c]) - Double(b[i + c]) } }
        return decibels(differences: differences) ?? 0
    }
}
