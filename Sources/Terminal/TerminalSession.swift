import ControlSequences
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Puts the terminal into the state a full-screen app needs and puts it back.
///
/// Entering sets raw mode (`cfmakeraw`: no echo, no line buffering, no
/// CR/NL translation on input or output, no XON/XOFF) and then writes the
/// escape sequences chosen in `Options`. Raw mode turns ISIG off too, so
/// Ctrl-C, Ctrl-Z and Ctrl-\ raise no signal: they arrive as the bytes
/// 0x03, 0x1A, 0x1C and decode as control-key presses the app handles
/// itself (quitting cleanly instead of dying with the screen in a mess).
/// With OPOST off, "\n" no longer returns the carriage: frames position the
/// cursor explicitly with `TerminalCommand.moveTo`.
///
/// `restore()` undoes everything, is idempotent, and also runs on deinit.
/// Signals and crashes: `ProcessSignals`, with which the session records
/// the terminal before changing it.
package final class TerminalSession {
    package struct Options: Sendable, Equatable {
        /// Draw on the alternate screen (`CSI ? 1049 h`), so the shell's
        /// scrollback is untouched and comes back on exit.
        package var alternateScreen: Bool
        /// Hide the text cursor (`CSI ? 25 l`).
        package var hideCursor: Bool
        /// SGR mouse reporting of presses, releases, drags and the wheel
        /// (`CSI ? 1000 h`, `CSI ? 1002 h`, `CSI ? 1006 h`).
        package var mouse: Bool
        /// Bracketed paste (`CSI ? 2004 h`): pasted text arrives as one
        /// `.paste` event instead of a burst of key presses.
        package var bracketedPaste: Bool
        /// Application cursor keys (`CSI ? 1 h`): arrows arrive as `ESC O A`;
        /// the decoder reads both forms, so this is rarely needed.
        package var applicationCursorKeys: Bool
        /// Focus reports (`CSI ? 1004 h`): `CSI I` / `CSI O` when the window
        /// (or tmux pane, with `focus-events on`) gains or loses focus.
        package var focusEvents: Bool

        package init(
            alternateScreen: Bool = true, hideCursor: Bool = true, mouse: Bool = true,
            bracketedPaste: Bool = true, applicationCursorKeys: Bool = false, focusEvents: Bool = false
        ) {
            self.alternateScreen = alternateScreen
            self.hideCursor = hideCursor
            self.mouse = mouse
            self.bracketedPaste = bracketedPaste
            self.applicationCursorKeys = applicationCursorKeys
            self.focusEvents = focusEvents
        }

        /// Raw mode and nothing else: for probing before the UI starts.
        package static let rawModeOnly = Options(
            alternateScreen: false, hideCursor: false, mouse: false,
            bracketedPaste: false, applicationCursorKeys: false)
    }

    /// Everything any `Options` can turn on, turned off, plus an attribute
    /// reset and the end of a synchronized update that a crash may have cut
    /// short. A constant so a signal handler can write it with write(2).
    /// Switching off most modes that were never on is harmless, but not
    /// `?1049l`: xterm restores the cursor saved on entering the alternate
    /// screen even when it never entered it, which sends a raw-mode-only
    /// session's cursor home. `restoreSequence(for:)` picks what to undo.
    package static let restoreSequence: [UInt8] =
        TerminalCommand.endSynchronizedUpdate  // end a synchronized update left open
        + TerminalCommand.mouseReportingOff
        + TerminalCommand.bracketedPasteOff
        + TerminalCommand.focusEventsOff
        + TerminalCommand.normalCursorKeys
        + TerminalCommand.resetAttributes
        + TerminalCommand.showCursor
        + TerminalCommand.leaveAlternateScreen  // last: `restoreSequence(for:)` may drop it

    /// The bytes that undo `enterSequence(for: options)`: nothing for a
    /// raw-mode-only session (its screen was never touched), else the full
    /// `restoreSequence`, less `?1049l` when the main screen was never left.
    package static func restoreSequence(for options: Options) -> [UInt8] {
        if options == .rawModeOnly { return [] }
        if options.alternateScreen { return restoreSequence }
        return Array(restoreSequence.dropLast(TerminalCommand.leaveAlternateScreen.count))
    }

    /// The bytes written on entering a session with `options`.
    package static func enterSequence(for options: Options) -> [UInt8] {
        var out: [UInt8] = []
        if options.alternateScreen { out += TerminalCommand.enterAlternateScreen }
        if options.hideCursor { out += TerminalCommand.hideCursor }
        if options.mouse { out += TerminalCommand.mouseReportingOn }
        if options.bracketedPaste { out += TerminalCommand.bracketedPasteOn }
        if options.applicationCursorKeys { out += TerminalCommand.applicationCursorKeys }
        if options.focusEvents { out += TerminalCommand.focusEventsOn }
        return out
    }

    package let inputFD: Int32
    package let outputFD: Int32
    package let options: Options
    /// True from a successful init until `restore()`.
    package private(set) var isActive: Bool
    /// The terminal settings to go back to.
    package let originalSettings: termios

    /// Enters raw mode on `inputFD` and writes the enter sequence for
    /// `options` to `outputFD`. Throws if `inputFD` is not a terminal
    /// (ENOTTY from tcgetattr) or the terminal cannot be set up; nothing is
    /// left changed in that case.
    ///
    /// The terminal is recorded with `ProcessSignals` (its handlers
    /// installed) before it leaves cooked mode, so a signal at any moment
    /// from here on finds it and puts it back: SIGTERM during the start-up
    /// probe once left the terminal raw.
    package init(inputFD: Int32 = 0, outputFD: Int32 = 1, options: Options = Options()) throws(TerminalError) {
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.options = options
        var original = termios()
        guard tcgetattr(inputFD, &original) == 0 else { throw .last(.tcgetattr) }
        originalSettings = original
        var raw = original
        cfmakeraw(&raw)
        rawSettings = raw
        isActive = false
        ProcessSignals.armTerminal(
            owner: owner, inputFD: inputFD, outputFD: outputFD, original: original, raw: raw,
            restoreBytes: Self.restoreSequence(for: options), enterBytes: Self.enterSequence(for: options))
        guard tcsetattr(inputFD, TCSADRAIN, &raw) == 0 else {
            let error = TerminalError.last(.tcsetattr)
            ProcessSignals.disarmTerminal(owner: owner)
            throw error
        }
        do {
            try Descriptor.writeAll(Self.enterSequence(for: options), to: outputFD)
        } catch {
            tcsetattr(inputFD, TCSADRAIN, &original)
            ProcessSignals.disarmTerminal(owner: owner)
            throw error
        }
        isActive = true
    }

    /// The raw-mode settings this session entered, for coming back after a stop.
    private let rawSettings: termios

    /// This session's name in `ProcessSignals`.
    private var owner: Int { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self))) }

    deinit { restore() }

    /// Writes `restoreSequence`, puts the original terminal settings back
    /// once that output has drained (TCSADRAIN, so no byte is written in raw
    /// mode and then re-translated, and none is lost), then discards input
    /// not yet read (mouse reports in flight) so it cannot spill into the
    /// shell. The terminal is no longer recorded for signals afterwards.
    /// Safe to call more than once; best effort, as the terminal may
    /// already be gone.
    package func restore() {
        guard isActive else { return }
        isActive = false
        leave()
    }

    /// Job control (Ctrl-Z, SIGTSTP): gives the terminal back as `restore`
    /// does (main screen, mouse off, cooked), stops the process, and once
    /// it is continued takes the terminal again (`resume`). The caller
    /// redraws afterwards: the screen is whatever the shell left.
    package func suspendUntilContinued() {
        guard isActive else { return }
        leave()
        ProcessSignals.stopProcess()
        resume()
    }

    /// Lends the terminal to another program (the key handler): given back
    /// as `restore` does (main screen, mouse off, cooked), `body` run, then
    /// taken again as after a stop. The caller redraws afterwards.
    package func lend<T>(_ body: () -> T) -> T {
        guard isActive else { return body() }
        leave()
        let result = body()
        resume()
        return result
    }

    /// Raw mode and the enter sequence again, as after `init`: after a stop,
    /// or a SIGCONT that follows a SIGSTOP no handler saw. Nothing is
    /// probed again.
    package func resume() {
        ProcessSignals.armTerminal(
            owner: owner, inputFD: inputFD, outputFD: outputFD, original: originalSettings, raw: rawSettings,
            restoreBytes: Self.restoreSequence(for: options), enterBytes: Self.enterSequence(for: options))
        var raw = rawSettings
        tcsetattr(inputFD, TCSADRAIN, &raw)
        try? Descriptor.writeAll(Self.enterSequence(for: options), to: outputFD)
        isActive = true
    }

    private func leave() {
        ProcessSignals.disarmTerminal(owner: owner)
        let bytes = Self.restoreSequence(for: options)
        if !bytes.isEmpty { try? Descriptor.writeAll(bytes, to: outputFD) }
        var original = originalSettings
        tcsetattr(inputFD, TCSADRAIN, &original)
        tcflush(inputFD, TCIFLUSH)
    }
}
