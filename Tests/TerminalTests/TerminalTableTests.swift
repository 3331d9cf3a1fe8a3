import Testing

@testable import Terminal

/// One row per terminal: names read into a typed identity, written back
/// the same way, and the environment's guesses from the same rows.
@Suite struct TerminalTableTests {
    /// XTVERSION's answers as terminals give them (xterm 379 and kitty
    /// 0.26.5 seen here; the others as their sources write them) and tmux's
    /// `client_termtype`.
    @Test func namesAreReadIntoIdentities() {
        let cases: [(String, TerminalIdentity?)] = [
            ("XTerm(379)", TerminalIdentity(.xterm, version: [379])),
            ("kitty(0.26.5)", TerminalIdentity(.kitty, version: [0, 26, 5])),
            ("kitty(0.48.2)", TerminalIdentity(.kitty, version: [0, 48, 2])),
            ("Konsole 22.12.3", TerminalIdentity(.konsole, version: [22, 12, 3])),
            ("WezTerm 20230712-072601-f4abf8fd", TerminalIdentity(.wezterm, version: [20_230_712])),
            ("foot(1.13.1)", TerminalIdentity(.foot, version: [1, 13, 1])),
            ("tmux 3.3a", TerminalIdentity(.tmux, version: [3, 3])),
            ("kitty", TerminalIdentity(.kitty)),
            ("WezTerm", TerminalIdentity(.wezterm)),
            ("kittyfoo(1.0)", nil),
            ("VTE(7600)", nil),
            ("", nil),
        ]
        for (text, identity) in cases { #expect(TerminalIdentity(naming: text) == identity, "\(text)") }
        #expect(TerminalIdentity(.kitty, version: [0, 26, 5]).description == "kitty(0.26.5)")
        #expect(TerminalIdentity(.konsole, version: [22, 12, 3]).description == "Konsole 22.12.3")
        #expect(TerminalIdentity(.wezterm).description == "WezTerm")
        #expect(TerminalIdentity(.kitty, version: [0, 28]).isAtLeast([0, 28]))
        #expect(!TerminalIdentity(.kitty).isAtLeast([0, 28]), "an unknown version counts as older")
        // Every row's own name reads back as its kind.
        for row in TerminalTable.rows { #expect(TerminalIdentity(naming: row.name)?.kind == row.kind) }
    }

    /// The environment's guess, from the rows in order: which terminal,
    /// what it draws, which variable told.
    @Test func theEnvironmentIsReadFromTheSameRows() {
        let guesses: [([String: String], TerminalKind, String)] = [
            (["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"], .kitty, "KITTY_WINDOW_ID"),
            (["TERM": "xterm-ghostty"], .ghostty, "TERM=xterm-ghostty"),
            (["WEZTERM_EXECUTABLE": "/usr/bin/wezterm"], .wezterm, "WEZTERM_EXECUTABLE"),
            (["TERM": "mlterm-256color"], .mlterm, "TERM=mlterm-256color"),
            (["KONSOLE_VERSION": "221203"], .konsole, "KONSOLE_VERSION"),
            (["TERM": "foot-extra"], .foot, "TERM=foot-extra"),
            (["TERM_PROGRAM": "iTerm.app"], .iterm2, "TERM_PROGRAM=iTerm.app"),
        ]
        for (environment, kind, reason) in guesses {
            let guess = TerminalGuess(environment: environment)
            #expect(guess?.terminal?.kind == kind && guess?.reason == reason, "\(environment)")
            #expect(
                guess?.capabilities(winsize: WindowSize(cells: .init(width: 80, height: 24), pixels: nil)).terminal
                    == guess?.terminal)
        }
        #expect(TerminalGuess(environment: ["TERM": "xterm-256color"]) == nil)
        #expect(TmuxHint(environment: ["TERM": "tmux-256color"]) == .tmux)
        #expect(TmuxHint(environment: ["TERM": "screen.xterm-256color"]) == .screenOrTmux)
        #expect(TmuxHint(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]) == .none)
        #expect(TmuxHint(environment: ["TERM": "xterm-256color"]) == .none)
    }

    /// Quirks come from rows: every kind has its own.
    @Test func everyKindHasItsRow() {
        for kind in TerminalKind.allCases { #expect(TerminalTable.row(kind).kind == kind) }
        #expect(Set(TerminalTable.rows.map(\.kind)).count == TerminalTable.rows.count)
    }
}
