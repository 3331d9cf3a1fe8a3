import ControlSequences
import Pixels
import Terminal

/// One tile of a thumbnail strip: a drawn preview (nil when it could not be
/// fetched or decoded) and the label printed under it.
package struct StripTile: Sendable {
    package var label: String
    package var picture: InlinePicture?

    package init(label: String, picture: InlinePicture?) {
        self.label = label
        self.picture = picture
    }
}

/// Lays previews side by side at the cursor, as many per row as the width
/// allows, each labelled underneath: the `pxview search` strip. Printed
/// inline (not on the alternate screen), so it moves only relatively: it first
/// prints blank lines to make the terminal scroll, steps back up, saves the
/// cursor (`ESC 7`) and draws each line of each tile from there (`ESC 8`,
/// down, to the tile's column), whatever the backend's lines hold: one
/// sixel or kitty picture, or rows of text or placeholders.
package enum ThumbnailStrip {
    /// A tile's box in cells: room for Pixabay's 150 px previews at common cell sizes.
    package static let tileCells = CellCount(width: 16, height: 6)
    /// Blank columns between tiles.
    package static let gap = 1

    package static func tilesPerRow(terminalColumns: Int, tileColumns: Int = tileCells.width) -> Int {
        max(1, (terminalColumns + gap) / (tileColumns + gap))
    }

    /// The bytes that draw `tiles`. Labels must already be sanitized; they
    /// are cut to the tile's width here.
    /// `labelled`: a line of labels under each row (`show --grid` without
    /// `--title` has none; a tile without a picture is labelled anyway).
    package static func compose(
        _ tiles: [StripTile], terminalColumns: Int, tileCells: CellCount = tileCells, labelled: Bool = true
    ) -> [UInt8] {
        let perRow = tilesPerRow(terminalColumns: terminalColumns, tileColumns: tileCells.width)
        var out: [UInt8] = []
        var start = 0
        while start < tiles.count {
            out += row(Array(tiles[start..<min(tiles.count, start + perRow)]), tileCells: tileCells, labelled: labelled)
            start += perRow
        }
        return out
    }

    static func column(of index: Int, tileColumns: Int) -> Int { index * (tileColumns + gap) + 1 }

    static func labels(_ row: [StripTile], tileColumns: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (index, tile) in row.enumerated() {
            out += TerminalCommand.cursorToColumn(column(of: index, tileColumns: tileColumns))
            let text = tile.picture == nil ? "\(tile.label) (no image)" : tile.label
            out += Array(TerminalText.truncate(text, toWidth: tileColumns).utf8)
        }
        return out + Array("\r\n".utf8)
    }

    /// Reserve the rows, then draw each tile's lines from the saved top-left corner.
    static func row(_ row: [StripTile], tileCells: CellCount, labelled: Bool = true) -> [UInt8] {
        let height = tileCells.height
        var out = InlinePicture.reserving(rows: height) + TerminalCommand.saveCursor
        for (index, tile) in row.enumerated() {
            guard let picture = tile.picture else { continue }
            for (bytes, line) in zip(picture.lines, picture.lineRows) where line < height {
                out += TerminalCommand.restoreCursor
                if line > 0 { out += TerminalCommand.cursorDown(line) }
                out += TerminalCommand.cursorToColumn(column(of: index, tileColumns: tileCells.width))
                out += bytes
            }
        }
        out += TerminalCommand.restoreCursor + TerminalCommand.cursorDown(height)
        guard labelled || row.contains(where: { $0.picture == nil }) else { return out + Array("\r\n".utf8) }
        return out + labels(row, tileColumns: tileCells.width)
    }
}
