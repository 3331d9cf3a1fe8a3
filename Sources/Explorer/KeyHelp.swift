import Terminal

/// The keys of both screens, in one place: the `?` overlays, `--help` and
/// the README all print these tables, so they cannot drift apart.
public enum KeyHelp {
    /// One line of help: the keys (and mouse actions), then what they do.
    public struct Entry: Equatable, Sendable {
        public var keys: String
        public var action: String
    }

    /// The grid browser (`pxview`, `search -i`, `show DIR`).
    public static let browser: [Entry] = [
        Entry(keys: "arrows, h j k l", action: "move the selection"),
        Entry(keys: "Home, End", action: "first, last photo (End loads every page)"),
        Entry(keys: "PgUp, PgDn", action: "a page of tiles up, down (n, p too)"),
        Entry(keys: "+ / -", action: "larger / smaller tiles (kept while pxview runs)"),
        Entry(keys: "Enter, click", action: "open the viewer"),
        Entry(keys: "wheel", action: "scroll a row"),
        Entry(keys: "/", action: "new search (Enter search, Esc cancel)"),
        Entry(keys: "f", action: "toggle favourite"),
        Entry(keys: "F", action: "favourites (again: back to the search)"),
        Entry(keys: "q, Ctrl-C", action: "quit"),
        Entry(keys: "Ctrl-Z", action: "suspend to the shell (fg comes back)"),
        Entry(keys: "?", action: "this help (any key closes it)"),
    ]

    /// The viewer (`open ID`, `show FILE`, Enter in the browser).
    public static let viewer: [Entry] = [
        Entry(keys: "+ =", action: "zoom in (x1.25, about the centre)"),
        Entry(keys: "-", action: "zoom out"),
        Entry(keys: "wheel", action: "zoom about the pointer"),
        Entry(keys: "z, double-click", action: "toggle 1x / 2x"),
        Entry(keys: "arrows, h j k l", action: "pan by a fifth of the view"),
        Entry(keys: "H J K L", action: "jump to the left/bottom/top/right edge"),
        Entry(keys: "drag", action: "pan with the mouse"),
        Entry(keys: "0, r", action: "reset zoom (1x, centred)"),
        Entry(keys: "f", action: "cycle fit: contain, cover, 1:1 pixels"),
        Entry(keys: "Ctrl-A", action: "pause / play an animation (GIF, WebP, ...)"),
        Entry(keys: ", .", action: "previous / next frame (pausing)"),
        Entry(keys: "n, Space", action: "next photo"),
        Entry(keys: "p, Backspace", action: "previous photo"),
        Entry(keys: "i", action: "toggle the info line"),
        Entry(keys: "s", action: "save the image (NAME-2, -3 if taken)"),
        Entry(keys: "*", action: "toggle favourite"),
        Entry(keys: "q, Esc", action: "back to the grid (or quit)"),
        Entry(keys: "Ctrl-Z", action: "suspend to the shell (fg comes back)"),
        Entry(keys: "?", action: "this help (any key closes it)"),
    ]

    /// The table as aligned lines: the action column starts two cells after
    /// the widest keys.
    public static func lines(_ entries: [Entry]) -> [String] {
        let width = entries.map { TerminalText.displayWidth($0.keys) }.max() ?? 0
        return entries.map { entry in
            entry.keys + String(repeating: " ", count: width - TerminalText.displayWidth(entry.keys) + 2) + entry.action
        }
    }
}

/// Why pictures are text where the terminal could do better: a few
/// words for the status line and the fix, for the `?` help.
public struct DisplayNotice: Equatable, Sendable {
    public var status: String
    public var fix: String

    public init(status: String, fix: String) {
        self.status = status
        self.fix = fix
    }

    /// The help's lines about it: the fix, wrapped to `width` cells.
    public func helpLines(width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in ("why " + status + ": " + fix).split(separator: " ") {
            if !line.isEmpty, TerminalText.displayWidth(line) + 1 + TerminalText.displayWidth(String(word)) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// One status or header line: `left` (a message, a title) cut with an
/// ellipsis so that `right` (the zoom, the `? keys · q quit` hint) always
/// shows, never wrapped. When even `right` does not fit, it is cut too.
/// Measured and cut in `glyphs`, as it will be drawn.
public enum StatusLine {
    public static func compose(left: String, right: String, width: Int, glyphs: Glyphs = .unicode) -> String {
        let left = glyphs.text(TerminalText.sanitize(left))
        let right = glyphs.text(TerminalText.sanitize(right))
        let rightWidth = TerminalText.displayWidth(right)
        guard rightWidth + 2 < width else { return TerminalText.truncate(right, toWidth: width, glyphs: glyphs) }
        let room = width - rightWidth - 2
        let cut = TerminalText.truncate(left, toWidth: room, glyphs: glyphs)
        let gap = width - TerminalText.displayWidth(cut) - rightWidth
        return cut + String(repeating: " ", count: gap) + right
    }
}
