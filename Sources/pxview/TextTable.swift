import Foundation
import Terminal

/// Columns of untrusted text aligned by terminal cells, not characters, so
/// wide (CJK, emoji) tags and combining accents keep the grid straight.
///
/// Every cell is sanitized before it is measured: a tag cannot carry an
/// escape sequence into the output. Columns other than the last are capped
/// at `maxColumnWidth`; the last takes what is left of the line and is cut
/// with "…" when it does not fit. Cells cut to fit end in "…".
struct TextTable {
    var headers: [String]
    var rows: [[String]]
    var rightAligned: Set<Int> = []
    var maxColumnWidth = 24
    /// The last column never gets narrower than this, even on a tiny terminal.
    var minLastColumnWidth = 10

    static let gap = "  "
    /// A text column squeezed for a narrow line keeps at least this many cells.
    static let minShrunkWidth = 5

    /// Lines without trailing spaces, header first.
    func render(width: Int) -> [String] {
        let columnCount = headers.count
        guard columnCount > 0 else { return [] }
        let cleanRows = ([headers] + rows).map { row in
            (0..<columnCount).map { index in index < row.count ? TerminalText.sanitize(row[index]) : "" }
        }
        var widths = (0..<columnCount).map { column in
            min(maxColumnWidth, cleanRows.map { TerminalText.displayWidth($0[column]) }.max() ?? 0)
        }
        // On a narrow line, text columns (not numbers, which must stay whole)
        // give up cells, widest first, before the last column drops below its minimum.
        let shrinkable = (0..<(columnCount - 1)).filter { !rightAligned.contains($0) }
        var used = widths.dropLast().reduce(0, +) + Self.gap.count * (columnCount - 1)
        while width - used < minLastColumnWidth,
            let widest = shrinkable.max(by: { widths[$0] < widths[$1] }), widths[widest] > Self.minShrunkWidth
        {
            widths[widest] -= 1
            used -= 1
        }
        widths[columnCount - 1] = max(minLastColumnWidth, width - used)
        return cleanRows.map { row in
            let cells = row.enumerated().map { column, text -> String in
                let cut = TerminalText.truncate(text, toWidth: widths[column])
                let padding = String(repeating: " ", count: max(0, widths[column] - TerminalText.displayWidth(cut)))
                return rightAligned.contains(column) ? padding + cut : cut + padding
            }
            var line = cells.joined(separator: Self.gap)
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The terminal's width when stdout is one, else `$COLUMNS`, else 100.
    static func outputWidth(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let size = windowSize(fd: 1), size.cells.width > 0 { return size.cells.width }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 100
    }
}
