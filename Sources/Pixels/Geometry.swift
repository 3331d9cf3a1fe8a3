/// A size in whole pixels. Width and height are never negative.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Pixel count, the figure decompression-bomb limits are checked against.
    public var area: Int { width * height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var description: String { "\(width)x\(height)" }
}

/// A size counted in terminal cells: `width` columns by `height` rows.
/// The same arithmetic as pixels, so the same type; the name says which a
/// value counts (`windowCells: CellCount`, `cellPixels: PixelSize`).
public typealias CellCount = PixelSize

/// A point in whole pixels: an offset inside a cell or a box.
public struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public var description: String { "\(x),\(y)" }
}

/// An integer rectangle: a crop of an image or a place on screen.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle with fractional edges: the part of an image a view shows,
/// in source-image pixels. Resamplers take it as-is, so zoom and pan stay
/// smooth instead of snapping to whole pixels.
public struct SourceRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of an image of this size.
    public init(covering size: PixelSize) {
        self.init(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle of character cells, 0-based (row 0 is the terminal's row 1).
public struct CellRect: Equatable, Sendable {
    public var column: Int
    public var row: Int
    public var columns: Int
    public var rows: Int

    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.column = column
        self.row = row
        self.columns = columns
        self.rows = rows
    }

    /// True when the 0-based cell (column, row) lies inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= self.column && column < self.column + columns && row >= self.row && row < self.row + rows
    }

    /// `COLSxROWS@X,Y`, as `--place` takes it (X, Y zero-based, as lf
    /// passes them); nil for anything else.
    public init?(placeText text: String) {
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
    public var placeText: String { "\(columns)x\(rows)@\(column),\(row)" }
}
