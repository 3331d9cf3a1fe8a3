import ControlSequences
import Pixels
import TestSupport
import Testing

@testable import Plumbing
@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

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
        #expect(throws: TerminalError(call: .tcgetattr, code: ENOTTY)) {
            _ = try TerminalSession(inputFD: fds[0], outputFD: fds[1])
        }
        #expect(
            TerminalError(call: .tcgetattr, code: ENOTTY).description
                == "tcgetattr failed: Inappropriate ioctl for device")
    }

    @Test func windowSizeComesFromTheKernel() throws {
        let pty = try PseudoTerminal()
        pty.setWindowSize(rows: 35, columns: 100, width: 904, height: 669)
        #expect(
            windowSize(fd: pty.slave)
                == WindowSize(
                    cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)))
        pty.setWindowSize(rows: 24, columns: 80, width: 0, height: 0)
        #expect(windowSize(fd: pty.slave) == WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil))
        // A broken terminal's 65535x65535 cells are capped like --cells.
        pty.setWindowSize(rows: 65535, columns: 65535, width: 0, height: 0)
        #expect(windowSize(fd: pty.slave) == WindowSize(cells: CellCount(width: 2048, height: 2048), pixels: nil))
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

/// Signal handlers are process-wide, so these tests run one at a time. No
/// test raises a signal that would end or stop the test process itself:
/// those paths run in a forked child (only async-signal-safe calls there).
@Suite(.serialized) struct ProcessSignalsTests {
    private func currentHandler(_ signal: Int32) -> UnsafeRawPointer? {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self)
    }

    /// A child that raises `signal` with it unblocked; the parent waits.
    /// Returns the wait status.
    /// (Taking turns with tests that change dispositions: the child
    /// inherits them.)
    private func forkRaising(_ signal: Int32, before: () -> Void = {}) -> Int32 {
        SignalDispositions.exclusively { forkRaisingNow(signal, before: before) }
    }

    private func forkRaisingNow(_ signal: Int32, before: () -> Void) -> Int32 {
        let child = fork()
        if child == 0 {
            // Only async-signal-safe calls in the child of a threaded
            // process; it inherited this worker thread's mask.
            ProcessSignals.storage.pipeFD.store(-1, ordering: .releasing)
            before()
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signal)
            sigprocmask(SIG_UNBLOCK, &set, nil)
            raise(signal)
            _exit(99)
        }
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        return status
    }

    @Test func handlersAreInstalledOnceAndStay() throws {
        try SignalDispositions.exclusively { try handlersStay() }
    }

    private func handlersStay() throws {
        ProcessSignals.install()
        let installed = [SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH, SIGSEGV].map(currentHandler)
        for handler in installed { #expect(handler != nil) }
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        #expect(ProcessSignals.terminalArmed)
        session.restore()
        #expect(!ProcessSignals.terminalArmed)
        // Nothing replaces or removes them: every duty stays with one handler.
        ProcessSignals.install()
        #expect([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH, SIGSEGV].map(currentHandler) == installed)
    }

    @Test func resizeAndContinueGoThroughThePipe() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let pipe = try SignalPipe()
        raiseUnblocked(SIGWINCH)
        raiseUnblocked(SIGCONT)
        #expect(pipe.takeSignals() == [SIGWINCH, SIGCONT])
        #expect(pipe.takeSignals().isEmpty)
        // Reported, not acted on: the terminal is still in raw mode.
        #expect(pty.settings().c_lflag & tcflag_t(ICANON) == 0)
        #expect(pty.readFromMaster(quietMs: 20).isEmpty)
    }

    @Test func closedPipeIsNeverWrittenByALateSignal() throws {
        do {
            _ = try SignalPipe()
        }
        // The pipe is gone; SIGWINCH must be harmless (no write to a reused fd).
        #expect(ProcessSignals.storage.pipeFD.load(ordering: .acquiring) == -1)
        raiseUnblocked(SIGWINCH)
    }

    /// Skipped under ThreadSanitizer (here and below): it wraps signal
    /// handlers and defers their delivery, and in the child of a forked
    /// threaded process (which TSan does not support) the deferred signal
    /// never arrives. ASan and plain runs check it.
    @Test(.disabled(if: runningUnderThreadSanitizer, "ThreadSanitizer defers signals in forked children"))
    func terminationRestoresTheTerminalThenDiesBySignal() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave)
        _ = pty.readFromMaster()
        let status = forkRaising(SIGTERM)
        #expect(status & 0x7F == SIGTERM, "child died of SIGTERM (status \(status))")
        // ST first: a picture cut in half must not swallow the rest.
        #expect(pty.readFromMaster() == TerminalCommand.stringTerminator + TerminalSession.restoreSequence)
        #expect(sameSettings(pty.settings(), original))
        session.restore()
    }

    @Test(.disabled(if: runningUnderThreadSanitizer, "ThreadSanitizer defers signals in forked children"))
    func crashRestoresTheTerminalThenChains() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave)
        _ = pty.readFromMaster()
        // The handler that was there before gets the signal: here (set in
        // the child, the test harness having its own) the default action.
        let status = forkRaising(SIGQUIT) {
            var defaultAction = sigaction()
            defaultAction.__sigaction_handler.sa_handler = SIG_DFL
            ProcessSignals.storage.previous[Int(SIGQUIT)] = defaultAction
            ProcessSignals.storage.hasPrevious[Int(SIGQUIT)] = true
        }
        #expect(status & 0x7F == SIGQUIT, "child died of SIGQUIT (status \(status))")
        #expect(pty.readFromMaster() == TerminalCommand.stringTerminator + TerminalSession.restoreSequence)
        #expect(sameSettings(pty.settings(), original))
        session.restore()
    }

    @Test(.disabled(if: runningUnderThreadSanitizer, "ThreadSanitizer defers signals in forked children"))
    func terminationRemovesRegisteredFiles() throws {
        let path = "/tmp/pxview-signal-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        close(fd)
        let removal = try #require(ProcessSignals.removeOnExit(path))
        defer {
            ProcessSignals.forget(removal)
            unlink(path)
        }
        let status = forkRaising(SIGHUP)
        #expect(status & 0x7F == SIGHUP)
        #expect(access(path, F_OK) != 0, "the child removed the registered file")
    }

    @Test func removalsAreRegisteredAndForgotten() throws {
        let before = ProcessSignals.registeredRemovals
        let first = try #require(ProcessSignals.removeOnExit("/tmp/pxview-a"))
        let second = try #require(ProcessSignals.removeOnExit("/tmp/pxview-b"))
        #expect(first != second)
        #expect(ProcessSignals.registeredRemovals == before + 2)
        ProcessSignals.forget(first)
        ProcessSignals.forget(path: "/tmp/pxview-b")
        #expect(ProcessSignals.registeredRemovals == before)
        #expect(ProcessSignals.removeOnExit([UInt8](repeating: 0x61, count: 5000)) == nil)
        #expect(ProcessSignals.removeOnExit(Array("a\0b".utf8)) == nil)
    }

    /// SIGTSTP with no loop listening: the handler gives the terminal back
    /// (restore bytes, cooked settings), the process stops; SIGCONT brings
    /// raw mode and the screen's modes back.
    @Test(.disabled(if: runningUnderThreadSanitizer, "ThreadSanitizer defers signals in forked children"))
    func stopGivesTheTerminalBackAndContinueTakesItAgain() throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave)
        let entered = pty.readFromMaster()
        let raw = pty.settings()
        let child = fork()
        if child == 0 {
            // Its own process group, with a parent outside it: never an
            // orphaned group, whose stop signals the kernel would discard.
            setpgid(0, 0)
            ProcessSignals.storage.pipeFD.store(-1, ordering: .releasing)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTSTP)
            sigaddset(&set, SIGCONT)
            sigprocmask(SIG_UNBLOCK, &set, nil)
            raise(SIGTSTP)
            // Continued: the handler has taken the terminal again.
            _exit(0)
        }
        var status: Int32 = 0
        _ = waitpid(child, &status, WUNTRACED)
        #expect(status & 0xFF == 0x7F && (status >> 8) & 0xFF == SIGTSTP, "child stopped (status \(status))")
        #expect(pty.readFromMaster() == TerminalCommand.stringTerminator + TerminalSession.restoreSequence)
        #expect(sameSettings(pty.settings(), original))
        kill(child, SIGCONT)
        _ = waitpid(child, &status, 0)
        #expect(status == 0)
        #expect(pty.readFromMaster() == entered)
        #expect(sameSettings(pty.settings(), raw))
        session.restore()
    }
}

/// True when ThreadSanitizer's runtime is linked in.
let runningUnderThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
