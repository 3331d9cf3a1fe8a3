#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes a temporary file if the process is stopped while writing it
/// (Ctrl-C, SIGTERM, SIGHUP), so an interrupted `pxview save` leaves no
/// `.NAME.part-PID-RAND` of up to 32 MB behind (100 kills once left 28).
///
/// A handler may only use memory that exists whatever happens and
/// async-signal-safe calls (unlink, _exit), so the path lives in a buffer
/// allocated once per process: with `OutputGuard.state` and
/// `EmergencyRestore.storage`, the only global state, for the same reason.
public enum TemporaryFileGuard {
    static let capacity = 4096
    /// [0]: 1 while armed; then the NUL-terminated path.
    nonisolated(unsafe) static let storage: UnsafeMutablePointer<CChar> = {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity + 1)
        pointer.initialize(repeating: 0, count: capacity + 1)
        return pointer
    }()

    /// While `body` runs, SIGINT, SIGTERM and SIGHUP remove `path` and exit
    /// with 128 + the signal; the previous handlers come back afterwards.
    public static func removing<T>(_ path: [UInt8], during body: () throws -> T) rethrows -> T {
        guard path.count < capacity, !path.contains(0) else { return try body() }
        for (index, byte) in path.enumerated() { storage[1 + index] = CChar(bitPattern: byte) }
        storage[1 + path.count] = 0
        var previous: [Int32: sigaction] = [:]
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                if TemporaryFileGuard.storage[0] == 1 { unlink(TemporaryFileGuard.storage + 1) }
                _exit(128 + received)
            }
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(signalNumber, &action, &old)
            previous[signalNumber] = old
        }
        storage[0] = 1
        defer {
            storage[0] = 0
            for (signalNumber, old) in previous {
                var restored = old
                sigaction(signalNumber, &restored, nil)
            }
        }
        return try body()
    }
}
