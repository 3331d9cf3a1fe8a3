import Pixels

/// The window as layouts see it, in the units of the backend that draws:
/// screen pixels for sixel and kitty, the text pictures' samples (8x8 per
/// cell for symbols; one column, half a row for blocks). Derived from `TerminalGeometry` by the backend
/// (`GraphicsBackend.screen`), never measured on its own, so layouts, the
/// viewer's state and the decode size all agree with what gets drawn.
package struct BackendGeometry: Equatable, Sendable {
    /// width = columns, height = rows.
    package var windowCells: CellCount
    /// Screen pixels per cell.
    package var cellPixels: PixelSize
    /// Image units per cell.
    package var unitsPerCell: PixelSize
    /// The largest picture the terminal shows, in units (sixel: XTSMGRAPHICS).
    package var pictureLimit: PixelSize?
    /// Pictures drawn at the cursor are whole cells (text pictures): see `inlineSize`.
    package var wholeCells: Bool

    package init(
        windowCells: CellCount, cellPixels: PixelSize, unitsPerCell: PixelSize, pictureLimit: PixelSize? = nil,
        wholeCells: Bool = false
    ) {
        self.windowCells = CellCount(width: max(1, windowCells.width), height: max(1, windowCells.height))
        self.cellPixels = PixelSize(width: max(1, cellPixels.width), height: max(1, cellPixels.height))
        self.unitsPerCell = PixelSize(width: max(1, unitsPerCell.width), height: max(1, unitsPerCell.height))
        self.pictureLimit = pictureLimit.flatMap { $0.isEmpty ? nil : $0 }
        self.wholeCells = wholeCells
    }

    /// The size a picture of `output` units is drawn at the cursor: itself,
    /// or for text pictures each side rounded to whole cells (at least one),
    /// stretching the picture by at most half a cell each way, as chafa
    /// does. A text picture's last row or column only part covered shows
    /// the terminal's background beside a glyph of the nearest eighth: in
    /// xterm the raindrop photo in 96x36 cells with a half-inked last row
    /// measured 0.8629 SSIM against the source (chafa's whole rows 0.8813);
    /// rounded to whole rows, 0.8828.
    package func inlineSize(_ output: PixelSize) -> PixelSize {
        guard wholeCells else { return output }
        func rounded(_ value: Int, _ unit: Int) -> Int { max(1, (value + unit / 2) / unit) * unit }
        return PixelSize(width: rounded(output.width, unitsPerCell.width), height: rounded(output.height, unitsPerCell.height))
    }

    /// The box for a picture covering `cells`, in units, capped by
    /// `TerminalGeometry.maxBoxSide`, `TerminalGeometry.maxWindowBoxPixels`
    /// (in screen pixels) and the picture limit.
    package func unitBox(cells: CellCount) -> PixelSize {
        let box = capped(PixelSize(width: cells.width * unitsPerCell.width, height: cells.height * unitsPerCell.height))
        let screen = PixelSize(
            width: box.width * cellPixels.width / unitsPerCell.width,
            height: box.height * cellPixels.height / unitsPerCell.height)
        let limited = TerminalGeometry.limitingArea(screen)
        guard limited != screen else { return box }
        return PixelSize(
            width: max(1, limited.width * unitsPerCell.width / cellPixels.width),
            height: max(1, limited.height * unitsPerCell.height / cellPixels.height))
    }

    /// A box given in screen pixels (`--size`), in units: itself for pixel
    /// backends, whole cells for text.
    package func unitBox(pixels: PixelSize) -> PixelSize {
        if unitsPerCell == cellPixels { return capped(pixels) }
        return unitBox(
            cells: CellCount(
                width: max(1, pixels.width / cellPixels.width), height: max(1, pixels.height / cellPixels.height)))
    }

    private func capped(_ box: PixelSize) -> PixelSize {
        var box = PixelSize(
            width: min(box.width, TerminalGeometry.maxBoxSide), height: min(box.height, TerminalGeometry.maxBoxSide))
        if let limit = pictureLimit {
            box = PixelSize(width: min(box.width, limit.width), height: min(box.height, limit.height))
        }
        return box
    }

    /// How much taller than wide one unit is, relative to a square pixel:
    /// 1 for pixel units; a half-block unit is `cell.width` wide and
    /// `cell.height / 2` tall, so images are stretched by `2 * w / h`; a
    /// symbols unit (an eighth of the cell each way) by `w / h`.
    package var unitStretch: Double {
        (Double(cellPixels.width) * Double(unitsPerCell.height))
            / (Double(cellPixels.height) * Double(unitsPerCell.width))
    }

    /// The viewport's notion of an image's size: in text units the
    /// image is stretched vertically by the unit's shape, so a fitted
    /// picture keeps its proportions on screen.
    package func unitImageSize(_ pixels: PixelSize) -> PixelSize {
        let stretch = unitStretch
        guard stretch != 1 else { return pixels }
        return PixelSize(width: pixels.width, height: max(1, Int((Double(pixels.height) * stretch).rounded())))
    }

    /// Whole cells covering `units`.
    package func cellsCovering(_ units: PixelSize) -> CellCount {
        CellCount(
            width: (units.width + unitsPerCell.width - 1) / unitsPerCell.width,
            height: (units.height + unitsPerCell.height - 1) / unitsPerCell.height)
    }

    /// The cells of `rect` (in units, relative to the cell `origin`) and every
    /// cell it touches.
    package func cells(covering rect: PixelRect, from origin: CellRect) -> CellRect {
        let units = unitsPerCell
        let firstColumn = max(0, rect.x) / units.width
        let firstRow = max(0, rect.y) / units.height
        let lastColumn = (rect.x + rect.width + units.width - 1) / units.width
        let lastRow = (rect.y + rect.height + units.height - 1) / units.height
        return CellRect(
            column: origin.column + firstColumn, row: origin.row + firstRow,
            columns: max(1, lastColumn - firstColumn), rows: max(1, lastRow - firstRow))
    }
}
