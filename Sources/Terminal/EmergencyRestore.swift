import Glibc

/// Signal handlers that put the terminal back when the process is killed or
/// crashes (see `TerminalSession.installEmergencyRestore`).
///
/// A signal handler may only touch memory that exists independently of any
/// object and may only make async-signal-safe calls (write, tcsetattr,
/// sigaction, raise). So everything a handler needs is copied, at install
/// time, into one buffer allocated once for the whole process. It is one of
/// the module's three pieces of process-global mutable state, with
/// `OutputGuard.state` and `TemporaryFileGuard.storage`, all there only
/// because signal handlers can reach nothing else.
enum EmergencyRestore {
    /// Signals after which the process must not go on: restore, then chain.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT]
    /// Requests to stop: graceful through the pipe when there is one.
    static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    /// Fixed-size, never freed: handlers may run at any moment until exit.
    struct Storage {
        /// 1 while a session wants restoring. A plain Int32 that handlers
        /// only read, written by install/disarm before/after handlers exist.
        let armed: UnsafeMutablePointer<Int32>
        let inputFD: UnsafeMutablePointer<Int32>
        let outputFD: UnsafeMutablePointer<Int32>
        /// -1 when no SignalPipe is registered.
        let pipeWriteFD: UnsafeMutablePointer<Int32>
        let settings: UnsafeMutablePointer<termios>
        let restoreBytes: UnsafeMutablePointer<UInt8>
        let restoreByteCount: UnsafeMutablePointer<Int>
        /// Indexed by signal number: the action to hand the signal on to.
        let previousActions: UnsafeMutablePointer<sigaction>
        let hasPrevious: UnsafeMutablePointer<Bool>
        /// Which session installed the handlers (only touched outside handlers).
        let owner: UnsafeMutablePointer<ObjectIdentifier?>

        static let signalSlots = 65
        static let restoreCapacity = 256

        static func allocate() -> Storage {
            func cell<T>(_ value: T) -> UnsafeMutablePointer<T> {
                let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
                pointer.initialize(to: value)
                return pointer
            }
            let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
            actions.initialize(repeating: sigaction(), count: signalSlots)
            let has = UnsafeMutablePointer<Bool>.allocate(capacity: signalSlots)
            has.initialize(repeating: false, count: signalSlots)
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: restoreCapacity)
            bytes.initialize(repeating: 0, count: restoreCapacity)
            return Storage(
                armed: cell(0), inputFD: cell(-1), outputFD: cell(-1), pipeWriteFD: cell(-1),
                settings: cell(termios()), restoreBytes: bytes, restoreByteCount: cell(0),
                previousActions: actions, hasPrevious: has, owner: cell(nil))
        }
    }

    nonisolated(unsafe) static let storage = Storage.allocate()

    static func install(
        session: ObjectIdentifier, inputFD: Int32, outputFD: Int32, settings: termios,
        restoreBytes: [UInt8], pipeWriteFD: Int32?
    ) {
        let state = storage
        state.armed.pointee = 0
        state.inputFD.pointee = inputFD
        state.outputFD.pointee = outputFD
        state.settings.pointee = settings
        let count = min(restoreBytes.count, Storage.restoreCapacity)
        for index in 0..<count { state.restoreBytes[index] = restoreBytes[index] }
        state.restoreByteCount.pointee = count
        state.pipeWriteFD.pointee = pipeWriteFD ?? -1
        state.owner.pointee = session
        state.armed.pointee = 1

        for signal in fatalSignals { setHandler(restoreAndChain, for: signal) }
        for signal in terminationSignals {
            setHandler(pipeWriteFD == nil ? restoreAndChain : reportThroughPipe, for: signal)
        }
        if pipeWriteFD != nil {
            setHandler(reportThroughPipe, for: SIGWINCH)
        } else {
            resetHandler(for: SIGWINCH)
        }
    }

    /// Called by `TerminalSession.restore()`: the terminal is back to normal,
    /// so the handlers go and the previous dispositions return.
    static func disarm(session: ObjectIdentifier) {
        let state = storage
        guard state.owner.pointee == session else { return }
        state.armed.pointee = 0
        for signal in fatalSignals + terminationSignals + [SIGWINCH] { resetHandler(for: signal) }
        state.pipeWriteFD.pointee = -1
        state.owner.pointee = nil
    }

    /// A closing SignalPipe must not be written to by a late signal.
    static func forgetPipe(writeFD: Int32) {
        let state = storage
        if state.pipeWriteFD.pointee == writeFD { state.pipeWriteFD.pointee = -1 }
    }

    private static func setHandler(_ handler: @convention(c) (Int32) -> Void, for signal: Int32) {
        let state = storage
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var previous = sigaction()
        guard sigaction(signal, &action, &previous) == 0 else { return }
        if !state.hasPrevious[Int(signal)] {
            state.previousActions[Int(signal)] = previous
            state.hasPrevious[Int(signal)] = true
        }
    }

    private static func resetHandler(for signal: Int32) {
        let state = storage
        guard state.hasPrevious[Int(signal)] else { return }
        sigaction(signal, state.previousActions + Int(signal), nil)
        state.hasPrevious[Int(signal)] = false
    }

    /// The async-signal-safe core: write the restore bytes and put the saved
    /// termios back. TCSANOW, not TCSADRAIN: a handler must not wait on a
    /// terminal that may have stopped reading.
    static func restoreTerminalNow() {
        let state = storage
        guard state.armed.pointee == 1 else { return }
        state.armed.pointee = 0
        var offset = 0
        let count = state.restoreByteCount.pointee
        while offset < count {
            let written = write(state.outputFD.pointee, state.restoreBytes + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        tcsetattr(state.inputFD.pointee, TCSANOW, state.settings)
    }

    /// Restores the terminal, puts back the handler that was there before and
    /// raises the signal again; it is delivered to that handler (or the
    /// default action) as soon as this one returns.
    private static let restoreAndChain: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        restoreTerminalNow()
        let state = storage
        if signal > 0 && signal < Int32(Storage.signalSlots) && state.hasPrevious[Int(signal)] {
            sigaction(signal, state.previousActions + Int(signal), nil)
        } else {
            Glibc.signal(signal, SIG_DFL)
        }
        errno = savedErrno
        raise(signal)
    }

    /// Writes the signal number to the SignalPipe and returns.
    private static let reportThroughPipe: @convention(c) (Int32) -> Void = { signal in
        let savedErrno = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        let fd = storage.pipeWriteFD.pointee
        if fd >= 0 { _ = write(fd, &byte, 1) }
        errno = savedErrno
    }
}
