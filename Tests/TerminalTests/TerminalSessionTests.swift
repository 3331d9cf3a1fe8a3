import Glibc
import Pixels
import Plumbing
import Testing

@testable import Terminal

@Suite struct TerminalSessionTests {
    @Test func enterAndRestoreWriteExactBytesAndRestoreTermios() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        #expect(original.c_lflag & tcflag_t(ECHO | ICANON) != 0, "a fresh pty starts in cooked mode")

        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave)
        #expect(
            pty.readFromMaster() == Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h".utf8))
        let raw = pty.settings()
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(session.isActive)

        session.restore()
        #expect(pty.readFromMaster() == TerminalSession.restoreSequence)
        #expect(sameSettings(pty.settings(), original))
        #expect(!session.isActive)

        session.restore()
        #expect(pty.readFromMaster(quietMs: 20).isEmpty, "restore is idempotent")
    }

    @Test func restoreSequenceUndoesEveryMode() {
        let text = String(decoding: TerminalSession.restoreSequence, as: UTF8.self)
        #expect(
            text
                == "\u{1B}[?2026l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?1l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        )
        // Every mode any option sets ("h") is reset ("l") by the restore sequence.
        let all = TerminalSession.Options(applicationCursorKeys: true, focusEvents: true)
        let enter = String(decoding: TerminalSession.enterSequence(for: all), as: UTF8.self)
        for mode in enter.split(separator: "\u{1B}") {
            let reset = "\u{1B}" + mode.dropLast() + (mode.hasSuffix("25l") ? "h" : "l")
            #expect(text.contains(reset), "\(mode)")
        }
    }

    @Test func enterSequenceFollowsOptions() {
        #expect(TerminalSession.enterSequence(for: .rawModeOnly).isEmpty)
        let options = TerminalSession.Options(
            alternateScreen: false, hideCursor: true, mouse: false, bracketedPaste: false, applicationCursorKeys: true)
        #expect(TerminalSession.enterSequence(for: options) == Array("\u{1B}[?25l\u{1B}[?1h".utf8))
    }

    @Test func deinitRestores() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        do {
            _ = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        }
        // Raw mode only: the screen was never touched, so nothing is written
        // (xterm's ?1049l would move the cursor home).
        #expect(pty.readFromMaster() == [])
        #expect(sameSettings(pty.settings(), original))
    }

    @Test func restoreUndoesOnlyWhatWasEntered() {
        #expect(TerminalSession.restoreSequence(for: .rawModeOnly) == [])
        #expect(TerminalSession.restoreSequence(for: TerminalSession.Options()) == TerminalSession.restoreSequence)
        let mainScreen = TerminalSession.Options(alternateScreen: false, hideCursor: true, mouse: true)
        let bytes = String(decoding: TerminalSession.restoreSequence(for: mainScreen), as: UTF8.self)
        #expect(!bytes.contains("\u{1B}[?1049l"))
        #expect(bytes.hasSuffix("\u{1B}[?25h"))
    }

    @Test func restoreDiscardsUnreadInput() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        // A mouse report still in flight when the app quits...
        try Descriptor.writeAll(Array("\u{1B}[<35;1;1M".utf8), to: pty.master)
        usleep(10_000)
        session.restore()
        // ...must not reach the shell.
        var available: Int32 = 0
        _ = ioctl(pty.slave, UInt(FIONREAD), &available)
        #expect(available == 0)
    }

    @Test func notATerminalThrows() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(throws: TerminalError(operation: "tcgetattr", code: ENOTTY)) {
            _ = try TerminalSession(inputFD: fds[0], outputFD: fds[1])
        }
        #expect(
            TerminalError(operation: "tcgetattr", code: ENOTTY).description
                == "tcgetattr failed: Inappropriate ioctl for device")
    }

    @Test func windowSizeComesFromTheKernel() throws {
        let pty = try PseudoTerminal()
        pty.setWindowSize(rows: 35, columns: 100, width: 904, height: 669)
        #expect(
            windowSize(fd: pty.slave)
                == WindowSize(
                    cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)))
        pty.setWindowSize(rows: 24, columns: 80, width: 0, height: 0)
        #expect(windowSize(fd: pty.slave) == WindowSize(cells: PixelSize(width: 80, height: 24), pixels: nil))
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(windowSize(fd: fds[0]) == nil)
    }
}

/// Raises `signal` on this thread with it unblocked for the moment. Test
/// bodies run on Dispatch worker threads, which block every signal, so a
/// plain raise() would leave the signal pending instead of delivering it.
private func raiseUnblocked(_ signal: Int32) {
    var set = sigset_t()
    var previous = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, &previous)
    raise(signal)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// Signal handlers are process-wide, so these tests run one at a time.
@Suite(.serialized) struct EmergencyRestoreTests {
    private func currentHandler(_ signal: Int32) -> UnsafeRawPointer? {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self)
    }

    @Test func signalsGoThroughThePipeAndHandlersAreRemovedOnRestore() throws {
        let pty = try PseudoTerminal()
        let before = [SIGTERM, SIGWINCH, SIGILL, SIGSEGV].map(currentHandler)
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        let pipe = try SignalPipe()
        session.installEmergencyRestore(signalPipe: pipe)
        for (signal, handler) in zip([SIGTERM, SIGWINCH, SIGILL, SIGSEGV], before) {
            #expect(currentHandler(signal) != handler, "signal \(signal) has our handler")
        }

        raiseUnblocked(SIGWINCH)
        raiseUnblocked(SIGTERM)
        #expect(pipe.takeSignals() == [SIGWINCH, SIGTERM])
        #expect(pipe.takeSignals().isEmpty)
        // Reported, not acted on: the terminal is still in raw mode.
        #expect(pty.settings().c_lflag & tcflag_t(ICANON) == 0)
        #expect(pty.readFromMaster(quietMs: 20).isEmpty)

        session.restore()
        #expect([SIGTERM, SIGWINCH, SIGILL, SIGSEGV].map(currentHandler) == before)
    }

    /// Skipped under ThreadSanitizer: it wraps signal handlers and defers
    /// their delivery, and in the child of a forked threaded process (which
    /// TSan does not support) the deferred SIGTERM never arrives, so the
    /// child exits 99 untouched. ASan and plain runs check it.
    @Test(
        .disabled(
            if: runningUnderThreadSanitizer, "ThreadSanitizer defers signals and does not support fork from threaded processes"))
    func fatalSignalRestoresTheTerminalThenKills() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave)
        _ = pty.readFromMaster()
        // Without a pipe, SIGTERM takes the same path as a crash signal.
        session.installEmergencyRestore()

        let child = fork()
        if child == 0 {
            // Only async-signal-safe calls in the child of a threaded process;
            // it inherited this worker thread's mask, which blocks SIGTERM.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigprocmask(SIG_UNBLOCK, &set, nil)
            raise(SIGTERM)
            _exit(99)
        }
        #expect(child > 0)
        var status: Int32 = 0
        #expect(waitpid(child, &status, 0) == child)
        #expect(status & 0x7F == SIGTERM, "child died of SIGTERM (status \(status))")

        #expect(pty.readFromMaster() == TerminalSession.restoreSequence)
        #expect(sameSettings(pty.settings(), original))
        session.restore()
    }

    @Test func closedPipeIsNeverWrittenByALateSignal() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        do {
            let pipe = try SignalPipe()
            session.installEmergencyRestore(signalPipe: pipe)
        }
        // The pipe is gone; SIGWINCH must be harmless (no write to a reused fd).
        #expect(EmergencyRestore.storage.pipeWriteFD.pointee == -1)
        raiseUnblocked(SIGWINCH)
    }
}

/// True when ThreadSanitizer's runtime is linked in.
let runningUnderThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
