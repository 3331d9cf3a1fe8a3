import Foundation
import GraphicsReadback
import Pixels

/// The yardstick every tool's output is scored against: a Lanczos-3 resize of
/// the decoded source to the tool's own output size, composited on black (as
/// a terminal with a dark background shows transparency). Slow and simple on
/// purpose: it is the reference, not the thing being measured.
enum LanczosReference {
    /// `rgb` is the source as `flattenedRGB` gives it, `sourceSize` pixels:
    /// flattened once per photo, since one photo is resized to several
    /// output sizes (one per box, and tools differ by a pixel or so).
    static func resize(_ rgb: [Float], sourceSize: PixelSize, to size: PixelSize) -> [Float] {
        let horizontal = pass(rgb, length: sourceSize.width, count: sourceSize.height, newLength: size.width, horizontal: true)
        return pass(horizontal, length: sourceSize.height, count: size.width, newLength: size.height, horizontal: false)
    }

    /// RGB floats with alpha applied over black.
    static func flattenedRGB(_ image: RGBAImage) -> [Float] {
        var out = [Float](repeating: 0, count: image.width * image.height * 3)
        for i in 0..<(image.width * image.height) {
            let a = Float(image.pixels[i * 4 + 3]) / 255
            for c in 0..<3 { out[i * 3 + c] = Float(image.pixels[i * 4 + c]) * a }
        }
        return out
    }

    private static func kernel(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// One separable pass. `horizontal`: data is rows of `length` pixels,
    /// `count` rows; otherwise columns of `length` pixels in a row-major
    /// image `count` wide.
    private static func pass(_ data: [Float], length: Int, count: Int, newLength: Int, horizontal: Bool) -> [Float] {
        let scale = Double(newLength) / Double(length)
        let support = scale < 1 ? 3 / scale : 3
        var out = [Float](repeating: 0, count: newLength * count * 3)
        for j in 0..<newLength {
            let center = (Double(j) + 0.5) / scale
            let lo = max(0, Int((center - support).rounded(.down)))
            let hi = min(length - 1, Int((center + support).rounded(.up)))
            var weights: [(Int, Double)] = []
            var total = 0.0
            if lo <= hi {
                for i in lo...hi {
                    let w = kernel((Double(i) + 0.5 - center) * min(scale, 1))
                    if w != 0 {
                        weights.append((i, w))
                        total += w
                    }
                }
            }
            if total == 0 { continue }
            for k in 0..<count {
                for c in 0..<3 {
                    var sum = 0.0
                    for (i, w) in weights {
                        let index = horizontal ? (k * length + i) * 3 + c : (i * count + k) * 3 + c
                        sum += Double(data[index]) * w
                    }
                    let target = horizontal ? (k * newLength + j) * 3 + c : (j * count + k) * 3 + c
                    out[target] = Float(min(255, max(0, sum / total)))
                }
            }
        }
        return out
    }

    /// Peak signal-to-noise ratio in dB of an RGBA image (over black) against
    /// RGB floats (`PSNR`); 99 for identical pictures, 0 when they do not match up.
    static func psnr(_ image: RGBAImage, reference: [Float]) -> Double {
        let rgb = flattenedRGB(image)
        guard rgb.count == reference.count,
            let decibels = PSNR.decibels(differences: zip(rgb, reference).lazy.map { Double($0.rounded() - $1.rounded()) })
        else { return 0 }
        return decibels.isInfinite ? 99 : decibels
    }
}
