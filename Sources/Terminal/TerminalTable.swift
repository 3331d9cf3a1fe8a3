/// The terminals pxview knows, one row each, as chafa keeps its `term_def`
/// table: how each names itself (XTVERSION's answer, tmux's
/// `client_termtype`), the environment variables that tell it apart when it
/// cannot be asked, what it draws then, and its quirks. The one place a
/// terminal is recognised by name.
package enum TerminalKind: String, CaseIterable, Sendable {
    case kitty, konsole, wezterm, xterm, foot, mlterm, ghostty, mintty, iterm2, contour
    /// tmux answers XTVERSION for itself when asked directly.
    case tmux
}

/// A terminal as pxview knows it: which one, and its version where it said.
package struct TerminalIdentity: Equatable, Sendable, CustomStringConvertible {
    package var kind: TerminalKind
    /// Its version's numbers ("0.26.5": [0, 26, 5]); empty when unknown.
    package var version: [Int]

    package init(_ kind: TerminalKind, version: [Int] = []) {
        self.kind = kind
        self.version = version
    }

    /// From XTVERSION's answer or tmux's `client_termtype`: `kitty(0.26.5)`,
    /// `XTerm(379)`, `Konsole 22.12.3`, `WezTerm 20230712-072601-f4abf8fd`,
    /// `foot(1.13.1)`, `tmux 3.3a`; nil for a terminal not in the table.
    package init?(naming text: String) {
        guard let row = TerminalTable.rows.first(where: { text.hasPrefix($0.name) }) else { return nil }
        let rest = text.dropFirst(row.name.count)
        guard rest.isEmpty || rest.first == "(" || rest.first == " " else { return nil }
        let numbers = rest.dropFirst().prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        self.init(row.kind, version: numbers)
    }

    /// Its row of the table.
    package var row: TerminalRow { TerminalTable.row(kind) }

    /// True from `minimum` on (an unknown version is taken as older).
    package func isAtLeast(_ minimum: [Int]) -> Bool {
        !version.isEmpty && !version.lexicographicallyPrecedes(minimum)
    }

    /// As the terminal names itself: `kitty(0.26.5)`, `Konsole 22.12.3`;
    /// `WezTerm` when the version is not known.
    package var description: String {
        guard !version.isEmpty else { return row.name }
        let numbers = version.map(String.init).joined(separator: ".")
        return row.versionInParentheses ? "\(row.name)(\(numbers))" : "\(row.name) \(numbers)"
    }
}

/// One terminal: its names, how the environment tells it, what it draws
/// when it cannot be asked, and its quirks.
package struct TerminalRow: Sendable {
    package var kind: TerminalKind
    /// Its name as it begins XTVERSION's answer and tmux's `client_termtype`.
    package var name: String
    /// `kitty(0.26.5)`, not `Konsole 22.12.3`.
    package var versionInParentheses: Bool
    /// The variable that tells it (as `doctor` says it), or nil.
    package var toldBy: @Sendable (_ environment: [String: String]) -> String?
    /// What it draws when guessed from the environment.
    package var kittyGraphics: Bool
    package var sixel: Bool
    /// It draws the sextants (U+1FB00-1FB3B) itself, whatever its font:
    /// kitty and Konsole (seen: kitty 0.26.5 and Konsole 22.12 drew all 60
    /// with DejaVu Sans Mono, which has none, where xterm 379 drew nothing
    /// and mlterm 3.9 empty boxes) and WezTerm (`custom_block_glyphs`).
    package var drawsSextants = false
    /// Unicode placeholders for kitty images, from this version on: kitty
    /// 0.28.0 (Debian's 0.26.5 prints them as boxes).
    package var placeholdersSince: [Int]? = nil
    /// kitty's clipboard protocol (OSC 5522: any media type, an image too),
    /// from this version on: kitty 0.27.0.
    package var clipboardImagesSince: [Int]? = nil
    /// A scaled kitty placement shrinks by its `X`/`Y` pixel offset (the
    /// picture still ends on the box's last cell): kitty. Konsole shifts it
    /// instead, so only kitty gets pixel offsets with scaling.
    package var scaledOffsetsShrink = false
    /// A sixel picture stays until another picture covers it whole, the
    /// screen is cleared or a kitty delete command names it: text written
    /// over it (ECH, spaces, EL) does not remove it (seen in Konsole 22.12;
    /// its `Screen::addPlacement` only drops fully covered pictures). It
    /// also paints unpainted sixel pixels with colour register 0.
    package var sixelsOutliveText = false
    /// After a sixel drawn at the cursor, the cursor is on the row of the
    /// picture's last band, not below it, so text after it covers the
    /// picture's bottom strip (seen in xterm 379: the prompt over the last
    /// 11 px of a 600 px photo; mlterm 3.9 moves below).
    package var sixelCursorStaysInPicture = false
}

package enum TerminalTable {
    package static let rows: [TerminalRow] = [
        // kitty, by version (each seen here; where pxview handles it):
        // - 0.26.5 (Debian 12): no Unicode placeholders (placements through
        //   tmux's passthrough instead); `d=I` frees every image left without
        //   a placement, so pxview frees one image by swapping its data for a
        //   pixel (`KittyEncoder.release`).
        // - 0.28 and later: Unicode placeholders (`placeholdersSince`,
        //   `KittyPlaceholderBackend`, inside tmux).
        // - 0.33 and later: deletion by id range (`d=R`, `pxview clear` with
        //   nothing remembered; older versions ignore it).
        // - 0.48.2: new data under an id takes the image's pictures away
        //   before it arrives, placeholder cells are drawn again only when
        //   their text changes or a `U=1` command comes
        //   (`KittyPlaceholderBackend`: two ids per slot, the virtual
        //   placement last), a preview under an id deleted just before
        //   showed black (`PreviewPlacement`: never reused), and the window
        //   is sometimes not drawn after the last picture command until more
        //   input comes (`GraphicsBackend.followUp`, a nudge after a
        //   preview). The fixes are harmless in 0.26.5, so they are not
        //   switched by version.
        TerminalRow(
            kind: .kitty, name: "kitty", versionInParentheses: true,
            toldBy: { environment in
                !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty
                    ? "KITTY_WINDOW_ID" : environment["TERM"] == "xterm-kitty" ? "TERM=xterm-kitty" : nil
            }, kittyGraphics: true, sixel: false, drawsSextants: true, placeholdersSince: [0, 28],
            clipboardImagesSince: [0, 27], scaledOffsetsShrink: true),
        TerminalRow(
            kind: .ghostty, name: "ghostty", versionInParentheses: false,
            toldBy: { environment in
                environment["TERM_PROGRAM"] == "ghostty"
                    ? "TERM_PROGRAM=ghostty" : environment["TERM"] == "xterm-ghostty" ? "TERM=xterm-ghostty" : nil
            }, kittyGraphics: true, sixel: false),
        TerminalRow(
            kind: .wezterm, name: "WezTerm", versionInParentheses: false,
            toldBy: { environment in
                environment["TERM_PROGRAM"] == "WezTerm"
                    ? "TERM_PROGRAM=WezTerm" : !(environment["WEZTERM_EXECUTABLE"] ?? "").isEmpty ? "WEZTERM_EXECUTABLE" : nil
            }, kittyGraphics: false, sixel: true, drawsSextants: true),
        TerminalRow(
            kind: .konsole, name: "Konsole", versionInParentheses: false,
            toldBy: { !($0["KONSOLE_VERSION"] ?? "").isEmpty ? "KONSOLE_VERSION" : nil },
            kittyGraphics: true, sixel: true, drawsSextants: true, sixelsOutliveText: true),
        TerminalRow(
            kind: .foot, name: "foot", versionInParentheses: true,
            toldBy: { environment in
                let term = environment["TERM"] ?? ""
                return term.hasPrefix("foot") ? "TERM=\(term)" : nil
            }, kittyGraphics: false, sixel: true),
        TerminalRow(
            kind: .mlterm, name: "mlterm", versionInParentheses: true,
            toldBy: { environment in
                !(environment["MLTERM"] ?? "").isEmpty
                    ? "MLTERM" : (environment["TERM"] ?? "").hasPrefix("mlterm") ? "TERM=\(environment["TERM"] ?? "")" : nil
            }, kittyGraphics: false, sixel: true),
        TerminalRow(
            kind: .mintty, name: "mintty", versionInParentheses: false,
            toldBy: { $0["TERM_PROGRAM"] == "mintty" ? "TERM_PROGRAM=mintty" : nil }, kittyGraphics: false, sixel: true),
        TerminalRow(
            kind: .iterm2, name: "iTerm2", versionInParentheses: false,
            toldBy: { $0["TERM_PROGRAM"] == "iTerm.app" ? "TERM_PROGRAM=iTerm.app" : nil }, kittyGraphics: false,
            sixel: true),
        TerminalRow(
            kind: .contour, name: "contour", versionInParentheses: false,
            toldBy: { environment in
                let term = environment["TERM"] ?? ""
                return term.hasPrefix("contour") ? "TERM=\(term)" : nil
            }, kittyGraphics: false, sixel: true),
        TerminalRow(
            kind: .xterm, name: "XTerm", versionInParentheses: true, toldBy: { _ in nil }, kittyGraphics: false, sixel: false,
            sixelCursorStaysInPicture: true),
        TerminalRow(
            kind: .tmux, name: "tmux", versionInParentheses: false, toldBy: { _ in nil }, kittyGraphics: false, sixel: false),
    ]

    /// Every kind has its row (a test holds it): quirks come from rows, so
    /// none may stand in for another's.
    package static func row(_ kind: TerminalKind) -> TerminalRow {
        guard let row = rows.first(where: { $0.kind == kind }) else { preconditionFailure("no row for \(kind)") }
        return row
    }

    /// The Linux console (`TERM=linux`), whose VGA font has half-blocks and
    /// little else (text is `▄`, `TextBackend`). Not a row: nothing is
    /// guessed or asked of it.
    package static func isLinuxConsole(environment: [String: String]) -> Bool {
        environment["TERM"] == "linux"
    }

    /// The multiplexers `TERM` names, by how it begins: tmux's own terminfo
    /// entry (`tmux-256color`), or `screen*`, which tmux used before and
    /// GNU screen uses.
    package static let multiplexerTerms: [(prefix: String, hint: TmuxHint)] = [
        ("tmux", .tmux), ("screen", .screenOrTmux),
    ]
}
