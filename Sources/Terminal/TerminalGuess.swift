import Pixels

/// What the environment says about the terminal, for a run that must not
/// ask it and has nothing remembered (chafa and yazi read the same hints):
/// the variables terminals export to the programs they start.
package struct TerminalGuess: Equatable, Sendable {
    package var kittyGraphics: Bool
    package var sixel: Bool
    /// Which terminal it is (its version unknown), so its quirks apply as
    /// after a probe; nil where nothing names one.
    package var terminal: TerminalIdentity?
    /// Which variable told.
    package var reason: String

    /// Nil when nothing in `environment` names a terminal that draws
    /// pictures (the table's rows, in order: `TerminalTable`).
    package init?(environment: [String: String]) {
        for row in TerminalTable.rows {
            guard let reason = row.toldBy(environment) else { continue }
            self.init(kittyGraphics: row.kittyGraphics, sixel: row.sixel, terminal: TerminalIdentity(row.kind), reason: reason)
            return
        }
        return nil
    }

    package init(kittyGraphics: Bool, sixel: Bool, terminal: TerminalIdentity?, reason: String) {
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.terminal = terminal
        self.reason = reason
    }

    /// The guess as capabilities for a window of `winsize` (the cell from
    /// the kernel's pixels when it gives them).
    package func capabilities(winsize: WindowSize, cell: PixelSize? = nil) -> TerminalCapabilities {
        var capabilities = TerminalCapabilities(
            kittyGraphics: kittyGraphics, sixel: sixel, colorRegisters: nil, sixelMaxSize: nil, cellSize: cell,
            windowPixels: winsize.pixels, windowCells: winsize.cells, synchronizedOutput: false,
            terminalVersion: terminal?.description)
        if let pixels = winsize.pixels, !winsize.cells.isEmpty {
            let measured = PixelSize(width: pixels.width / winsize.cells.width, height: pixels.height / winsize.cells.height)
            if TerminalLimits.cell(measured) { capabilities.cellSize = measured }
        }
        return capabilities
    }
}
