import Pixels
import Rendering

/// Where the viewer puts things: the picture fills every row but the last,
/// which holds the info or status line.
public struct ViewerLayout: Equatable, Sendable {
    public var geometry: ScreenGeometry
    /// Cells the picture may cover.
    public var imageArea: CellRect
    /// 0-based row of the status line.
    public var statusRow: Int

    /// A terminal that caps its pictures (xterm: 1000x1000 px of sixel)
    /// gets the capped view centred in the window, not in its top-left corner.
    public init(geometry: ScreenGeometry) {
        self.geometry = geometry
        let rows = geometry.windowCells.height
        let full = PixelSize(width: geometry.windowCells.width, height: max(1, rows - 1))
        let used = geometry.cellsCovering(geometry.unitBox(cells: full))
        let columns = min(full.width, max(1, used.width))
        let areaRows = min(full.height, max(1, used.height))
        imageArea = CellRect(
            column: (full.width - columns) / 2, row: (full.height - areaRows) / 2, columns: columns, rows: areaRows)
        statusRow = max(0, rows - 1)
    }

    /// The view in image units (what the `Viewport` calls its view size).
    public var viewSize: PixelSize {
        geometry.unitBox(cells: PixelSize(width: imageArea.columns, height: imageArea.rows))
    }

    /// The middle of a 0-based cell, in view units from the view's top-left.
    public func viewPoint(column: Int, row: Int) -> (x: Double, y: Double) {
        let units = geometry.unitsPerCell
        return (
            (Double(column - imageArea.column) + 0.5) * Double(units.width),
            (Double(row - imageArea.row) + 0.5) * Double(units.height)
        )
    }
}

/// Where the browser puts things, top to bottom: the header (search field
/// and the key hint), a grid of framed thumbnail slots filling the window,
/// the selected hit's details (two rows), the status line.
public struct BrowserLayout: Equatable, Sendable {
    public var geometry: ScreenGeometry
    /// 0-based row of the header (the search field).
    public let searchRow = 0
    /// Each slot: a one-cell frame around the thumbnail's cells, row by row.
    public var slots: [CellRect]
    /// Slots per grid row.
    public var columns: Int
    /// Grid rows on screen.
    public var rows: Int
    /// The thumbnail cells inside a slot's frame.
    public var tileCells: PixelSize
    /// First of the detail rows (id/size/user/likes, then tags).
    public var detailsRow: Int
    public var statusRow: Int

    /// A slot about this wide (frame included): 24–32 columns of tile, a
    /// size a photo can be recognised at, and 3 across an 80-column window.
    public static let targetSlotColumns = 27.0
    /// 3:2 landscape tiles, the shape most photos have.
    public static let tileAspect = 1.5
    /// At most this many slots across and down, the grid centred in a
    /// larger window: a window a broken terminal reported as 2048x2048 cells
    /// once laid out 15,000 slots and took seconds a frame (and tiles grown
    /// to fill it took 19 s to encode in a debug build).
    public static let maxColumns = 12
    public static let maxRows = 12

    public init(geometry: ScreenGeometry) {
        self.geometry = geometry
        let width = geometry.windowCells.width
        let height = geometry.windowCells.height
        let cell = geometry.cellPixels
        // Rows: header, grid, 2 detail rows, status.
        let gridTop = 1
        statusRow = max(0, height - 1)
        detailsRow = max(gridTop, height - 3)
        let gridRows = max(3, detailsRow - gridTop)
        let wanted = max(1, Int((Double(width) / Self.targetSlotColumns).rounded()))
        columns = min(Self.maxColumns, wanted)
        // Past the cap the slots keep the target width, the grid centred.
        let slotWidth = wanted > columns ? Int(Self.targetSlotColumns) : max(3, width / columns)
        let tileColumns = max(1, slotWidth - 2)
        // Tile rows for the 3:2 shape, fewer when that leaves room for only
        // one row of slots where two would fit (80x24 keeps two rows).
        var tileRows = max(1, Int((Double(tileColumns * cell.width) / Self.tileAspect / Double(cell.height)).rounded()))
        if gridRows / (tileRows + 2) < 2, gridRows >= 2 * 4 { tileRows = gridRows / 2 - 2 }
        tileRows = max(1, min(tileRows, gridRows - 2))
        tileCells = PixelSize(width: tileColumns, height: tileRows)
        rows = min(Self.maxRows, max(1, gridRows / (tileRows + 2)))
        let margin = max(0, (width - columns * slotWidth) / 2)
        var slots: [CellRect] = []
        for row in 0..<rows {
            for column in 0..<columns {
                slots.append(
                    CellRect(
                        column: margin + column * slotWidth, row: gridTop + row * (tileRows + 2), columns: slotWidth,
                        rows: tileRows + 2))
            }
        }
        self.slots = slots
    }

    /// The thumbnail cells of slot `index` (inside its frame).
    public func tileArea(slot index: Int) -> CellRect {
        let slot = slots[index]
        return CellRect(column: slot.column + 1, row: slot.row + 1, columns: tileCells.width, rows: tileCells.height)
    }

    /// The tile box in image units.
    public var tileBox: PixelSize { geometry.unitBox(cells: tileCells) }

    /// The slot holding the 0-based cell, if any.
    public func slot(atColumn column: Int, row: Int) -> Int? {
        slots.firstIndex { $0.contains(column: column, row: row) }
    }
}
