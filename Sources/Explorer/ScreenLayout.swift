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

/// Where the browser puts things, top to bottom: the search field, a strip
/// of framed thumbnail slots, the selected hit's details, the status line.
public struct BrowserLayout: Equatable, Sendable {
    public var geometry: ScreenGeometry
    /// 0-based row of the search field.
    public let searchRow = 0
    /// Each slot: a one-cell frame around the thumbnail's cells.
    public var slots: [CellRect]
    /// The thumbnail cells inside a slot's frame.
    public var tileCells: PixelSize
    /// First of the detail rows (id/size/user/likes, then tags).
    public var detailsRow: Int
    public var statusRow: Int

    /// Thumbnails are Pixabay previews, at most 150 px: taller tiles only blur.
    public static let preferredTilePixelHeight = 150

    public init(geometry: ScreenGeometry) {
        self.geometry = geometry
        let columns = geometry.windowCells.width
        let rows = geometry.windowCells.height
        let cell = geometry.cellPixels
        // Rows: search, blank, frame + tile + frame, 2 detail rows, blank, status.
        let spareRows = max(1, rows - 8)
        let wantedRows = max(2, (Self.preferredTilePixelHeight + cell.height - 1) / cell.height)
        let tileRows = min(wantedRows, spareRows)
        // 3:2 landscape tiles, the shape most photos have.
        let tileColumns = max(4, min(columns - 2, Int((Double(tileRows * cell.height) * 1.5 / Double(cell.width)).rounded())))
        tileCells = PixelSize(width: tileColumns, height: tileRows)
        let slotWidth = tileColumns + 2
        let count = max(1, columns / slotWidth)
        let margin = max(0, (columns - count * slotWidth) / 2)
        slots = (0..<count).map { index in
            CellRect(column: margin + index * slotWidth, row: 2, columns: slotWidth, rows: tileRows + 2)
        }
        detailsRow = min(rows - 1, 2 + tileRows + 2 + 1)
        statusRow = max(0, rows - 1)
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
