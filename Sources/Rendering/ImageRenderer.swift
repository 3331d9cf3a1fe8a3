import Decoding
import Encoding
import Pixels
import Scaling

/// How the user wants the picture framed: `--fit`, `--zoom`, `--center`.
package struct ViewFraming: Equatable, Sendable {
    package var fit: FitMode
    package var zoom: Double
    package var centerX: Double
    package var centerY: Double

    package init(fit: FitMode = .contain, zoom: Double = 1, centerX: Double = 0.5, centerY: Double = 0.5) {
        self.fit = fit
        self.zoom = zoom
        self.centerX = centerX
        self.centerY = centerY
    }
}

/// How many pixels to decode: the one rule `show`, `open`, the search
/// strip, the browser's thumbnails and the viewer all follow.
package enum DecodeSize {
    /// Thumbnails are Pixabay previews (at most 150 px); a "preview" larger
    /// than 4 megapixels is refused rather than decoded, since a hostile
    /// server could otherwise make every tile cost a 100-megapixel decode.
    package static let thumbnailMaxPixels = 4_000_000

    /// For `contain` and `down` the image is fitted into the box, so a box
    /// `zoom` times larger (in image pixels: text units are not
    /// square) tells the decoder how far it may DCT-scale; `cover` and 1:1
    /// need the full resolution.
    package static func options(box: PixelSize, screen: BackendGeometry, settings: ViewFraming, maxPixels: Int) -> DecodeOptions {
        var options = DecodeOptions(maxPixels: maxPixels)
        if settings.fit == .contain || settings.fit == .down {
            let zoom = settings.zoom.isFinite ? min(Viewport.maxNativeMagnification, max(1, settings.zoom)) : 1
            let stretch = screen.unitStretch
            options.targetSize = PixelSize(
                width: Int(min(Double(TerminalGeometry.maxBoxSide), (Double(box.width) * zoom).rounded(.up))),
                height: Int(min(Double(TerminalGeometry.maxBoxSide), (Double(box.height) * zoom / stretch).rounded(.up))))
        }
        return options
    }

    /// A thumbnail fitted into `box`. A user's own file (`local`: `show
    /// DIR`) is no preview: its photos are as large as cameras make them,
    /// decoded straight to the tile size (DCT scaling, PNG reduced row by
    /// row) under the usual limit.
    package static func thumbnail(box: PixelSize, screen: BackendGeometry, maxPixels: Int, local: Bool = false) -> DecodeOptions {
        var options = self.options(box: box, screen: screen, settings: ViewFraming(), maxPixels: maxPixels)
        if !local { options.maxPixels = min(maxPixels, thumbnailMaxPixels) }
        return options
    }
}

extension DrawingPlan {
    /// `image` over the background the user chose (`--bg`), when it has
    /// transparency: see `BackgroundChoice`.
    package func composited(_ image: RGBAImage) -> RGBAImage {
        background.fill(for: image, terminal: geometry.background)?.composite(image) ?? image
    }

    /// Decodes `bytes` as `options` say, then composites the background
    /// under every frame: one background for them all, chosen by the first
    /// frame with transparency, so an animation's never changes as it plays.
    package func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let decoded = try decodeImage(bytes, options: options)
        let fills = decoded.frames.lazy.compactMap { self.background.fill(for: $0.image, terminal: self.geometry.background) }
        guard let fill = fills.first else { return decoded }
        return decoded.mapImages { $0.hasTransparency ? fill.composite($0) : $0 }
    }
}

/// The one-shot pixel pipeline: bytes → decode (straight to the size
/// needed) → viewport → resample → the backend's inline picture.
/// `pxview show`, `open`, the search strip and `pxbench` all draw through
/// it; the explorer draws the same way through the backend's slots.
package struct ImageRenderer: Sendable {
    package var resampler: Resampler

    package init(resampler: Resampler = Resampler()) {
        self.resampler = resampler
    }

    /// Decodes `bytes` no larger than `box` (in `screen`'s units) framed
    /// by `settings` needs, composited as `drawing` says; of an animation
    /// at most `maxFrames` frames (nil: all).
    package func decode(
        _ bytes: [UInt8], settings: ViewFraming, box: PixelSize, drawing: DrawingPlan, screen: BackendGeometry, maxPixels: Int,
        maxFrames: Int? = nil
    ) throws(DecodeError) -> DecodedImage {
        var options = DecodeSize.options(box: box, screen: screen, settings: settings, maxPixels: maxPixels)
        options.maxFrames = maxFrames
        return try drawing.decode(bytes, options: options)
    }

    /// The viewport of an image of `image` size (its full size, even when
    /// the pixels come from a DCT-scaled decode, so the output size does not
    /// depend on how it was decoded) in `box` with the user's framing.
    package func viewport(for image: PixelSize, settings: ViewFraming, box: PixelSize, screen: BackendGeometry) -> Viewport {
        Viewport(
            imageSize: screen.unitImageSize(image), viewSize: box, fit: settings.fit, zoom: settings.zoom,
            centerX: settings.centerX, centerY: settings.centerY)
    }

    /// The visible part of `image` through `viewport`, resampled; at the
    /// size `screen` draws a picture at the cursor (`BackendGeometry.inlineSize`).
    package func pixels(_ image: RGBAImage, viewport: Viewport, screen: BackendGeometry? = nil) -> RGBAImage {
        resampler.resample(
            image, from: viewport.sourceRect(inImageOf: image.size),
            to: screen?.inlineSize(viewport.outputSize) ?? viewport.outputSize)
    }

    /// The same, its rows resampled when asked (`Resampler.rows`).
    package func rows(_ image: RGBAImage, viewport: Viewport) -> PixelRows {
        resampler.rows(image, from: viewport.sourceRect(inImageOf: image.size), to: viewport.outputSize)
    }

    /// Draws the visible part of `image` through `viewport` at the cursor.
    package func render(_ image: RGBAImage, viewport: Viewport, backend: any GraphicsBackend, imageID: UInt32 = 1)
        -> InlinePicture
    {
        backend.inline(pixels(image, viewport: viewport, screen: backend.screen), imageID: imageID)
    }
}
