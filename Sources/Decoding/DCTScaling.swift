import CTurboJPEG
import Pixels

/// A JPEG decode scale num/denom, as libjpeg-turbo's IDCT offers them.
struct DCTScale: Equatable, Sendable, CustomStringConvertible {
    var numerator: Int
    var denominator: Int

    static let full = DCTScale(numerator: 1, denominator: 1)

    /// A dimension after scaling, rounded up exactly like libjpeg-turbo (TJSCALED).
    func scaled(_ dimension: Int) -> Int {
        Int(pxview_tjscaled(Int32(clamping: dimension), tjscalingfactor(num: Int32(numerator), denom: Int32(denominator))))
    }

    func scaled(_ size: PixelSize) -> PixelSize {
        PixelSize(width: scaled(size.width), height: scaled(size.height))
    }

    var description: String { "\(numerator)/\(denominator)" }

    /// The reductions used, smallest first: 1/8, 1/4, 1/2 and 3/4, as
    /// libjpeg-turbo offers them. 3/4 keeps the decode near the size shown:
    /// an 8 MP photo (3500x2333) fitted to 2560x1440 decodes at 2625x1750
    /// (18 MB of pixels) instead of in full (33 MB): peak RSS of a 2560x1440
    /// sixel `show` 62 → 47 MB (chafa 55). The other eighths are left out:
    /// on a heavily compressed 1280x853 photo fitted to 800x534 the decode
    /// differed from a Lanczos resize of the full decode by 3.9 levels RMS
    /// at 5/8 and 2.1 at 7/8 (block edges the near-1:1 resample keeps), 1.1
    /// at 3/4 (djpeg -scale, against ImageMagick's Lanczos).
    static let reductions: [DCTScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [] }
        let offered = (0..<Int(count)).map { DCTScale(numerator: Int(factors[$0].num), denominator: Int(factors[$0].denom)) }
        let used = [(1, 8), (1, 4), (1, 2), (3, 4)]
        return used.map { DCTScale(numerator: $0.0, denominator: $0.1) }.filter(offered.contains)
    }()

    /// The smallest reduction whose output still covers the image's
    /// contain-fit inside `target`, or `.full` when none does.
    ///
    /// Both sizes are in display orientation; scaling is uniform, so the
    /// stored orientation does not matter here. Covering the fitted size in
    /// both dimensions means the resampler only ever shrinks, never enlarges.
    static func choose(imageSize: PixelSize, target: PixelSize?, among candidates: [DCTScale] = reductions) -> DCTScale {
        guard let target, !target.isEmpty, !imageSize.isEmpty else { return .full }
        let needed = fittedSize(of: imageSize, in: target)
        for scale in candidates {
            let scaled = scale.scaled(imageSize)
            if scaled.width >= needed.width && scaled.height >= needed.height { return scale }
        }
        return .full
    }
}

/// The size of `image` scaled (up or down) to fit inside `box` keeping its
/// aspect ratio, each side rounded up so a covering decode is never a pixel short.
///
/// Sides are at most `maxSide` (a box larger than any image asks for the
/// full size anyway), so the products below stay far inside `Int`.
func fittedSize(of image: PixelSize, in box: PixelSize) -> PixelSize {
    let maxSide = 1 << 24
    let (w, h) = (min(image.width, maxSide), min(image.height, maxSide))
    let (bw, bh) = (min(box.width, maxSide), min(box.height, maxSide))
    if bw * h <= bh * w {  // width is the limiting side
        return PixelSize(width: bw, height: (h * bw + w - 1) / w)
    } else {
        return PixelSize(width: (w * bh + h - 1) / h, height: bh)
    }
}
