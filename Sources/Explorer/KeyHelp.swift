import Rendering
import Terminal

/// A key as the screens' tables name it: its code, and whether Control is
/// held (other modifiers are not told apart: Alt-q quits as q does).
package struct KeyChord: Hashable, Sendable {
    package var code: KeyCode
    package var control: Bool

    package init(_ code: KeyCode, control: Bool = false) {
        self.code = code
        self.control = control
    }

    package init(_ key: Key) {
        self.init(key.code, control: key.modifiers.contains(.control))
    }

    package static func char(_ character: Character) -> KeyChord { KeyChord(.char(character)) }
    package static func ctrl(_ character: Character) -> KeyChord { KeyChord(.char(character), control: true) }

    /// The name help gives the key: `q`, `Ctrl-C`, `PgUp`, `Space`.
    package var name: String {
        let base: String
        switch code {
        case .char(" "): base = "Space"
        case .char(let character): base = control ? String(character).uppercased() : String(character)
        case .up, .down, .left, .right: base = "arrows"
        case .home: base = "Home"
        case .end: base = "End"
        case .pageUp: base = "PgUp"
        case .pageDown: base = "PgDn"
        case .insert: base = "Insert"
        case .delete: base = "Delete"
        case .enter: base = "Enter"
        case .escape: base = "Esc"
        case .tab: base = "Tab"
        case .backTab: base = "Shift-Tab"
        case .backspace: base = "Backspace"
        case .function(let number): base = "F\(number)"
        }
        return control ? "Ctrl-" + base : base
    }
}

/// One line of a screen's key table: how help writes its keys (and mouse
/// actions), what they do, and the action each key asks of the screen's
/// state machine; nil for a key the run loop takes first (Ctrl-Z).
package struct KeyLine<Action: Sendable>: Sendable {
    package var label: String
    package var help: String
    package var keys: [(chord: KeyChord, action: Action?)]

    package init(_ label: String, _ help: String, keys: [(chord: KeyChord, action: Action?)] = []) {
        self.label = label
        self.help = help
        self.keys = keys
    }

    /// The four directions on the arrows and on vi's h j k l, as both
    /// screens move (the grid's selection, the viewer's view).
    package static func directions(_ help: String, left: Action, right: Action, up: Action, down: Action) -> KeyLine {
        KeyLine(
            "arrows, h j k l", help,
            keys: [
                (KeyChord(.left), left), (.char("h"), left), (KeyChord(.right), right), (.char("l"), right),
                (KeyChord(.up), up), (.char("k"), up), (KeyChord(.down), down), (.char("j"), down),
            ])
    }
}

/// A screen's keys in one table: the state machine asks it what a key does
/// and the `?` overlay, `--help`, the man page and the README list it, so a
/// key cannot be handled without being listed (once the grid's `g`/`G` and
/// the viewer's `_` and Ctrl-C were handled but listed nowhere).
package struct KeyTable<Action: Sendable>: Sendable {
    package var lines: [KeyLine<Action>]

    package init(_ lines: [KeyLine<Action>]) {
        self.lines = lines
    }

    /// What `key` asks for, nil when the screen has nothing for it.
    package func action(for key: Key) -> Action? {
        let chord = KeyChord(key)
        for line in lines {
            if let match = line.keys.first(where: { $0.chord == chord }) { return match.action }
        }
        return nil
    }

    /// Every key the table answers.
    package var chords: [KeyChord] { lines.flatMap { $0.keys.map(\.chord) } }

    /// The table as help lines.
    package var entries: [KeyHelp.Entry] { lines.map { KeyHelp.Entry(keys: $0.label, action: $0.help) } }
}

/// The help both screens and `--help` print, read off the key tables.
package enum KeyHelp {
    /// One line of help: the keys (and mouse actions), then what they do.
    package struct Entry: Equatable, Sendable {
        package var keys: String
        package var action: String
    }

    /// The grid browser (`pxview`, `search -i`).
    package static var browser: [Entry] { BrowserState.keys.entries }

    /// A folder's grid (`show DIR`).
    package static var folderGrid: [Entry] { BrowserState.folderKeys.entries }

    /// The viewer (`open ID`, `show FILE`, Enter in the browser).
    package static var viewer: [Entry] { ViewerState.keys.entries }

    /// The table as aligned lines: the action column starts two cells after
    /// the widest keys.
    package static func lines(_ entries: [Entry]) -> [String] {
        let width = entries.map { TerminalText.displayWidth($0.keys) }.max() ?? 0
        return entries.map { entry in
            entry.keys + String(repeating: " ", count: width - TerminalText.displayWidth(entry.keys) + 2) + entry.action
        }
    }
}

/// Why pictures are text where the terminal could do better
/// (`GraphicsShortfall`: its `status` on the status line, its `fix` in the
/// `?` help).
extension GraphicsShortfall {
    /// The help's lines about it: the fix, wrapped to `width` cells.
    package func helpLines(width: Int) -> [String] {
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
package enum StatusLine {
    package static func compose(left: String, right: String, width: Int, glyphs: Glyphs = .unicode) -> String {
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
