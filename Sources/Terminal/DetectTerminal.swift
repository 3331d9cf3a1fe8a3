import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Why no query was sent to the terminal.
package enum ProbeSkip: String, Sendable, Equatable {
    /// Standard output is not a terminal.
    case notATerminal
    /// The caller asked for no probe (`--protocol` given, for instance).
    case notAsked
    /// pxview is not in the terminal's foreground process group (`pxview
    /// show x.jpg &`): the terminal's input belongs to the shell, so every
    /// reply would land at its prompt.
    case background
    /// Inside tmux, pxview's pane was not the active one: tmux hands the
    /// outer terminal's replies to the active pane, which would get them typed in.
    case paneNotActive
}

/// What the start-up look at the terminal found, and what it cost:
/// `pxview doctor` prints it whole, `PXVIEW_DEBUG` the gist.
package struct ProbeReport: Sendable {
    /// Nil when standard output is not a terminal.
    package var capabilities: TerminalCapabilities?
    package var multiplexer: Multiplexer
    /// pxview's pane, when a local tmux could be asked.
    package var tmuxPane: TmuxPaneState?
    /// The queries' answers and timing; nil when none were sent.
    package var outcome: ProbeOutcome?
    package var skipped: ProbeSkip?
    /// The limit the probe waited up to.
    package var timeoutMs: Int
    /// Where the capabilities came from when nothing was asked: an earlier
    /// probe on this terminal, tmux's name for it, the environment.
    package var knownFrom: String?

    package init(
        capabilities: TerminalCapabilities?, multiplexer: Multiplexer, tmuxPane: TmuxPaneState? = nil,
        outcome: ProbeOutcome? = nil, skipped: ProbeSkip? = nil, timeoutMs: Int = ProbeTiming.defaultTimeoutMs
    ) {
        self.capabilities = capabilities
        self.multiplexer = multiplexer
        self.tmuxPane = tmuxPane
        self.outcome = outcome
        self.skipped = skipped
        self.timeoutMs = timeoutMs
    }

    /// True when the terminal was asked and never answered.
    package var timedOut: Bool { outcome?.timedOut ?? false }
}

/// Finds out what the terminal on standard output can draw: its window
/// size (TIOCGWINSZ), the multiplexer in between and, when `probe` is true
/// and asking is safe, its replies to the capability queries. The probe
/// runs in raw mode on the controlling terminal (stdin when it is a
/// terminal, else `/dev/tty`), so no reply is echoed into the shell, and
/// the terminal settings are restored before returning. Keys typed during
/// the probe are discarded: a one-shot command has no use for them.
///
/// Asking is skipped when pxview is in the background (`tcgetpgrp`), and
/// inside a local tmux when its pane is not the active one (`Tmux`); the
/// cell size then comes from tmux or the kernel.
///
/// Inside tmux the queries go through passthrough when it is on (see
/// `ProbeQuery.bytes(for:)`), so they reach the real terminal and never
/// tmux's pane title. Without `$TMUX` a `TERM` of `tmux*` or `screen*`
/// (a shell over SSH from a tmux pane) asks tmux what it is first
/// (`ProbeQuery.remoteTmux`, `whoIsThere`).
///
/// `extraQueries` go out first (DA1 stays last): the kitty transfer-medium
/// queries, whose test objects the caller makes and removes.
///
/// `outputFD` is where the queries go and whose window is measured:
/// standard output, or for `pxview doctor` whose output is a file the
/// terminal itself (`/dev/tty`). `alreadyRaw`: the caller holds the
/// terminal in raw mode (a running explorer asking late): no session of
/// its own, which would take over what a signal restores.
package func detectTerminal(
    probe: Bool, environment: [String: String], timeoutMs: Int? = nil, outputFD: Int32 = 1, alreadyRaw: Bool = false,
    runTmux: @escaping @Sendable ([String]) -> String? = Tmux.spawn, extraQueries: (Multiplexer) -> [UInt8] = { _ in [] }
) -> ProbeReport {
    let timeout = timeoutMs ?? ProbeTiming.timeoutMs(environment: environment)
    let tmux = Tmux(environment: environment, run: runTmux)
    guard isatty(outputFD) == 1, let window = windowSize(fd: outputFD) else {
        // No pane to ask about: graphics asked for explicitly are wrapped
        // as they would have to be to show.
        let multiplexer = Multiplexer(tmux: tmux)
        return ProbeReport(capabilities: nil, multiplexer: multiplexer, skipped: .notATerminal, timeoutMs: timeout)
    }
    var multiplexer = Multiplexer(tmux: tmux)
    let pane = tmux?.paneState()
    var report = ProbeReport(
        capabilities: capabilities(from: ProbeReplies(), winsize: window, tmuxCell: pane?.cellSize),
        multiplexer: multiplexer, tmuxPane: pane, timeoutMs: timeout)
    guard probe else {
        report.skipped = .notAsked
        return report
    }
    guard let input = ControllingTerminal.input() else { return report }
    defer { input.close() }
    guard input.isForeground else {
        report.skipped = .background
        return report
    }
    if let pane, !(pane.paneActive && pane.windowActive) {
        // tmux learnt the outer terminal's name when it attached: kitty
        // is known to draw kitty graphics whoever asks.
        report.skipped = .paneNotActive
        report.capabilities?.terminalVersion = pane.clientTermType
        report.capabilities?.kittyGraphics =
            multiplexer.passthroughOn && pane.clientTermType.flatMap(TerminalIdentity.init(naming:))?.kind == .kitty
        return report
    }
    let hint = TmuxHint(environment: environment)
    do {
        let session = alreadyRaw ? nil : try TerminalSession(inputFD: input.fd, outputFD: outputFD, options: .rawModeOnly)
        defer { session?.restore() }
        var outcome: ProbeOutcome
        switch hint {
        case .none:
            outcome = try probeTerminal(
                inputFD: input.fd, outputFD: outputFD, timeoutMs: timeout,
                queries: extraQueries(multiplexer) + ProbeQuery.bytes(for: multiplexer))
        case .screenOrTmux, .tmux:
            if hint == .screenOrTmux {
                // GNU screen takes an APC for its status line: ask first.
                let who = try probeTerminal(
                    inputFD: input.fd, outputFD: outputFD, timeoutMs: timeout, queries: ProbeQuery.whoIsThere)
                guard who.replies.multiplexerVersion != nil else {
                    report.outcome = who
                    report.capabilities = capabilities(from: who.replies, winsize: window)
                    return report
                }
            }
            outcome = try probeTerminal(
                inputFD: input.fd, outputFD: outputFD, timeoutMs: timeout, queries: ProbeQuery.remoteTmux,
                expectedAnswers: 2)
            if outcome.replies.multiplexerVersion != nil {
                multiplexer = .remoteTmux(passthrough: outcome.replies.deviceAttributeReplies >= 2)
                // An answer with passthrough off is tmux's own DA1 alone: no graphics.
                if multiplexer.blocksGraphics { outcome.timedOut = false }
            }
        }
        report.multiplexer = multiplexer
        report.outcome = outcome
        report.capabilities = capabilities(from: outcome.replies, winsize: window, tmuxCell: pane?.cellSize)
    } catch {
        return report
    }
    return report
}

/// What the terminal on `ttyFD` can draw without asking it anything: for a
/// previewer (`show --place`, `clear`) writing to a terminal another program
/// reads, and for a run whose standard input is not the terminal. In order:
/// what an earlier pxview's probe on the same terminal found
/// (`TerminalMemory`), inside tmux tmux's name for the outer terminal,
/// the environment (`TerminalGuess`), else nothing (text). The
/// window and cell size come from TIOCGWINSZ on `ttyFD`.
package func recallTerminal(
    environment: [String: String], ttyFD: Int32, memory: TerminalMemory,
    runTmux: @escaping @Sendable ([String]) -> String? = Tmux.spawn
) -> ProbeReport {
    let tmux = Tmux(environment: environment, run: runTmux)
    let localTmux: Multiplexer? = tmux.map { Multiplexer(tmux: $0) }
    let pane = tmux?.paneState()
    guard let window = windowSize(fd: ttyFD) else {
        return ProbeReport(capabilities: nil, multiplexer: localTmux ?? .none, skipped: .notATerminal)
    }
    if var remembered = memory.recalled(winsize: window, tmuxPane: pane) {
        if let localTmux { remembered.multiplexer = localTmux }
        remembered.tmuxPane = pane
        remembered.knownFrom = "an earlier probe of this terminal"
        return remembered
    }
    var report = ProbeReport(
        capabilities: capabilities(from: ProbeReplies(), winsize: window, tmuxCell: pane?.cellSize),
        multiplexer: localTmux ?? .none, tmuxPane: pane, skipped: .notAsked)
    if let type = pane?.clientTermType, localTmux?.passthroughOn == true {
        report.capabilities?.terminalVersion = type
        report.capabilities?.kittyGraphics = TerminalIdentity(naming: type)?.kind == .kitty
        report.knownFrom = "tmux (client_termtype \(type))"
    } else if let guess = TerminalGuess(environment: environment) {
        var guessed = guess.capabilities(winsize: window, cell: pane?.cellSize)
        guessed.cellSize = guessed.cellSize ?? report.capabilities?.cellSize
        report.capabilities = guessed
        report.knownFrom = "the environment (\(guess.reason))"
    } else {
        report.knownFrom = "nothing (no earlier probe, no telling variable)"
    }
    return report
}
