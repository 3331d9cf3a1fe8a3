import ControlSequences
import Pixels
import Terminal

/// Text pieces of a frame. Untrusted text (tags, user names, file names,
/// typed queries) is sanitized and cut to the width here, so nothing a
/// photo's metadata says can move the cursor or spill onto the next row.
package enum FrameText {
    /// `text` made safe, in `glyphs` (ASCII in a C locale), cut to `width` cells.
    package static func fitted(_ text: String, width: Int, glyphs: Glyphs) -> String {
        TerminalText.truncate(glyphs.text(TerminalText.sanitize(text)), toWidth: width, glyphs: glyphs)
    }

    /// One whole row: `text` from column 1, the rest of the row erased.
    /// `links`: texts to make OSC 8 hyperlinks of, each at its first
    /// whole occurrence after the last (a text cut by the width is none).
    package static func row(
        _ row: Int, _ text: String, width: Int, style: [UInt8] = [], glyphs: Glyphs = .unicode,
        links: [TextLink] = []
    ) -> [UInt8] {
        var out = TerminalCommand.moveTo(row: row + 1, column: 1)
        out += TerminalCommand.resetAttributes + style
        let cut = fitted(text, width: width, glyphs: glyphs)
        out += Array(linked(cut, links).utf8) + TerminalCommand.resetAttributes
        // A full row leaves the cursor waiting to wrap on the last column,
        // where xterm's EL erases that column (seen: "q quit" lost its t).
        if TerminalText.displayWidth(cut) < width { out += TerminalCommand.clearToEndOfLine }
        return out
    }

    /// `text` with each link's text made a hyperlink, in order.
    package static func linked(_ text: String, _ links: [TextLink]) -> String {
        var done = ""
        var rest = Substring(text)
        for link in links where !link.text.isEmpty {
            guard let found = rest.range(of: link.text) else { continue }
            done += rest[..<found.lowerBound] + TerminalCommand.hyperlink(link.url, text: link.text)
            rest = rest[found.upperBound...]
        }
        return done + rest
    }

    /// `text` at a 0-based cell, cut to `width` cells, padded with spaces to
    /// exactly `width` cells so it overwrites whatever was there.
    package static func field(
        row: Int, column: Int, _ text: String, width: Int, style: [UInt8] = [], glyphs: Glyphs = .unicode
    ) -> [UInt8] {
        guard width > 0 else { return [] }
        let cut = fitted(text, width: width, glyphs: glyphs)
        let pad = max(0, width - TerminalText.displayWidth(cut))
        var out = TerminalCommand.moveTo(row: row + 1, column: column + 1)
        out += TerminalCommand.resetAttributes + style + Array(cut.utf8)
        out += [UInt8](repeating: UInt8(ascii: " "), count: pad) + TerminalCommand.resetAttributes
        return out
    }

    /// Erases `count` cells from a 0-based cell (ECH), which also removes
    /// sixel pixels under them.
    package static func erase(row: Int, column: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return TerminalCommand.moveTo(row: row + 1, column: column + 1) + TerminalCommand.resetAttributes
            + TerminalCommand.eraseCharacters(count)
    }

    /// Erases whole rows. ECH, not EL: tmux skips EL on a line it holds as
    /// blank, which left a sixel picture drawn through passthrough behind.
    package static func eraseRows(_ rows: Range<Int>, width: Int) -> [UInt8] {
        rows.flatMap { erase(row: $0, column: 0, count: width) }
    }

    /// Erases every cell of `rect`.
    package static func erase(_ rect: CellRect) -> [UInt8] {
        var out: [UInt8] = []
        for row in rect.row..<(rect.row + rect.rows) {
            out += erase(row: row, column: rect.column, count: rect.columns)
        }
        return out
    }

    /// Erases the cells of `area` that `keep` does not cover, row by row.
    package static func erase(_ area: CellRect, outside keep: CellRect?) -> [UInt8] {
        guard let keep else { return erase(area) }
        var out: [UInt8] = []
        for row in area.row..<(area.row + area.rows) {
            if row < keep.row || row >= keep.row + keep.rows {
                out += erase(row: row, column: area.column, count: area.columns)
                continue
            }
            out += erase(row: row, column: area.column, count: keep.column - area.column)
            let right = keep.column + keep.columns
            out += erase(row: row, column: right, count: area.column + area.columns - right)
        }
        return out
    }
}

/// A text on a row that links somewhere (OSC 8): kitty, WezTerm, foot,
/// GNOME Terminal and iTerm2 open it on a click; others show the text.
package struct TextLink: Equatable, Sendable {
    package var text: String
    package var url: String

    package init(text: String, url: String) {
        self.text = text
        self.url = url
    }
}
