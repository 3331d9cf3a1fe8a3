import Decoding
import Encoding
import Pixels
import Scaling

/// How the user wants the picture framed: `--fit`, `--zoom`, `--center`.
public struct ViewSettings: Equatable, Sendable {
    public var fit: FitMode
    public var zoom: Double
    public var centerX: Double
    public var centerY: Double

    public init(fit: FitMode = .contain, zoom: Double = 1, centerX: Double = 0.5, centerY: Double = 0.5) {
        self.fit = fit
        self.zoom = zoom
        self.centerX = centerX
        self.centerY = centerY
    }
}

/// One drawn image: the escape codes, and the pixels and cells it covers.
public struct RenderedImage: Sendable {
    public var bytes: [UInt8]
    /// Size of the drawn picture in screen pixels (half-blocks: in cells x 2).
    public var pixelSize: PixelSize
    /// Cells the picture covers, so callers can move the cursor past it.
    public var cells: PixelSize
}

/// The pixel pipeline in one place: bytes → decode (straight to the size
/// needed) → viewport → resample → encode. `pxview show`, `open`, the
/// explorer and `pxbench` all draw through it, so they cannot drift apart.
public struct ImageRenderer: Sendable {
    public var resampler: Resampler

    public init(resampler: Resampler = Resampler()) {
        self.resampler = resampler
    }

    /// Decodes `bytes` no larger than the view needs. For `contain` and
    /// `down` the image is fitted into the box, so a box `zoom` times larger
    /// tells TurboJPEG how far it may DCT-scale; `cover` and `actual` need
    /// the full resolution.
    public func decode(_ bytes: [UInt8], settings: ViewSettings, target: DisplayTarget, maxPixels: Int) throws(DecodeError)
        -> DecodedImage
    {
        var options = DecodeOptions(maxPixels: maxPixels)
        if settings.fit == .contain || settings.fit == .down {
            let box = target.graphics == .blocks ? blockUnitBox(target) : target.box
            let zoom = max(1, settings.zoom)
            options.targetSize = PixelSize(
                width: Int((Double(box.width) * zoom).rounded(.up)), height: Int((Double(box.height) * zoom).rounded(.up)))
        }
        return try decodeImage(bytes, options: options)
    }

    /// The viewport of an image of `image` size (its full size, even when
    /// the pixels come from a DCT-scaled decode, so the output size does not
    /// depend on how it was decoded) in `target` with the user's framing.
    public func viewport(for image: PixelSize, settings: ViewSettings, target: DisplayTarget) -> Viewport {
        switch target.graphics {
        case .kitty, .sixel:
            return Viewport(
                imageSize: image, viewSize: target.box, fit: settings.fit, zoom: settings.zoom,
                centerX: settings.centerX, centerY: settings.centerY)
        case .blocks:
            // Work in half-block units: a cell is one unit wide and two tall, so the
            // image is stretched vertically by the cell's shape before fitting.
            return Viewport(
                imageSize: blockImageSize(image, target), viewSize: blockUnitBox(target), fit: settings.fit,
                zoom: settings.zoom, centerX: settings.centerX, centerY: settings.centerY)
        }
    }

    /// Draws the visible part of `image` through `viewport`.
    public func render(_ image: RGBAImage, viewport: Viewport, target: DisplayTarget, imageID: UInt32 = 1) -> RenderedImage {
        let output = viewport.outputSize
        // The viewport measures the full image (stretched for half-blocks); the
        // pixels at hand may be a DCT-scaled decode.
        let pixels = resampler.resample(image, from: viewport.sourceRect(inImageOf: image.size), to: output)
        var bytes: [UInt8]
        let cells: PixelSize
        switch target.graphics {
        case .sixel:
            bytes = SixelRenderer(options: .init(colorRegisters: target.colorRegisters)).render(pixels)
            cells = cellsCovering(output, target.cellSize)
        case .kitty:
            cells = cellsCovering(output, target.cellSize)
            // No c/r: kitty would stretch the picture to fill whole cells
            // (up to a cell's worth of distortion); at its own pixel size it
            // is exact. `cells` still tells the caller how far to move on.
            bytes = KittyEncoder().transmitAndPlace(pixels, imageID: imageID, placementID: 1, columns: 0, rows: 0)
        case .blocks:
            cells = PixelSize(width: output.width, height: (output.height + 1) / 2)
            bytes = HalfBlockEncoder().encode(pixels, columns: output.width)
        }
        if target.tmuxPassthrough { bytes = TmuxPassthrough.wrap(bytes) }
        return RenderedImage(bytes: bytes, pixelSize: output, cells: cells)
    }

    /// Whole cells covering `pixels`.
    func cellsCovering(_ pixels: PixelSize, _ cell: PixelSize) -> PixelSize {
        PixelSize(
            width: (pixels.width + cell.width - 1) / max(1, cell.width),
            height: (pixels.height + cell.height - 1) / max(1, cell.height))
    }

    /// The box in half-block units: one per column, two per row.
    func blockUnitBox(_ target: DisplayTarget) -> PixelSize {
        PixelSize(width: target.cells.width, height: target.cells.height * 2)
    }

    /// The image measured in half-block units' shape: a unit is `cell.width`
    /// wide and `cell.height / 2` tall on screen.
    func blockImageSize(_ image: PixelSize, _ target: DisplayTarget) -> PixelSize {
        let stretch = 2 * Double(target.cellSize.width) / Double(max(1, target.cellSize.height))
        return PixelSize(width: image.width, height: max(1, Int((Double(image.height) * stretch).rounded())))
    }
}
