import Pixels

/// The window as the explorer sees it: its size in cells, how many image
/// units one cell holds (screen pixels for sixel and kitty; 1x2 half-block
/// units for blocks), and the largest picture the terminal will show.
public struct ScreenGeometry: Equatable, Sendable {
    public var graphics: GraphicsProtocol
    /// width = columns, height = rows.
    public var windowCells: PixelSize
    /// Screen pixels per cell (used for thumbnails and pixel protocols).
    public var cellPixels: PixelSize
    /// Sixel images larger than this are dropped by xterm, so views are capped.
    public var sixelMaxSize: PixelSize?

    public init(graphics: GraphicsProtocol, windowCells: PixelSize, cellPixels: PixelSize, sixelMaxSize: PixelSize? = nil) {
        self.graphics = graphics
        self.windowCells = PixelSize(width: max(1, windowCells.width), height: max(1, windowCells.height))
        self.cellPixels = PixelSize(width: max(1, cellPixels.width), height: max(1, cellPixels.height))
        self.sixelMaxSize = sixelMaxSize
    }

    /// Image units per cell: pixels for sixel/kitty, one column by two
    /// half-rows for blocks.
    public var unitsPerCell: PixelSize {
        graphics == .blocks ? PixelSize(width: 1, height: 2) : cellPixels
    }

    /// The box for a picture covering `cells`, in image units, capped by
    /// `DisplayTarget.maxBoxSide` (as `show`'s box is) and the sixel limit.
    public func unitBox(cells: PixelSize) -> PixelSize {
        let units = unitsPerCell
        var box = PixelSize(
            width: min(cells.width * units.width, DisplayTarget.maxBoxSide),
            height: min(cells.height * units.height, DisplayTarget.maxBoxSide))
        if graphics == .sixel, let limit = sixelMaxSize, !limit.isEmpty {
            box = PixelSize(width: min(box.width, limit.width), height: min(box.height, limit.height))
        }
        return box
    }

    /// The viewport's notion of the image size: in half-block units the
    /// image is stretched vertically by the cell's shape, so a fitted picture
    /// keeps its proportions on screen.
    public func unitImageSize(_ pixels: PixelSize) -> PixelSize {
        guard graphics == .blocks else { return pixels }
        let stretch = 2 * Double(cellPixels.width) / Double(cellPixels.height)
        return PixelSize(width: pixels.width, height: max(1, Int((Double(pixels.height) * stretch).rounded())))
    }
}
