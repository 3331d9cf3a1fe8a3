import Pixels

/// What the environment says about the terminal, for a run that must not
/// ask it and has nothing remembered (chafa and yazi read the same hints):
/// the variables terminals export to the programs they start.
package struct TerminalGuess: Equatable, Sendable {
    package var kittyGraphics: Bool
    package var sixel: Bool
    /// A name in XTVERSION's form where one is known (`kitty`, `Konsole`),
    /// so the terminal's quirks apply as after a probe.
    package var version: String?
    /// Which variable told.
    package var reason: String

    /// Nil when nothing in `environment` names a terminal that draws pictures.
    package init?(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if term == "xterm-kitty" || has("KITTY_WINDOW_ID") {
            self.init(
                kittyGraphics: true, sixel: false, version: "kitty()",
                reason: has("KITTY_WINDOW_ID") ? "KITTY_WINDOW_ID" : "TERM=xterm-kitty")
        } else if term == "xterm-ghostty" || program == "ghostty" {
            self.init(kittyGraphics: true, sixel: false, version: nil, reason: "TERM_PROGRAM=ghostty")
        } else if program == "WezTerm" || has("WEZTERM_EXECUTABLE") {
            self.init(kittyGraphics: false, sixel: true, version: nil, reason: "TERM_PROGRAM=WezTerm")
        } else if has("KONSOLE_VERSION") {
            self.init(kittyGraphics: true, sixel: true, version: "Konsole", reason: "KONSOLE_VERSION")
        } else if term.hasPrefix("foot") {
            self.init(kittyGraphics: false, sixel: true, version: nil, reason: "TERM=\(term)")
        } else if has("MLTERM") || term.hasPrefix("mlterm") {
            self.init(kittyGraphics: false, sixel: true, version: nil, reason: "MLTERM")
        } else if program == "mintty" || program == "iTerm.app" || term.hasPrefix("contour") {
            self.init(kittyGraphics: false, sixel: true, version: nil, reason: "TERM_PROGRAM=\(program.isEmpty ? term : program)")
        } else {
            return nil
        }
    }

    package init(kittyGraphics: Bool, sixel: Bool, version: String?, reason: String) {
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.version = version
        self.reason = reason
    }

    /// The guess as capabilities for a window of `winsize` (the cell from
    /// the kernel's pixels when it gives them).
    package func capabilities(winsize: WindowSize, cell: PixelSize? = nil) -> TerminalCapabilities {
        var capabilities = TerminalCapabilities(
            kittyGraphics: kittyGraphics, sixel: sixel, colorRegisters: nil, sixelMaxSize: nil, cellSize: cell,
            windowPixels: winsize.pixels, windowCells: winsize.cells, synchronizedOutput: false, terminalVersion: version)
        if let pixels = winsize.pixels, !winsize.cells.isEmpty {
            let measured = PixelSize(width: pixels.width / winsize.cells.width, height: pixels.height / winsize.cells.height)
            if TerminalLimits.cell(measured) { capabilities.cellSize = measured }
        }
        return capabilities
    }
}
