import Foundation
import Pixels
import TestSupport
import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// What a previewer uses instead of asking the terminal: an earlier probe
/// of the same terminal, tmux, the environment, in that order.
@Suite struct TerminalMemoryTests {
    static func report() -> ProbeReport {
        var capabilities = TerminalCapabilities(
            kittyGraphics: false, sixel: true, colorRegisters: 256, sixelMaxSize: PixelSize(width: 1000, height: 1000),
            cellSize: PixelSize(width: 9, height: 19), windowPixels: nil, windowCells: CellCount(width: 80, height: 24),
            synchronizedOutput: true, terminalVersion: "XTerm(379)", backgroundColor: RGBA(r: 255, g: 255, b: 255))
        capabilities.kittyMedium = .direct
        return ProbeReport(
            capabilities: capabilities, multiplexer: .tmux(passthrough: true),
            outcome: ProbeOutcome(replies: ProbeReplies(), leftover: [], elapsedMs: 3, timedOut: false))
    }

    /// A terminal's file name is always 16 hex digits: one hash in 16 has
    /// a leading zero, which once made a name a digit short.
    @Test func namesAreSixteenHexDigits() {
        #expect(TerminalMemory.hash("tty2000") == "065ba806cbc78d26")
        #expect((0..<200).allSatisfy { TerminalMemory.hash("tty\($0)").count == 16 })
    }

    @Test func aProbeIsRememberedPerTerminalAndForAWhile() throws {
        let directory = try TemporaryDirectory()
        let pty = try PseudoTerminal()
        let key = try #require(TerminalMemory.key(environment: ["TERM": "xterm"], ttyFD: pty.slave))
        let memory = TerminalMemory(directory: directory.path, key: key)
        memory.remember(Self.report(), now: 1000)
        let window = WindowSize(cells: CellCount(width: 100, height: 30), pixels: nil)
        let recalled = try #require(memory.recalled(winsize: window, now: 2000))
        let capabilities = try #require(recalled.capabilities)
        #expect(capabilities.sixel && !capabilities.kittyGraphics && capabilities.colorRegisters == 256)
        #expect(capabilities.sixelMaxSize == PixelSize(width: 1000, height: 1000))
        #expect(capabilities.cellSize == PixelSize(width: 9, height: 19) && capabilities.windowCells == window.cells)
        #expect(capabilities.terminalVersion == "XTerm(379)" && capabilities.backgroundColor == RGBA(r: 255, g: 255, b: 255))
        #expect(recalled.multiplexer == .tmux(passthrough: true) && recalled.skipped == .notAsked)
        // Too old, or from the future: forgotten.
        #expect(memory.recalled(winsize: window, now: 1000 + TerminalMemory.maxAgeSeconds + 1) == nil)
        #expect(memory.recalled(winsize: window, now: 999) == nil)
        // Another terminal (another TERM here) has its own.
        let other = try #require(TerminalMemory.key(environment: ["TERM": "xterm-kitty"], ttyFD: pty.slave))
        #expect(other != key)
        #expect(TerminalMemory(directory: directory.path, key: other).recalled(winsize: window, now: 2000) == nil)
        // The kernel's pixels beat the remembered cell.
        let measured = WindowSize(cells: CellCount(width: 100, height: 30), pixels: PixelSize(width: 1000, height: 600))
        #expect(memory.recalled(winsize: measured, now: 2000)?.capabilities?.cellSize == PixelSize(width: 10, height: 20))
        // A probe that timed out is not remembered.
        var timedOut = Self.report()
        timedOut.outcome?.timedOut = true
        let fresh = TerminalMemory(directory: directory.path + "/fresh", key: key)
        fresh.remember(timedOut, now: 1000)
        #expect(fresh.recalled(winsize: window, now: 1000) == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path + "/terminal-" + key)[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    @Test func theLastPreviewIsKeptAndMarkedCleared() throws {
        let directory = try TemporaryDirectory()
        let memory = TerminalMemory(directory: directory.path, key: "abc")
        #expect(memory.lastPreview(now: 10) == nil)
        let sixel = TerminalMemory.PreviewRecord(
            box: CellRect(column: 60, row: 1, columns: 40, rows: 20), method: "sixel", startedMs: 1_000_000)
        memory.rememberPreview(sixel, now: 10)
        #expect(memory.lastPreview(now: 20) == sixel)
        #expect(TerminalMemory(directory: directory.path, key: nil).lastPreview() == nil)
        // A clear marks only the preview it saw: a newer one stays as it is,
        // but learns when the clear started.
        let kitty = TerminalMemory.PreviewRecord(
            box: CellRect(column: 0, row: 0, columns: 10, rows: 5), method: "kitty", kittyImageID: 0xFF00_0003,
            startedMs: 2_000_000)
        memory.rememberPreview(kitty)
        memory.previewCleared(sixel, startedMs: 1_500_000)
        var seen = kitty
        seen.lastClearMs = 1_500_000
        #expect(memory.lastPreview() == seen)
        #expect(seen.clearedSinceItStarted == false)
        memory.previewCleared(seen, startedMs: 2_500_000)
        var cleared = seen
        cleared.cleared = true
        cleared.lastClearMs = 2_500_000
        // Cleared, its id is kept: the next preview goes on after it.
        #expect(memory.lastPreview() == cleared)
        #expect(cleared.clearedSinceItStarted)
        // The next preview keeps the clear's time.
        let next = TerminalMemory.PreviewRecord(box: kitty.box, method: "kitty", kittyImageID: 0xFF00_0004, startedMs: 2_400_000)
        memory.rememberPreview(next)
        #expect(memory.lastPreview()?.lastClearMs == 2_500_000)
        #expect(memory.lastPreview()?.clearedSinceItStarted == true)
        // A clear with nothing remembered still leaves its time.
        let fresh = TerminalMemory(directory: directory.path, key: "other")
        #expect(fresh.previewCleared(nil, startedMs: 7)?.lastClearMs == 7)
        #expect(fresh.lastPreview()?.cleared == true)
    }

    @Test func theEnvironmentNamesTerminalsThatDrawPictures() {
        #expect(TerminalGuess(environment: ["TERM": "xterm-kitty"])?.kittyGraphics == true)
        #expect(TerminalGuess(environment: ["KITTY_WINDOW_ID": "3", "TERM": "xterm-256color"])?.reason == "KITTY_WINDOW_ID")
        #expect(TerminalGuess(environment: ["KONSOLE_VERSION": "221203"])?.terminal == TerminalIdentity(.konsole))
        // WezTerm guessed is WezTerm (its sextants as after a probe), no version.
        #expect(TerminalGuess(environment: ["TERM_PROGRAM": "WezTerm"])?.terminal?.description == "WezTerm")
        #expect(TerminalGuess(environment: ["TERM": "foot"])?.sixel == true)
        #expect(TerminalGuess(environment: ["TERM_PROGRAM": "WezTerm"])?.sixel == true)
        #expect(TerminalGuess(environment: ["MLTERM": "3.9.0"])?.sixel == true)
        // xterm says nothing of sixel, VTE has none: no guess.
        #expect(TerminalGuess(environment: ["TERM": "xterm-256color", "XTERM_VERSION": "XTerm(379)"]) == nil)
        #expect(TerminalGuess(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7002"]) == nil)
        #expect(TerminalGuess(environment: [:]) == nil)
    }

    /// No earlier probe: inside tmux, tmux's name for the outer terminal;
    /// else the environment; else nothing. A remembered probe beats both.
    @Test func recallingPutsTheSourcesInOrder() throws {
        let directory = try TemporaryDirectory()
        let pty = try PseudoTerminal()
        pty.setWindowSize(rows: 24, columns: 80, width: 720, height: 456)
        let key = TerminalMemory.key(environment: [:], ttyFD: pty.slave)
        let memory = TerminalMemory(directory: directory.path, key: key)
        let env = ["TERM": "xterm-kitty"]
        let guessed = recallTerminal(environment: env, ttyFD: pty.slave, memory: memory) { _ in nil }
        #expect(guessed.capabilities?.kittyGraphics == true && guessed.knownFrom == "the environment (TERM=xterm-kitty)")
        #expect(guessed.capabilities?.cellSize == PixelSize(width: 9, height: 19))
        #expect(guessed.outcome == nil && guessed.skipped == .notAsked)
        let inTmux = ["TMUX": "/tmp/t,1,0", "TMUX_PANE": "%1", "TERM": "tmux-256color"]
        let pane = "0\t0\t80\t24\t1\t1\t0\t1\t9\t19\ton\tbottom\t/dev/pts/9\tkitty(0.26.5)\n"
        let tmux = recallTerminal(environment: inTmux, ttyFD: pty.slave, memory: memory) { arguments in
            arguments.first == "show" ? "on\n" : pane
        }
        #expect(tmux.multiplexer == .tmux(passthrough: true) && tmux.capabilities?.kittyGraphics == true)
        #expect(tmux.knownFrom == "tmux (client_termtype kitty(0.26.5))")
        let nothing = recallTerminal(environment: [:], ttyFD: pty.slave, memory: memory) { _ in nil }
        #expect(nothing.capabilities?.kittyGraphics == false && nothing.capabilities?.sixel == false)
        memory.remember(Self.report())
        let remembered = recallTerminal(environment: env, ttyFD: pty.slave, memory: memory) { _ in nil }
        #expect(remembered.capabilities?.sixel == true && remembered.knownFrom == "an earlier probe of this terminal")
        #expect(remembered.multiplexer == .tmux(passthrough: true))
    }
}
