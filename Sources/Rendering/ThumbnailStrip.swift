import Pixels
import Terminal

/// One tile of a thumbnail strip: a drawn preview (nil when it could not be
/// fetched or decoded) and the label printed under it.
public struct StripTile: Sendable {
    public var label: String
    public var image: RenderedImage?

    public init(label: String, image: RenderedImage?) {
        self.label = label
        self.image = image
    }
}

/// Lays previews side by side at the cursor, as many per row as the width
/// allows, each labelled underneath: the `pxview search` strip. Printed
/// inline (not on the alternate screen), so it moves only relatively: it first
/// prints blank lines to make the terminal scroll, steps back up, and draws
/// each tile from a saved cursor position (`ESC 7` / `ESC 8`).
public enum ThumbnailStrip {
    /// A tile's box in cells: room for Pixabay's 150 px previews at common cell sizes.
    public static let tileCells = PixelSize(width: 16, height: 6)
    /// Blank columns between tiles.
    public static let gap = 1

    public static func tilesPerRow(terminalColumns: Int, tileColumns: Int = tileCells.width) -> Int {
        max(1, (terminalColumns + gap) / (tileColumns + gap))
    }

    /// The bytes that draw `tiles`. Labels must already be sanitized; they
    /// are cut to the tile's width here.
    public static func compose(
        _ tiles: [StripTile], graphics: GraphicsProtocol, terminalColumns: Int, tileCells: PixelSize = tileCells
    ) -> [UInt8] {
        let perRow = tilesPerRow(terminalColumns: terminalColumns, tileColumns: tileCells.width)
        var out: [UInt8] = []
        var start = 0
        while start < tiles.count {
            let row = Array(tiles[start..<min(tiles.count, start + perRow)])
            switch graphics {
            case .blocks: out += blockRow(row, tileCells: tileCells)
            case .sixel, .kitty: out += graphicsRow(row, tileCells: tileCells)
            }
            start += perRow
        }
        return out
    }

    static func column(of index: Int, tileColumns: Int) -> Int { index * (tileColumns + gap) + 1 }

    static func labels(_ row: [StripTile], tileColumns: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (index, tile) in row.enumerated() {
            out += Array("\u{1B}[\(column(of: index, tileColumns: tileColumns))G".utf8)
            let text = tile.image == nil ? "\(tile.label) (no image)" : tile.label
            out += Array(TerminalText.truncate(text, toWidth: tileColumns).utf8)
        }
        return out + Array("\r\n".utf8)
    }

    /// Sixel and kitty tiles: reserve the rows, then draw each tile from the
    /// saved top-left corner.
    static func graphicsRow(_ row: [StripTile], tileCells: PixelSize) -> [UInt8] {
        let height = tileCells.height
        var out = [UInt8](repeating: UInt8(ascii: "\n"), count: height)
        out += Array("\r\u{1B}[\(height)A\u{1B}7".utf8)
        for (index, tile) in row.enumerated() {
            guard let image = tile.image else { continue }
            out += Array("\u{1B}8\u{1B}[\(column(of: index, tileColumns: tileCells.width))G".utf8)
            out += image.bytes
        }
        out += Array("\u{1B}8\u{1B}[\(height)B".utf8)
        return out + labels(row, tileColumns: tileCells.width)
    }

    /// Half-block tiles are text: their lines are joined side by side.
    static func blockRow(_ row: [StripTile], tileCells: PixelSize) -> [UInt8] {
        let lines: [[[UInt8]]] = row.map { tile in
            guard let image = tile.image else { return [] }
            return image.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
                Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
            }
        }
        var out: [UInt8] = []
        for y in 0..<tileCells.height {
            for (index, tile) in row.enumerated() {
                out += Array("\u{1B}[\(column(of: index, tileColumns: tileCells.width))G".utf8)
                if let image = tile.image, y < lines[index].count, y < image.cells.height {
                    out += lines[index][y]
                }
            }
            out += Array("\r\n".utf8)
        }
        return out + labels(row, tileColumns: tileCells.width)
    }
}
