import Glibc

/// Finds out what the terminal on standard output can draw: its window size
/// (TIOCGWINSZ) and, when `probe` is true, its replies to the capability
/// queries. The probe runs in raw mode on the controlling terminal (stdin when
/// it is a terminal, else `/dev/tty`), so no reply is echoed into the shell,
/// and the terminal settings are restored before returning. Keys typed during
/// the probe are discarded: a one-shot command has no use for them.
///
/// Inside tmux the queries go through passthrough when it is on (see
/// `ProbeQuery.bytes(for:)`), so they reach the real terminal and never
/// tmux's pane title.
///
/// Returns nil when standard output is not a terminal.
///
/// `extraQueries` go out first (DA1 stays last): the kitty transfer-medium
/// queries, whose test objects the caller makes and removes.
public func detectTerminal(
    probe: Bool, multiplexer: Multiplexer = .none, timeoutMs: Int = 200, extraQueries: [UInt8] = []
) -> TerminalCapabilities? {
    guard isatty(1) == 1, let window = windowSize(fd: 1) else { return nil }
    guard probe else { return capabilities(from: ProbeReplies(), winsize: window) }
    var inputFD: Int32 = 0
    var openedTTY = false
    if isatty(0) != 1 {
        inputFD = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard inputFD >= 0 else { return capabilities(from: ProbeReplies(), winsize: window) }
        openedTTY = true
    }
    defer { if openedTTY { close(inputFD) } }
    do {
        let session = try TerminalSession(inputFD: inputFD, outputFD: 1, options: .rawModeOnly)
        defer { session.restore() }
        let (replies, _) = try probeTerminal(
            inputFD: inputFD, outputFD: 1, timeoutMs: timeoutMs,
            queries: extraQueries + ProbeQuery.bytes(for: multiplexer))
        return capabilities(from: replies, winsize: window)
    } catch {
        return capabilities(from: ProbeReplies(), winsize: window)
    }
}
