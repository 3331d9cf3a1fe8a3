import Pixels
import Rendering

/// Where the viewer puts things: the picture fills every row but the last,
/// which holds the status line, or the last two, when the info line (`i`)
/// needs one of its own.
package struct ViewerLayout: Equatable, Sendable {
    package var screen: BackendGeometry
    /// Cells the picture may cover.
    package var imageArea: CellRect
    /// 0-based row of the status line.
    package var statusRow: Int
    /// 0-based row of the info line when it has one of its own (above the status line).
    package var infoRow: Int?

    /// A terminal that caps its pictures (xterm: 1000x1000 px of sixel)
    /// gets the capped view centred in the window, not in its top-left corner.
    /// `infoLine`: the row above the status line is the info line's.
    package init(screen: BackendGeometry, infoLine: Bool = false) {
        self.screen = screen
        let rows = screen.windowCells.height
        infoRow = infoLine && rows > 2 ? rows - 2 : nil
        let full = CellCount(width: screen.windowCells.width, height: max(1, rows - (infoRow == nil ? 1 : 2)))
        let used = screen.cellsCovering(screen.unitBox(cells: full))
        let columns = min(full.width, max(1, used.width))
        let areaRows = min(full.height, max(1, used.height))
        imageArea = CellRect(
            column: (full.width - columns) / 2, row: (full.height - areaRows) / 2, columns: columns, rows: areaRows)
        statusRow = max(0, rows - 1)
    }

    /// The view in image units (what the `Viewport` calls its view size).
    package var viewSize: PixelSize {
        screen.unitBox(cells: CellCount(width: imageArea.columns, height: imageArea.rows))
    }

    /// The middle of a 0-based cell, in view units from the view's top-left.
    package func viewPoint(column: Int, row: Int) -> (x: Double, y: Double) {
        let units = screen.unitsPerCell
        return (
            (Double(column - imageArea.column) + 0.5) * Double(units.width),
            (Double(row - imageArea.row) + 0.5) * Double(units.height)
        )
    }
}

/// Where the browser puts things, top to bottom: the header (search field
/// and the key hint), a grid of framed thumbnail slots filling the window,
/// the selected hit's details (two rows), the status line.
package struct BrowserLayout: Equatable, Sendable {
    package var screen: BackendGeometry
    /// 0-based row of the header (the search field).
    package let searchRow = 0
    /// The cells of each slot's tile frame (a one-cell frame around the
    /// thumbnail's cells), row by row; slot `n` is `tileFrames[n]`.
    package var tileFrames: [CellRect]
    /// Slots per grid row.
    package var columns: Int
    /// Grid rows on screen.
    package var rows: Int
    /// The thumbnail cells inside a slot's frame.
    package var tileCells: CellCount
    /// A line for the file's name under each tile, inside the frame (a
    /// folder's grid, as `timg --title`); Pixabay's grid has none.
    package var nameLines: Bool
    /// First of the detail rows (id/size/user/likes, then tags).
    package var detailsRow: Int
    package var statusRow: Int

    /// The slot width (frame included, in columns) the grid aims at, from
    /// which the column count follows; `+` and `-` change it, and it stays
    /// as the window changes.
    package var slotTarget: Double
    /// 3:2 landscape tiles, the shape most photos have.
    package static let tileAspect = 1.5
    /// At most this many slots across and down, the grid centred in a
    /// larger window: a window a broken terminal reported as 2048x2048 cells
    /// once laid out 15,000 slots and took seconds a frame (and tiles grown
    /// to fill it took 19 s to encode in a debug build).
    package static let maxColumns = 12
    package static let maxRows = 12
    /// The slot widths `-` and `+` reach: a 8-column tile (72 px in 9-px
    /// cells) is about the smallest a photo is told apart at, and a
    /// 62-column one (558 px) is nearly four of Pixabay's 150-px previews
    /// across and already shows their web size (see `BrowserState`).
    package static let slotTargets = 10.0...64.0
    /// The default slot width's ceiling: 48 columns (a 432-px tile in 9-px
    /// cells); past that a huge window gets more tiles, not larger ones.
    package static let defaultMaxSlot = 48.0
    /// Tiles shorter than this many rows are not squeezed in to make a
    /// second row of them: at 40x12 the squeeze once left 38x2-cell tiles,
    /// a strip nobody could recognise.
    package static let minSqueezedTileRows = 4

    /// The slot width a window starts with: about sqrt(columns / 9) tiles
    /// across, so tiles grow with the window. 80 columns get 3 slots of 26
    /// as before; 160 get 4 of 40 (6 of 26 before), 300 get 6 of 50 (11 of
    /// 27 before: 225-px tiles in a 2700-px window); 40 get 2 of 20.
    package static func defaultSlotTarget(windowColumns: Int) -> Double {
        let across = max(1, (Double(windowColumns) / 9).squareRoot().rounded())
        return min(defaultMaxSlot, max(slotTargets.lowerBound, Double(windowColumns) / across))
    }

    /// `slotTarget`: the slot width to aim at (nil: the window's default),
    /// kept within `slotTargets`; `nameLines`: a name under each tile.
    package init(screen: BackendGeometry, slotTarget: Double? = nil, nameLines: Bool = false) {
        self.screen = screen
        self.nameLines = nameLines
        // Each slot: the frame's two edges, and the name's line.
        let chrome = nameLines ? 3 : 2
        let width = screen.windowCells.width
        let height = screen.windowCells.height
        let cell = screen.cellPixels
        let target = min(
            Self.slotTargets.upperBound,
            max(Self.slotTargets.lowerBound, slotTarget ?? Self.defaultSlotTarget(windowColumns: width)))
        self.slotTarget = target
        // Rows: header, grid, 2 detail rows, status.
        let gridTop = 1
        statusRow = max(0, height - 1)
        detailsRow = max(gridTop, height - 3)
        let gridRows = max(3, detailsRow - gridTop)
        let wanted = max(1, Int((Double(width) / target).rounded()))
        columns = min(Self.maxColumns, wanted)
        // Past the cap the slots keep the target width, the grid centred;
        // never wider than `slotTargets` allows (one slot of 80 columns
        // once filled an 80-column window after two `+`).
        let slotWidth = min(
            Int(Self.slotTargets.upperBound), wanted > columns ? Int(target) : max(3, width / columns))
        let tileColumns = max(1, slotWidth - 2)
        // Tile rows for the 3:2 shape, fewer when that leaves room for only
        // one row of slots where two would fit (80x24 keeps two rows), as
        // long as the tiles stay legible; never for a size `+`/`-` chose
        // (squeezed, `+` at 80x24 made tiles wider but no taller).
        var tileRows = max(1, Int((Double(tileColumns * cell.width) / Self.tileAspect / Double(cell.height)).rounded()))
        if slotTarget == nil, gridRows / (tileRows + chrome) < 2, gridRows / 2 - chrome >= Self.minSqueezedTileRows {
            tileRows = gridRows / 2 - chrome
        }
        tileRows = max(1, min(tileRows, gridRows - chrome))
        tileCells = CellCount(width: tileColumns, height: tileRows)
        rows = min(Self.maxRows, max(1, gridRows / (tileRows + chrome)))
        let margin = max(0, (width - columns * slotWidth) / 2)
        var slots: [CellRect] = []
        for row in 0..<rows {
            for column in 0..<columns {
                slots.append(
                    CellRect(
                        column: margin + column * slotWidth, row: gridTop + row * (tileRows + chrome),
                        columns: slotWidth, rows: tileRows + chrome))
            }
        }
        tileFrames = slots
    }

    /// The slot width one step larger (`+`: a column fewer) or smaller
    /// (`-`: a column more); in a window past `maxColumns` of them, 15 %.
    package func steppedSlotTarget(larger: Bool) -> Double {
        let width = Double(screen.windowCells.width)
        let wanted = max(1, (width / slotTarget).rounded())
        let target =
            larger ? max(slotTarget * 1.15, width / max(1, wanted - 1)) : min(slotTarget / 1.15, width / (wanted + 1))
        return min(Self.slotTargets.upperBound, max(Self.slotTargets.lowerBound, target))
    }

    /// True when both lay out the same slots and tiles (whatever they aim at).
    package func sameGrid(as other: BrowserLayout) -> Bool {
        tileFrames == other.tileFrames && tileCells == other.tileCells && screen == other.screen
    }

    /// The thumbnail cells of slot `index` (inside its frame).
    package func tileArea(slot index: Int) -> CellRect {
        let frame = tileFrames[index]
        return CellRect(column: frame.column + 1, row: frame.row + 1, columns: tileCells.width, rows: tileCells.height)
    }

    /// The cells of slot `index`'s name line (inside its frame, under the
    /// tile), when the layout has them.
    package func nameArea(slot index: Int) -> CellRect? {
        guard nameLines else { return nil }
        let frame = tileFrames[index]
        return CellRect(column: frame.column + 1, row: frame.row + frame.rows - 2, columns: tileCells.width, rows: 1)
    }

    /// The tile box in image units.
    package var tileBox: PixelSize { screen.unitBox(cells: tileCells) }

    /// The slot holding the 0-based cell, if any.
    package func slot(atColumn column: Int, row: Int) -> Int? {
        tileFrames.firstIndex { $0.contains(column: column, row: row) }
    }
}
