/// A table printed as aligned columns for reading at the terminal, or as
/// Markdown (`--markdown`) to paste into the README as it is.
struct Table {
    var headers: [String]
    /// How many leading columns hold names (left-aligned); figures follow,
    /// right-aligned.
    var nameColumns: Int
    var rows: [[String]] = []

    init(_ headers: [String], nameColumns: Int = 1) {
        self.headers = headers
        self.nameColumns = nameColumns
    }

    mutating func append(_ row: [String]) { rows.append(row) }

    func render(markdown: Bool) -> String {
        if markdown {
            let rule = headers.indices.map { $0 < nameColumns ? "---" : "---:" }
            return ([headers, rule] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
        }
        let widths = headers.indices.map { column in
            ([headers] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return ([headers] + rows).map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column < nameColumns ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
