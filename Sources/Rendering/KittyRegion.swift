import Pixels

/// The part of a large image kitty holds for the viewer, at the
/// resolution the view needs, instead of the whole decoded image.
///
/// A 24 MP photo decoded in full is 96 MB of pixels: through the pty, as
/// PNG in base64, 44 MB and 1.4 s after the key that zoomed past the first
/// decode. So for images well past the window's size kitty gets the view
/// plus a margin on every side, resampled to the output's scale (never
/// above the image's own pixels): panning within the margin and zooming out
/// a step are re-placements; zooming in, or panning past the margin, sends
/// a new region.
struct KittyRegion: Equatable {
    /// The image pixels the region covers (whole pixels, inside the image).
    var source: PixelRect
    /// The uploaded size: `source` at `scale`.
    var size: PixelSize

    /// Uploaded pixels per image pixel.
    var scale: Double { Double(size.width) / Double(max(1, source.width)) }

    /// A quarter of the view on each side: one pan step (a fifth of the
    /// view) stays inside, and a 1200x800 view uploads 1800x1200 px.
    static let margin = 0.25

    /// Regions are used for images of more than this many times the
    /// window's pixels, and more than `minimumPixels`; smaller ones are
    /// uploaded whole once, as before, and every key after is a
    /// re-placement (a 2 MP photo in a 1200x800 window).
    static let imageToWindowRatio = 4
    /// 4 MP: a whole upload of at most ~6 MB through the pty, once.
    static let minimumPixels = 4_000_000

    /// A picture shown from regions rather than uploaded whole.
    static func isWanted(image: PixelSize, window: PixelSize, minimumPixels: Int = minimumPixels) -> Bool {
        let pixels = image.width * image.height
        return pixels > minimumPixels && pixels > imageToWindowRatio * window.width * window.height
    }

    /// Zoomed out by more than this against the uploaded scale, kitty's
    /// GPU downscale (no mipmaps) aliases visibly: a new region is sent.
    /// 1.3 lets one zoom-out step (1.25) be a re-placement.
    static let maxOversampling = 1.3

    /// The region for a view showing `view` (image pixels) at
    /// `outputScale` output pixels per image pixel.
    static func around(_ view: SourceRect, outputScale: Double, image: PixelSize) -> KittyRegion {
        let marginX = view.width * margin
        let marginY = view.height * margin
        let left = max(0, Int((view.x - marginX).rounded(.down)))
        let top = max(0, Int((view.y - marginY).rounded(.down)))
        let right = min(image.width, Int((view.x + view.width + marginX).rounded(.up)))
        let bottom = min(image.height, Int((view.y + view.height + marginY).rounded(.up)))
        let source = PixelRect(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        let scale = min(1, max(1e-6, outputScale))
        let size = PixelSize(
            width: max(1, min(source.width, Int((Double(source.width) * scale).rounded(.up)))),
            height: max(1, min(source.height, Int((Double(source.height) * scale).rounded(.up)))))
        return KittyRegion(source: source, size: size)
    }

    /// True when this region shows `view` at `outputScale` well: it holds
    /// the whole view, with enough pixels, and not too many.
    func covers(_ view: SourceRect, outputScale: Double) -> Bool {
        let inside =
            view.x >= Double(source.x) - 0.01 && view.y >= Double(source.y) - 0.01
            && view.x + view.width <= Double(source.x + source.width) + 0.01
            && view.y + view.height <= Double(source.y + source.height) + 0.01
        let needed = min(1, outputScale)
        return inside && scale >= needed * 0.999 && scale <= needed * Self.maxOversampling
    }

    /// `view` in the uploaded region's pixels.
    func show(_ view: SourceRect) -> SourceRect {
        let sx = Double(size.width) / Double(source.width)
        let sy = Double(size.height) / Double(source.height)
        return SourceRect(
            x: (view.x - Double(source.x)) * sx, y: (view.y - Double(source.y)) * sy,
            width: view.width * sx, height: view.height * sy)
    }
}
