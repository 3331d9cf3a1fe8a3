import Pixels

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
}
