import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The self-pipe trick: signal handlers write the signal number as one byte
/// to a pipe, and the event loop polls `readFD` next to the terminal, so
/// SIGWINCH, SIGTERM, SIGTSTP and SIGCONT become ordinary events handled
/// outside the handler. While one exists, `ProcessSignals` reports to it
/// (the last one made) instead of acting itself; a termination request
/// still ends the process after `ProcessSignals.gracefulSeconds` if the
/// loop cannot.
package final class SignalPipe {
    /// Poll this for POLLIN together with the terminal input.
    package let readFD: Int32
    let writeFD: Int32

    package init() throws(TerminalError) {
        (readFD, writeFD) = try makeWakePipe()
        ProcessSignals.setReportingPipe(writeFD)
    }

    deinit {
        ProcessSignals.clearReportingPipe(writeFD)
        close(readFD)
        close(writeFD)
    }

    /// The signals reported since the last call, oldest first; empty when
    /// none. Never blocks.
    package func takeSignals() -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(readFD, into: $0) }
            guard count > 0 else { return signals }
            signals += buffer.prefix(count).map { Int32($0) }
        }
    }
}

/// A pipe whose two ends are non-blocking and close-on-exec: the shape of
/// every wake-up channel into a poll loop (signals, finished downloads).
/// Non-blocking because a writer (a signal handler) must never block on a
/// full pipe, and draining must stop when the pipe is empty.
package func makeWakePipe() throws(TerminalError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .last(.pipe) }
    for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    return (fds[0], fds[1])
}
