/// The character set the terminal's text is in, as the C library would pick
/// it: `LC_ALL`, else `LC_CTYPE`, else `LANG`, else the C locale. A C or
/// POSIX locale (a minimal container, some SSH setups) means ASCII: the
/// terminal shows UTF-8 frames and ellipses as garbage there.
package struct TerminalLocale: Equatable, Sendable {
    /// The locale's name as set ("C.UTF-8", "en_GB.utf8", "C").
    package var name: String
    package var isUTF8: Bool

    package init(environment: [String: String]) {
        let name =
            [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]].compactMap { $0 }.first {
                !$0.isEmpty
            } ?? "C"
        self.name = name
        let lower = name.lowercased()
        isUTF8 = lower.contains("utf-8") || lower.contains("utf8")
    }
}

extension TerminalLocale {
    /// What pxview's screens may draw text with in this locale.
    package var glyphs: Glyphs { isUTF8 ? .unicode : .ascii }
}

/// The characters the grid and the viewer draw with: UTF-8 frames and
/// symbols, or ASCII alone for a terminal in a C locale (which shows each
/// byte of a UTF-8 `…` as a Latin-1 character of its own, so the status
/// line grew by two cells per ellipsis and wrapped).
package enum Glyphs: Sendable, Equatable {
    case unicode
    case ascii

    /// What a cut line ends with.
    package var ellipsis: String { self == .unicode ? "…" : "..." }

    /// `text` as this character set shows it: unchanged in UTF-8; in ASCII
    /// each of pxview's own symbols becomes its stand-in (`…` `...`, `·`
    /// `-`, `♥` `<3`, `★` `*`, `▶` `>`, `█` `_`, frame lines `+ - |`) and
    /// any other character outside ASCII a `?`, as `ls` shows a name it
    /// cannot print. Control characters are left for
    /// `TerminalText.sanitize`.
    package func text(_ text: String) -> String {
        guard self == .ascii, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for character in text {
            if character.isASCII {
                out.append(character)
            } else {
                out += Self.standIns[character] ?? "?"
            }
        }
        return out
    }

    /// The ASCII stand-ins for the symbols pxview itself draws.
    static let standIns: [Character: String] = [
        "…": "...", "·": "-", "♥": "<3", "★": "*", "✓": "+", "▶": ">", "█": "_", "—": "-", "–": "-",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "─": "-", "│": "|",
    ]
}
