import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a terminal's answers, written once: the start-up probe and a
/// drawing's tmux fences both wait for a DA1 reply through it, and keep the
/// keys typed meanwhile (`parser.leftoverInput`) for the input decoder.
struct ReplyReader {
    let fd: Int32
    var parser = ProbeReplyParser()

    init(fd: Int32) {
        self.fd = fd
    }

    /// Waits for input until `deadline` (monotonic milliseconds) and feeds
    /// one read of it to the parser. False when nothing came in time or
    /// the input ended.
    mutating func readOnce(before deadline: Int) throws(TerminalError) -> Bool {
        let remaining = deadline - MonotonicClock.milliseconds()
        guard remaining > 0 else { return false }
        switch FileDescriptorIO.waitUntilReady(fd, events: Int16(POLLIN), timeoutMs: Int32(clamping: remaining)) {
        case .timedOut:
            return false
        case .failed(let error):
            throw error
        case .ready:
            let bytes = try FileDescriptorIO.readSome(from: fd)
            if bytes.isEmpty { return false }
            parser.feed(bytes)
            return true
        }
    }
}
