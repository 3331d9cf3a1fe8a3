/// A size in whole pixels. Width and height are never negative.
package struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Pixel count, the figure decompression-bomb limits are checked against.
    package var area: Int { width * height }
    package var isEmpty: Bool { width == 0 || height == 0 }
    package var description: String { "\(width)x\(height)" }
}

/// A size counted in terminal cells: `width` columns by `height` rows. A
/// type of its own, not `PixelSize`: the compiler tells cells from pixels
/// (`windowCells: CellCount`, `cellPixels: PixelSize`); `pixels(of:)` and
/// `cells(in:)` are the only ways across.
package struct CellCount: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    package var isEmpty: Bool { width == 0 || height == 0 }
    package var description: String { "\(width)x\(height)" }

    /// The pixels these cells cover, each `cell` pixels.
    package func pixels(of cell: PixelSize) -> PixelSize {
        PixelSize(width: width * cell.width, height: height * cell.height)
    }
}

/// A point in whole pixels: an offset inside a cell or a box.
package struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
    package var x: Int
    package var y: Int

    package init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    package var description: String { "\(x),\(y)" }
}

/// An integer rectangle: a crop of an image or a place on screen.
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }
    package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle with fractional edges: the part of an image a view shows,
/// in source-image pixels. Resamplers take it as-is, so zoom and pan stay
/// smooth instead of snapping to whole pixels.
package struct SourceRect: Hashable, Sendable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of an image of this size.
    package init(covering size: PixelSize) {
        self.init(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle of character cells, 0-based (row 0 is the terminal's row 1).
package struct CellRect: Equatable, Sendable {
    package var column: Int
    package var row: Int
    package var columns: Int
    package var rows: Int

    package init(column: Int, row: Int, columns: Int, rows: Int) {
        self.column = column
        self.row = row
        self.columns = columns
        self.rows = rows
    }

    /// True when the 0-based cell (column, row) lies inside.
    package func contains(column: Int, row: Int) -> Bool {
        column >= self.column && column < self.column + columns && row >= self.row && row < self.row + rows
    }

    /// `COLSxROWS@X,Y`, as `--place` takes it (X, Y zero-based, as lf
    /// passes them); nil for anything else.
    package init?(placeText text: String) {
        let halves = text.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let size = halves[0].split(separator: "x", omittingEmptySubsequences: false)
        let origin = halves[1].split(separator: ",", omittingEmptySubsequences: false)
        guard size.count == 2, origin.count == 2, let columns = Int(size[0]), let rows = Int(size[1]),
            let column = Int(origin[0]), let row = Int(origin[1]), columns > 0, rows > 0, column >= 0, row >= 0
        else { return nil }
        self.init(column: column, row: row, columns: columns, rows: rows)
    }

    /// `COLSxROWS@X,Y`.
    package var placeText: String { "\(columns)x\(rows)@\(column),\(row)" }
}
