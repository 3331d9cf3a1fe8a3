import Pixels

/// How an image is fitted into the view before the user zooms.
package enum FitMode: String, Sendable, CaseIterable {
    /// The whole image fits inside the view (letterboxed).
    case contain
    /// The image fills the view; the overflowing axis is cropped.
    case cover
    /// Like `contain`, but never enlarges a small image beyond its native size.
    case down
    /// One image pixel per view pixel.
    case actual
}

/// Which side of the image `Viewport.edge(_:)` jumps to.
package enum ViewportEdge: String, Sendable, CaseIterable {
    case left, right, top, bottom
}

/// Pure value math for a view of an image: fit, zoom, pan and what part of
/// the image ends up where on screen. No pixels are touched here, so every
/// rule is cheap to test exactly.
///
/// Coordinates:
/// - *image pixels*: the full image, `0..<imageSize` per axis, fractional.
/// - *centre*: fractions `0...1` of the image, the image point shown at the
///   middle of the view.
/// - *output pixels*: the drawn output (`outputSize`), origin at its top-left.
///   The output sits inside the view at `placement`.
///
/// Rounding rules:
/// - `outputSize` per axis is `min(view, max(1, round(image × scale)))` with
///   halves rounded away from zero; it is 0 only when the image or view is empty.
/// - `placement` centres the output, flooring odd leftover pixels: the extra
///   pixel of margin goes to the right/bottom.
/// - `sourceRect` is never rounded, so zooming and panning stay smooth.
///
/// Clamping: along an axis where the scaled image overflows the view, the
/// centre is kept where no empty margin appears; along an axis where it fits,
/// the whole axis is shown and the centre is 0.5. Zoom stays within
/// `minZoom...maxZoom`. The initialiser and every operation return clamped
/// values; the computed properties clamp on the fly too, so setting the
/// stored properties directly never yields NaN or an out-of-image source.
package struct Viewport: Sendable, Equatable {
    /// Full image size in display orientation.
    package var imageSize: PixelSize
    /// The box on screen, in pixels.
    package var viewSize: PixelSize
    package var fit: FitMode
    /// 1 = the fit scale; 2 = twice the fit scale.
    package var zoom: Double
    /// The image point (fraction 0...1 of the width) at the middle of the view.
    package var centerX: Double
    /// The image point (fraction 0...1 of the height) at the middle of the view.
    package var centerY: Double

    /// Zooming out to a quarter of the fit scale is allowed, so a fitted image
    /// can still be shrunk to see it whole with context.
    package static let minZoom = 0.25
    /// Zooming in stops at this many view pixels per image pixel: beyond it
    /// only blocks get bigger.
    package static let maxNativeMagnification = 16.0
    /// The largest zoom anyone can ask for (`--zoom`): 16 screen pixels per
    /// image pixel for a 100-megapixel photo fitted into a 40-pixel box.
    /// Beyond it no view changes, and it keeps every size computed from a
    /// zoom far inside `Int`.
    package static let maxRequestedZoom = 4096.0

    package init(
        imageSize: PixelSize, viewSize: PixelSize, fit: FitMode = .contain,
        zoom: Double = 1, centerX: Double = 0.5, centerY: Double = 0.5
    ) {
        self.imageSize = imageSize
        self.viewSize = viewSize
        self.fit = fit
        self.zoom = zoom
        self.centerX = centerX
        self.centerY = centerY
        self = clamped()
    }

    /// The centre as a pair, for callers that think in points.
    package var center: (x: Double, y: Double) {
        get { (centerX, centerY) }
        set {
            centerX = newValue.x
            centerY = newValue.y
        }
    }

    // MARK: Scale

    /// View pixels per image pixel at zoom 1. Falls back to 1 while the image
    /// or the view is empty, so a later resize can still compute from zoom.
    package var fitScale: Double {
        guard !imageSize.isEmpty, !viewSize.isEmpty else { return 1 }
        let sx = Double(viewSize.width) / Double(imageSize.width)
        let sy = Double(viewSize.height) / Double(imageSize.height)
        switch fit {
        case .contain: return min(sx, sy)
        case .cover: return max(sx, sy)
        case .down: return min(1, min(sx, sy))
        case .actual: return 1
        }
    }

    /// The largest zoom: 16 view pixels per image pixel, but never below the
    /// fit itself (a tiny image fitted to a big view is already past 16×).
    package var maxZoom: Double { max(1, Self.maxNativeMagnification / fitScale) }

    /// `zoom` as it takes effect: clamped, and 1 if it is not a finite number.
    package var effectiveZoom: Double {
        guard zoom.isFinite else { return 1 }
        return min(max(zoom, Self.minZoom), maxZoom)
    }

    /// View pixels per image pixel.
    package var scale: Double { fitScale * effectiveZoom }

    // MARK: Layout

    /// The drawn size: the scaled image, cut to the view.
    package var outputSize: PixelSize {
        let (x, y) = axes
        return PixelSize(width: x.output, height: y.output)
    }

    /// The visible region in image pixels: `outputSize / scale` around the
    /// centre, inside the image.
    package var sourceRect: SourceRect {
        let (x, y) = axes
        return SourceRect(x: x.origin, y: y.origin, width: x.length, height: y.length)
    }

    /// `sourceRect` measured on an image of `pixels` size instead of
    /// `imageSize`: the region to resample from a DCT-scaled decode (or, for
    /// text pictures, from the unstretched image) of the same picture.
    package func sourceRect(inImageOf pixels: PixelSize) -> SourceRect {
        let rect = sourceRect
        let sx = Double(pixels.width) / Double(max(1, imageSize.width))
        let sy = Double(pixels.height) / Double(max(1, imageSize.height))
        return SourceRect(x: rect.x * sx, y: rect.y * sy, width: rect.width * sx, height: rect.height * sy)
    }

    /// Where the output sits inside the view, in view pixels: `outputSize`,
    /// centred along an axis where it is smaller than the view (an odd
    /// leftover pixel goes to the right/bottom margin), at 0 where it fills it.
    package var placement: PixelRect {
        let size = outputSize
        return PixelRect(
            x: (viewSize.width - size.width) / 2, y: (viewSize.height - size.height) / 2,
            width: size.width, height: size.height)
    }

    /// The image point (in image pixels) drawn at `point`, given in output
    /// pixels from the drawn output's top-left (the frame `zoomed(by:anchor:)`
    /// uses). Points outside the output extrapolate linearly.
    package func imagePoint(atViewPoint point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let (x, y) = axes
        return (x.imageCoordinate(atOutput: point.x), y.imageCoordinate(atOutput: point.y))
    }

    /// Converts a point measured from the view's top-left into the output
    /// frame the other methods take.
    package func outputPoint(fromViewPoint point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let place = placement
        return (point.x - Double(place.x), point.y - Double(place.y))
    }

    // MARK: Operations

    /// This viewport with zoom and centre brought inside their bounds and
    /// non-finite values replaced by the defaults.
    package func clamped() -> Viewport {
        var result = self
        result.zoom = effectiveZoom
        let (x, y) = result.axes
        result.centerX = x.center
        result.centerY = y.center
        return result
    }

    /// Zooms by `factor` keeping the image point under `anchor` where it is on
    /// screen (as nsxiv does), then clamps. `anchor` is in output pixels from
    /// the drawn output's top-left; by default the middle of the view.
    package func zoomed(by factor: Double, anchor: (x: Double, y: Double)? = nil) -> Viewport {
        guard factor.isFinite, factor > 0 else { return clamped() }
        return zoomed(to: effectiveZoom * factor, anchor: anchor)
    }

    /// Sets the zoom, keeping the image point under `anchor` still; see
    /// `zoomed(by:anchor:)`. Taking the target directly (rather than a factor)
    /// lets the 1×/2× toggle land on exactly 1 and 2.
    package func zoomed(to newZoom: Double, anchor: (x: Double, y: Double)? = nil) -> Viewport {
        let old = clamped()
        guard newZoom.isFinite, newZoom > 0, !imageSize.isEmpty, !viewSize.isEmpty else { return old }
        let place = old.placement
        let anchorOutput = anchor ?? old.outputPoint(fromViewPoint: (Double(viewSize.width) / 2, Double(viewSize.height) / 2))
        let fixedPoint = old.imagePoint(atViewPoint: anchorOutput)
        // Where the anchor is in the view: it must stay there.
        let anchorInViewX = Double(place.x) + anchorOutput.x
        let anchorInViewY = Double(place.y) + anchorOutput.y

        var new = old
        new.zoom = newZoom
        new.zoom = new.effectiveZoom
        let newScale = new.scale
        // Along an overflowing axis the output fills the view (placement 0) and
        // output pixel `a` shows image point origin + a / scale: solve for the
        // centre. Along an axis that fits, clamping recentres anyway.
        new.centerX = (fixedPoint.x + (Double(viewSize.width) / 2 - anchorInViewX) / newScale) / Double(imageSize.width)
        new.centerY = (fixedPoint.y + (Double(viewSize.height) / 2 - anchorInViewY) / newScale) / Double(imageSize.height)
        return new.clamped()
    }

    /// Pans by a fraction of the visible view (0.2 = a fifth of it). Positive
    /// values move the view right/down over the image, showing more of the
    /// right/bottom side.
    /// The move is rounded to whole view pixels, so what stays in view
    /// lands on whole pixels and the sixel viewer can copy it rather than
    /// resample it (a fifth of a 612-px view is 122.4 px).
    package func panned(byViewFractionX dx: Double, y dy: Double) -> Viewport {
        panned(byViewPixelsX: (dx * Double(viewSize.width)).rounded(), y: (dy * Double(viewSize.height)).rounded())
    }

    /// Pans by view pixels, for mouse drags. Same direction as
    /// `panned(byViewFractionX:y:)`: a drag that pulls the image left is a
    /// positive `dx`.
    package func panned(byViewPixelsX dx: Double, y dy: Double) -> Viewport {
        let old = clamped()
        guard dx.isFinite, dy.isFinite, !imageSize.isEmpty else { return old }
        var new = old
        let scale = old.scale
        new.centerX += dx / scale / Double(imageSize.width)
        new.centerY += dy / scale / Double(imageSize.height)
        return new.clamped()
    }

    /// Double-tap behaviour: at zoom 1 zoom to 2 about `anchor`, otherwise go
    /// back to 1 about `anchor`. Both directions keep the anchored image point
    /// still, so toggling twice at the same spot returns to where it started.
    package func toggledOneTwo(anchor: (x: Double, y: Double)? = nil) -> Viewport {
        let old = clamped()
        return old.zoomed(to: abs(old.zoom - 1) < 1e-9 ? 2 : 1, anchor: anchor)
    }

    /// Zoom 1, centred.
    package func reset() -> Viewport {
        Viewport(imageSize: imageSize, viewSize: viewSize, fit: fit)
    }

    /// Jumps to one edge of the image, keeping the other axis.
    package func edge(_ edge: ViewportEdge) -> Viewport {
        var new = clamped()
        switch edge {
        case .left: new.centerX = 0
        case .right: new.centerX = 1
        case .top: new.centerY = 0
        case .bottom: new.centerY = 1
        }
        return new.clamped()
    }

    /// The same zoom and centre in a view of another size, clamped.
    package func resized(to viewSize: PixelSize) -> Viewport {
        var new = self
        new.viewSize = viewSize
        return new.clamped()
    }

    // MARK: Per-axis layout

    /// Everything about one axis, derived from the stored values with all
    /// clamping applied. Both axes follow the same rules, so they share it.
    private struct AxisLayout {
        /// Drawn pixels along the axis.
        var output: Int
        /// First visible image coordinate (fractional).
        var origin: Double
        /// Visible image length (fractional).
        var length: Double
        /// Clamped centre fraction.
        var center: Double

        init(image: Int, view: Int, scale: Double, center requested: Double) {
            guard image > 0, view > 0 else {
                self.output = 0
                self.origin = 0
                self.length = Double(image)
                self.center = 0.5
                return
            }
            // Capped before the Int conversion so absurd scales cannot trap.
            let scaled = min(Double(image) * scale, Double(Int32.max))
            let rounded = max(1, Int(scaled.rounded()))
            if rounded <= view {
                self.output = rounded
                self.origin = 0
                self.length = Double(image)
                self.center = 0.5
                return
            }
            // Overflowing: view / scale < image because view < round(image × scale).
            let length = Double(view) / scale
            let half = length / 2
            let wanted = requested.isFinite ? requested * Double(image) : Double(image) / 2
            let middle = min(max(wanted, half), Double(image) - half)
            self.output = view
            self.origin = middle - half
            self.length = length
            self.center = middle / Double(image)
        }

        func imageCoordinate(atOutput value: Double) -> Double {
            guard output > 0 else { return origin }
            return origin + value * length / Double(output)
        }
    }

    private var axes: (x: AxisLayout, y: AxisLayout) {
        let scale = self.scale
        return (
            AxisLayout(image: imageSize.width, view: viewSize.width, scale: scale, center: centerX),
            AxisLayout(image: imageSize.height, view: viewSize.height, scale: scale, center: centerY)
        )
    }
}
