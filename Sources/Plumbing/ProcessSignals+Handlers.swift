import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The handlers themselves and the pieces they call: async-signal-safe
/// only (no allocation, no locks, no Swift runtime calls that may take one).
extension ProcessSignals {
    // MARK: Handlers (async-signal-safe only)

    static let onTermination: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        let state = storage
        let first = state.termination.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing)
            .exchanged
        if first {
            let pipe = state.pipeFD.load(ordering: .acquiring)
            if pipe >= 0 {
                report(signal, to: pipe)
                alarm(gracefulSeconds)
                errno = savedErrno
                return
            }
            if state.drawing.load(ordering: .acquiring) == 1 {
                alarm(gracefulSeconds)
                errno = savedErrno
                return
            }
        }
        exitNow(signal: signal)
    }

    /// Nothing: its arrival interrupts a blocked write(2) (`cutOffWriter`).
    static let onInterrupt: @convention(c) (Int32) -> Void = { _ in }

    /// The graceful time is up.
    static let onAlarm: @convention(c) (Int32) -> Void = { _ in
        let signal = storage.termination.load(ordering: .acquiring)
        if signal != 0 { exitNow(signal: signal) }
    }

    static let onStop: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        let state = storage
        let pipe = state.pipeFD.load(ordering: .acquiring)
        if pipe >= 0 {
            report(signal, to: pipe)
            errno = savedErrno
            return
        }
        let wasArmed = restoreTerminal()
        stopProcess()
        if wasArmed {
            tcsetattr(state.inputFD.load(ordering: .relaxed), TCSANOW, state.raw)
            writeWithinBudget(state.enterBytes, fd: state.outputFD.load(ordering: .relaxed), reopen: state.outputPath)
            state.terminalArmed.store(1, ordering: .releasing)
        }
        errno = savedErrno
    }

    static let onContinue: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        let state = storage
        let pipe = state.pipeFD.load(ordering: .acquiring)
        if pipe >= 0 {
            report(signal, to: pipe)
        } else if state.terminalArmed.load(ordering: .acquiring) == 1 {
            // Stopped by SIGSTOP, which no handler sees: the shell may have
            // put its own settings back meanwhile.
            tcsetattr(state.inputFD.load(ordering: .relaxed), TCSANOW, state.raw)
        }
        errno = savedErrno
    }

    static let onReport: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        let pipe = storage.pipeFD.load(ordering: .acquiring)
        if pipe >= 0 { report(signal, to: pipe) }
        errno = savedErrno
    }

    /// Restores, then hands the signal to the handler that was there
    /// before (delivered as soon as this one returns, since it is blocked
    /// while this one runs).
    static let onFatal: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        endOutput()
        removeRegistered()
        let state = storage
        if signal > 0, signal < Int32(Storage.signalSlots), state.hasPrevious[Int(signal)] {
            sigaction(signal, state.previous + Int(signal), nil)
        } else {
            var defaultAction = sigaction()
            defaultAction.__sigaction_handler.sa_handler = SIG_DFL
            sigaction(signal, &defaultAction, nil)
        }
        errno = savedErrno
        raise(signal)
    }

    // MARK: Handler pieces (async-signal-safe only)

    static func report(_ signal: Int32, to pipe: Int32) {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(pipe, &byte, 1)
    }

    /// Puts the recorded terminal back: the restore bytes, then the
    /// original settings (TCSANOW: never wait on a terminal that may have
    /// stopped reading). False when no terminal was recorded.
    @discardableResult
    static func restoreTerminal() -> Bool {
        let state = storage
        guard state.terminalArmed.exchange(0, ordering: .acquiringAndReleasing) == 1 else { return false }
        let output = state.outputFD.load(ordering: .relaxed)
        writeWithinBudget(state.restoreBytes, fd: output, reopen: state.outputPath)
        tcsetattr(state.inputFD.load(ordering: .relaxed), TCSANOW, state.original)
        return true
    }

    /// The process is ending: a picture `OutputGuard` was writing is
    /// closed and the recorded terminal put back, whatever the terminal
    /// does. A terminal that stopped reading has a full queue, and bytes
    /// behind it were lost (it came back inside a sixel, on the alternate
    /// screen, mouse reporting on). So: pxview's own writer is cut off (its
    /// descriptor becomes /dev/null, a write(2) blocked on it interrupted),
    /// what is queued for the terminal thrown away (all of it when the
    /// terminal is pxview's; a preview's only when no byte but its own can
    /// be queued, and nothing written when none of them got out), then the
    /// closing and restore bytes, which now fit. One caller does this; any
    /// other waits for it (a bounded while), so the process never ends
    /// half-way through.
    static func endOutput() {
        let state = storage
        guard state.ending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            waitForEnding()
            return
        }
        defer { state.ending.store(2, ordering: .releasing) }
        let drawing = state.drawing.exchange(0, ordering: .acquiringAndReleasing) == 1
        let armed = state.terminalArmed.exchange(0, ordering: .acquiringAndReleasing) == 1
        guard drawing || armed else { return }
        // Settings first: the input may be the very descriptor cut off below (one /dev/tty for both).
        if armed { tcsetattr(state.inputFD.load(ordering: .relaxed), TCSANOW, state.original) }
        let fd = drawing ? state.drawFD.load(ordering: .relaxed) : state.outputFD.load(ordering: .relaxed)
        let path = drawing ? state.drawPath : state.outputPath
        var target = fd
        var opened: Int32 = -1
        var closes = drawing
        if isatty(fd) == 1 {
            opened = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if opened >= 0 {
                target = opened
                cutOffWriter(fd: fd)
                let owns = armed || state.drawOwnsTerminal.load(ordering: .acquiring) == 1
                var queued: Int32 = 0
                let drawn = state.drawnBytes.load(ordering: .acquiring)
                if owns {
                    tcflush(opened, TCOFLUSH)
                } else if ioctl(opened, UInt(TIOCOUTQ), &queued) == 0, Int(queued) <= drawn {
                    // (A pty's queue always reads 0: its bytes are already the other side's.)
                    tcflush(opened, TCOFLUSH)
                    if drawn == 0 { closes = false }
                }
            }
        }
        if closes {
            if opened >= 0 {
                writeAllWithinBudget(state.closingBytes, to: target)
            } else {
                writeWithinBudget(state.closingBytes, fd: fd, reopen: path)
            }
        }
        if armed {
            let output = state.outputFD.load(ordering: .relaxed)
            if opened >= 0, output == fd {
                writeAllWithinBudget(state.restoreBytes, to: target)
            } else {
                writeWithinBudget(state.restoreBytes, fd: output, reopen: state.outputPath)
            }
        }
        if opened >= 0 { close(opened) }
    }

    /// pxview's writer stops reaching the terminal: `fd` becomes /dev/null
    /// and the writer thread, if not this one, is interrupted (SIGURG, no
    /// SA_RESTART), so a write(2) blocked on a full queue returns and any
    /// retry lands in /dev/null.
    static func cutOffWriter(fd: Int32) {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, fd)
            close(null)
        }
        let writer = storage.writerThread.load(ordering: .acquiring)
        if writer != 0, writer != UInt(pthread_self()) {
            _ = pthread_kill(pthread_t(writer), SIGURG)
            // Long enough for the interrupted write to return (measured: well under 1 ms).
            _ = poll(nil, 0, 20)
        }
    }

    static func removeRegistered() {
        for slot in storage.slots where slot.state.load(ordering: .acquiring) == 2 {
            unlink(slot.path)
            slot.state.store(0, ordering: .releasing)
        }
    }

    /// Returns once an `endOutput` under way on another thread is done (a
    /// bounded while): the process must not end half-way through it (the
    /// main thread, its write cut short, reached `exit` and killed the
    /// handler's thread before the restore bytes were written).
    static func waitForEnding() {
        let deadline = MonotonicClock.milliseconds() + 2 * restoreBudgetMilliseconds
        while storage.ending.load(ordering: .acquiring) == 1, MonotonicClock.milliseconds() < deadline { _ = poll(nil, 0, 5) }
    }

    static func die(_ signal: Int32) -> Never {
        waitForEnding()
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        sigaction(signal, &defaultAction, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        raise(signal)
        _exit(128 + signal)
    }

    /// Writes `buffer` to `fd`, waiting on a full non-blocking one for at
    /// most `restoreBudgetMilliseconds`.
    static func writeAllWithinBudget(_ buffer: ByteBuffer, to fd: Int32) {
        let count = buffer.count.load(ordering: .acquiring)
        let deadline = MonotonicClock.milliseconds() + restoreBudgetMilliseconds
        var offset = 0
        while offset < count {
            let written = write(fd, buffer.bytes + offset, count - offset)
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && errno == EINTR { continue }
            guard written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { break }
            let remaining = deadline - MonotonicClock.milliseconds()
            guard remaining > 0 else { break }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, Int32(remaining))
        }
    }

    /// Writes `buffer` to `fd` without ever blocking for long: a terminal is
    /// reopened non-blocking through `/proc/self/fd` (its own open file, so
    /// the shell's stays blocking), and a full one is waited on for at most
    /// `restoreBudgetMilliseconds`.
    static func writeWithinBudget(_ buffer: ByteBuffer, fd: Int32, reopen: UnsafeMutablePointer<CChar>) {
        let count = buffer.count.load(ordering: .acquiring)
        guard count > 0, fd >= 0 else { return }
        var target = fd
        var opened: Int32 = -1
        if isatty(fd) == 1 {
            opened = open(reopen, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if opened >= 0 { target = opened }
        } else {
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        writeAllWithinBudget(buffer, to: target)
        if opened >= 0 { close(opened) }
    }

    // MARK: Setup helpers (not called from handlers)

    static func copy(_ bytes: [UInt8], into buffer: ByteBuffer, capacity: Int) {
        let count = min(bytes.count, capacity)
        buffer.count.store(0, ordering: .releasing)
        for index in 0..<count { buffer.bytes[index] = bytes[index] }
        buffer.count.store(count, ordering: .releasing)
    }

    static func setPath(_ pointer: UnsafeMutablePointer<CChar>, fd: Int32) {
        let path = Array("/proc/self/fd/\(fd)".utf8)
        for (index, byte) in path.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[path.count] = 0
    }
}
