import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The raw file-descriptor reads the terminal layer needs, with EINTR
/// handled (writes go through Plumbing's `Descriptor.writeAll`).
enum FileDescriptorIO {
    enum Readiness: Equatable {
        case ready
        case timedOut
        case failed(TerminalError)
    }

    /// poll(2) on one descriptor, restarting after signals. A negative
    /// timeout waits forever.
    static func waitUntilReady(_ fd: Int32, events: Int16, timeoutMs: Int32) -> Readiness {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, timeoutMs)
            if result > 0 { return .ready }
            if result == 0 { return .timedOut }
            if errno != EINTR { return .failed(.last(.poll)) }
        }
    }

    /// One read(2) of whatever is available (at least one byte unless the
    /// descriptor reached end of file, which yields an empty array).
    static func readSome(from fd: Int32, maxCount: Int = 4096) throws(TerminalError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxCount)
        let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
        guard count >= 0 else { throw TerminalError.last(.read) }
        return Array(buffer.prefix(count))
    }
}
