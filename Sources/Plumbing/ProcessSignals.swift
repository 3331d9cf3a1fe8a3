import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one signal story of the process. Every signal pxview cares about
/// has exactly one handler, installed once at start (`install()`), and
/// that handler knows every duty a signal can bring: put the terminal back,
/// close a picture cut in half, remove temporary files and shared-memory
/// objects, tell the event loop. Handlers are never replaced by a later
/// caller, so no duty is ever forgotten (a save's temporary-file handler
/// once replaced the terminal's and left the terminal raw on SIGTERM).
///
/// - SIGTERM, SIGHUP, SIGINT: when an event loop listens (`reportingPipe`),
///   it is told and gets `gracefulSeconds` to end on its own; while a
///   one-shot drawing is being written (`OutputGuard`), the writer stops
///   between slices. Either way an alarm then ends the process, so a
///   terminal that stopped reading (a stalled link) cannot keep it alive.
///   With nobody to end gracefully, or on a second request, the process
///   ends at once (`exitNow`): the open picture closed, the terminal
///   restored, registered files removed, then the signal delivered again
///   with its default action, so a shell sees "killed by SIGINT" and a
///   script loop stops too.
/// - Ctrl-C typed in raw mode is a byte, not SIGINT: the loop asks for the
///   same end (`requestTermination(SIGINT)`, with the same alarm), so the
///   shell sees 130 there too.
/// - SIGTSTP (and, from raw mode, the Ctrl-Z byte, which the loop turns
///   into `stopProcess()`): the terminal is restored, the process stops,
///   and on SIGCONT raw mode and the screen's modes come back. A listening
///   loop does this itself (it also redraws); otherwise the handler does it.
/// - SIGCONT, SIGWINCH: told to the listening loop.
/// - SIGSEGV and the other crash signals: the terminal restored, files
///   removed, then the signal handed to whatever handled it before (the
///   Swift backtracer, or the default action).
///
/// Signals ignored when pxview started (`nohup`, a background job of a
/// non-interactive shell) stay ignored.
///
/// A handler may only touch memory that exists whatever happens and only
/// make async-signal-safe calls (write, open, poll, tcsetattr, sigaction,
/// unlink, raise, alarm, _exit). So everything it needs lives in one
/// `Storage` made once for the whole process: pxview's only global mutable
/// state, there because a signal handler can reach nothing else.
package enum ProcessSignals {
    /// Requests to stop.
    package static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]
    /// After these the process must not go on.
    package static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT]
    /// Told to a listening loop, nothing more.
    static let reportedSignals: [Int32] = [SIGWINCH, SIGCONT]

    /// How long a listening loop or a sliced drawing has to end by itself
    /// once asked: the viewer's own teardown takes milliseconds, so this
    /// only ever runs out when a write to the terminal is stuck.
    static let gracefulSeconds: UInt32 = 1
    /// How long the last restore waits for a terminal that reads slowly
    /// (an SSH link) before giving up on it: with `gracefulSeconds`, a
    /// stop request ends the process within about 2 s, whatever the terminal does.
    static let restoreBudgetMilliseconds = 1000
    /// Files and objects that can be registered for removal at once: a
    /// save's temporary file, the probe's two objects, and the kitty
    /// objects of one frame of grid tiles (12 uploads at 80x24, more on a
    /// big window; beyond the slots an object is still removed normally
    /// and swept by the next run).
    static let removalSlots = 64
    static let pathCapacity = 4096
    static let bytesCapacity = 512

    // MARK: Storage

    /// A fixed buffer of bytes a handler may write.
    final class ByteBuffer: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let count = Atomic<Int>(0)

        init(capacity: Int) {
            bytes = .allocate(capacity: capacity)
            bytes.initialize(repeating: 0, count: capacity)
        }
    }

    /// One file to remove if the process ends: `state` 0 free, 1 being
    /// filled, 2 a path to unlink. The path is written while the state is
    /// 1 and published with a releasing store, so a handler on another
    /// core never reads half a path.
    final class RemovalSlot: @unchecked Sendable {
        let state = Atomic<Int32>(0)
        let path: UnsafeMutablePointer<CChar>

        init() {
            path = .allocate(capacity: pathCapacity + 1)
            path.initialize(repeating: 0, count: pathCapacity + 1)
        }
    }

    final class Storage: @unchecked Sendable {
        let installed = Atomic<Int32>(0)
        /// The first termination signal received, 0 if none.
        let termination = Atomic<Int32>(0)
        /// The listening loop's wake-up pipe, -1 when none.
        let pipeFD = Atomic<Int32>(-1)
        /// 1 while `OutputGuard` draws to `drawFD`.
        let drawing = Atomic<Int32>(0)
        let drawFD = Atomic<Int32>(1)
        let drawPath: UnsafeMutablePointer<CChar>
        let closingBytes = ByteBuffer(capacity: 64)
        /// 1: pxview is the terminal's program (`show --once`), so whatever
        /// is queued for it is pxview's; 0: a preview inside a host's screen.
        let drawOwnsTerminal = Atomic<Int32>(1)
        /// Bytes of the current drawing written so far (`drew`).
        let drawnBytes = Atomic<Int>(0)
        /// The thread that writes to the terminal (the loop's, or the
        /// drawing's): its write(2), blocked on a terminal that stopped
        /// reading, is cut short before the queue is thrown away, or it
        /// would fill the queue again ahead of the closing bytes.
        let writerThread = Atomic<UInt>(0)
        /// 0, then 1 while the terminal's output is being ended, 2 once done.
        let ending = Atomic<Int32>(0)

        /// The terminal to put back: 1 while armed.
        let terminalArmed = Atomic<Int32>(0)
        let terminalOwner = Atomic<Int>(0)
        let inputFD = Atomic<Int32>(-1)
        let outputFD = Atomic<Int32>(-1)
        /// `/proc/self/fd/N` of the output: reopened non-blocking by a
        /// handler, so a terminal that stopped reading cannot block it.
        let outputPath: UnsafeMutablePointer<CChar>
        let original: UnsafeMutablePointer<termios>
        let raw: UnsafeMutablePointer<termios>
        let restoreBytes = ByteBuffer(capacity: bytesCapacity)
        let enterBytes = ByteBuffer(capacity: bytesCapacity)

        let slots: [RemovalSlot]

        /// Indexed by signal number: the action that was there before, for crash signals.
        let previous: UnsafeMutablePointer<sigaction>
        let hasPrevious: UnsafeMutablePointer<Bool>

        static let signalSlots = 65

        init() {
            func cString(_ capacity: Int) -> UnsafeMutablePointer<CChar> {
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
                pointer.initialize(repeating: 0, count: capacity)
                return pointer
            }
            drawPath = cString(64)
            outputPath = cString(64)
            original = .allocate(capacity: 1)
            original.initialize(to: termios())
            raw = .allocate(capacity: 1)
            raw.initialize(to: termios())
            slots = (0..<ProcessSignals.removalSlots).map { _ in RemovalSlot() }
            previous = .allocate(capacity: Self.signalSlots)
            previous.initialize(repeating: sigaction(), count: Self.signalSlots)
            hasPrevious = .allocate(capacity: Self.signalSlots)
            hasPrevious.initialize(repeating: false, count: Self.signalSlots)
        }
    }

    static let storage = Storage()

    // MARK: Installing

    /// Installs every handler, once; later calls do nothing. Call first
    /// thing in `main`, and from anything that needs the handlers (a
    /// terminal session, a guarded drawing), so none works without them.
    package static func install() {
        let state = storage
        guard state.installed.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
        else { return }
        ProcessSignals.setPath(state.drawPath, fd: 1)
        let closing: [UInt8] = [0x1B, 0x5C, 0x1B, 0x5B, 0x30, 0x6D, 0x0D, 0x0A]  // ST, SGR 0, CR LF
        copy(closing, into: state.closingBytes, capacity: 64)
        for signal in terminationSignals {
            setHandler(onTermination, for: signal, restart: false, keepIgnored: true)
        }
        setHandler(onAlarm, for: SIGALRM, restart: true, keepIgnored: false)
        // Only to cut a blocked write(2) short (`endOutput`): no SA_RESTART.
        setHandler(onInterrupt, for: SIGURG, restart: false, keepIgnored: false)
        setHandler(onStop, for: SIGTSTP, restart: true, keepIgnored: true)
        setHandler(onReport, for: SIGWINCH, restart: true, keepIgnored: false)
        setHandler(onContinue, for: SIGCONT, restart: true, keepIgnored: false)
        for signal in fatalSignals {
            setHandler(onFatal, for: signal, restart: true, keepIgnored: false, savePrevious: true)
        }
    }

    /// The signals a handler blocks while it runs: the ones that share its state.
    static func blockedWhileHandling() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in terminationSignals + reportedSignals + [SIGTSTP, SIGALRM] { sigaddset(&set, signal) }
        return set
    }

    static func setHandler(
        _ handler: @convention(c) (Int32) -> Void, for signal: Int32, restart: Bool, keepIgnored: Bool,
        savePrevious: Bool = false
    ) {
        var current = sigaction()
        sigaction(signal, nil, &current)
        if keepIgnored, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { return }  // SIG_IGN
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_mask = blockedWhileHandling()
        action.sa_flags = restart ? SA_RESTART : 0
        var previous = sigaction()
        guard sigaction(signal, &action, &previous) == 0 else { return }
        if savePrevious {
            storage.previous[Int(signal)] = previous
            storage.hasPrevious[Int(signal)] = true
        }
    }

    // MARK: The terminal

    /// Records the terminal to put back should the process end or stop:
    /// `original` settings and `restoreBytes` to leave, `raw` settings and
    /// `enterBytes` to come back after a stop. Called before the terminal
    /// leaves cooked mode, so no signal finds it raw and unrecorded.
    /// `owner` names the session; the last to arm wins.
    package static func armTerminal(
        owner: Int, inputFD: Int32, outputFD: Int32, original: termios, raw: termios, restoreBytes: [UInt8],
        enterBytes: [UInt8]
    ) {
        install()
        let state = storage
        state.terminalArmed.store(0, ordering: .releasing)
        state.inputFD.store(inputFD, ordering: .relaxed)
        state.outputFD.store(outputFD, ordering: .relaxed)
        setPath(state.outputPath, fd: outputFD)
        state.original.pointee = original
        state.raw.pointee = raw
        // A picture cut in half would swallow what follows: ST ends it first.
        copy(restoreBytes.isEmpty ? [] : [0x1B, 0x5C] + restoreBytes, into: state.restoreBytes, capacity: bytesCapacity)
        copy(enterBytes, into: state.enterBytes, capacity: bytesCapacity)
        state.terminalOwner.store(owner, ordering: .relaxed)
        registerWriter()
        state.terminalArmed.store(1, ordering: .releasing)
    }

    /// The terminal is back to normal (or was never changed): nothing to restore.
    package static func disarmTerminal(owner: Int) {
        let state = storage
        guard state.terminalOwner.load(ordering: .relaxed) == owner else { return }
        state.terminalArmed.store(0, ordering: .releasing)
        state.terminalOwner.store(0, ordering: .relaxed)
    }

    /// True while a terminal is recorded for restoring.
    package static var terminalArmed: Bool { storage.terminalArmed.load(ordering: .acquiring) == 1 }

    // MARK: The listening loop

    /// The event loop's wake-up pipe: termination requests, SIGTSTP,
    /// SIGCONT and SIGWINCH are written to it as one byte each (the signal
    /// number) instead of being acted on in the handler.
    package static func setReportingPipe(_ writeFD: Int32) {
        install()
        storage.pipeFD.store(writeFD, ordering: .releasing)
    }

    /// A closing pipe must not be written to by a late signal.
    package static func clearReportingPipe(_ writeFD: Int32) {
        _ = storage.pipeFD.compareExchange(expected: writeFD, desired: -1, ordering: .acquiringAndReleasing)
    }

    /// Ctrl-C typed in raw mode (a key, not a signal): the process ends as
    /// if `signal` had come, once the terminal is put back (`exit`), so
    /// the shell sees 130 and a loop over pxview stops. No-op when a
    /// termination signal came first.
    package static func requestTermination(_ signal: Int32) {
        install()
        guard storage.termination.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged
        else { return }
        // As for the signal itself: a terminal that no longer reads cannot
        // keep the process from ending.
        alarm(gracefulSeconds)
    }

    /// The first termination signal received, if any: the process is ending.
    package static var terminationRequested: Int32? {
        let signal = storage.termination.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    // MARK: Drawing

    /// `OutputGuard` is writing a picture to `fd`: a stop request is then
    /// honoured between slices, and an end by alarm first closes it.
    package static func beginDrawing(fd: Int32) {
        install()
        let state = storage
        if state.drawFD.load(ordering: .relaxed) != fd {
            state.drawFD.store(fd, ordering: .relaxed)
            setPath(state.drawPath, fd: fd)
        }
        state.drawnBytes.store(0, ordering: .relaxed)
        registerWriter()
        state.drawing.store(1, ordering: .releasing)
    }

    /// The calling thread writes to the terminal: `endOutput` may have to
    /// interrupt it. Dispatch's worker threads block every signal, so
    /// SIGURG is unblocked here, on this thread only (a pthread_kill to a
    /// thread blocking it stays pending, and a write(2) blocked on a full
    /// terminal went on filling the queue as soon as it was emptied).
    static func registerWriter() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGURG)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        storage.writerThread.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// `count` more bytes of the drawing reached the terminal's queue.
    package static func drew(_ count: Int) {
        storage.drawnBytes.add(count, ordering: .releasing)
    }

    /// What ends a drawing cut short, and whose terminal it is: a preview
    /// (`ownsTerminal` false) ends with ST and `ESC 8` (its cursor put back
    /// inside the host's screen) and throws away only its own queued bytes.
    /// Call before drawing.
    package static func setDrawingClosing(_ bytes: [UInt8], ownsTerminal: Bool) {
        install()
        copy(bytes, into: storage.closingBytes, capacity: 64)
        storage.drawOwnsTerminal.store(ownsTerminal ? 1 : 0, ordering: .releasing)
    }

    package static func endDrawing() {
        storage.drawing.store(0, ordering: .releasing)
    }

    // MARK: Ending

    /// The normal end of `main`: registered files removed, then `exit(code)`;
    /// after a termination request, the signal is delivered again with its
    /// default action instead, as the shell expects of a process it stopped.
    package static func exit(_ code: Int32) -> Never {
        waitForEnding()
        removeRegistered()
        if let signal = terminationRequested { die(signal) }
        exitProcess(code)
    }

    /// Ends the process at once for `signal`: the drawing closed, the
    /// terminal restored, registered files removed, the signal delivered
    /// with its default action. Async-signal-safe.
    package static func exitNow(signal: Int32) -> Never {
        endOutput()
        removeRegistered()
        die(signal)
    }

    /// Stops the process as SIGTSTP's default action would, and returns
    /// once it is continued (SIGCONT); pxview's handler is back in place
    /// afterwards. The caller has restored the terminal first.
    /// Async-signal-safe.
    package static func stopProcess() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &defaultAction, &ours)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        sigaction(SIGTSTP, &ours, nil)
    }

}

/// libc's exit, under a name `ProcessSignals.exit` does not hide.
private func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
