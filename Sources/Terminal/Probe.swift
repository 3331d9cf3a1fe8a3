import Glibc
import Plumbing

/// How long to keep reading after the DA1 reply, in case a terminal that
/// answers out of order still has bytes in flight.
let probeDrainMilliseconds: Int32 = 5

/// Asks the terminal what it supports: writes `queries` (`ProbeQuery.bytes`,
/// or `ProbeQuery.bytes(for:)` inside a multiplexer) in one write
/// to `outputFD`, then reads `inputFD` until the DA1 reply arrives or
/// `timeoutMs` passes, then briefly drains whatever else is already on its way.
///
/// Call it in raw mode (see `TerminalSession`): with echo on, the replies
/// would be printed, and in canonical mode they would not arrive until Enter.
/// Anything read that is not a reply — keys typed during the probe — comes
/// back as `leftover`; feed it to the `InputDecoder` first.
///
/// A terminal that never answers DA1 (not a real terminal, or a very slow
/// link) costs `timeoutMs`; `replies.deviceAttributes` is then nil.
public func probeTerminal(
    inputFD: Int32 = 0, outputFD: Int32 = 1, timeoutMs: Int = 200, queries: [UInt8] = ProbeQuery.bytes
) throws(TerminalError) -> (replies: ProbeReplies, leftover: [UInt8]) {
    var parser = ProbeReplyParser()
    try Descriptor.writeAll(queries, to: outputFD)
    let deadline = FileDescriptorIO.monotonicMilliseconds() + timeoutMs
    while !parser.isComplete {
        let remaining = deadline - FileDescriptorIO.monotonicMilliseconds()
        guard remaining > 0, try readInto(&parser, from: inputFD, waitingMs: Int32(remaining)) else { break }
    }
    if parser.isComplete {
        while try readInto(&parser, from: inputFD, waitingMs: probeDrainMilliseconds) {}
    }
    return (parser.result, parser.leftoverInput)
}

/// Waits up to `waitingMs` for input and feeds one read of it to the parser.
/// Returns false when nothing came (timeout or end of file).
private func readInto(_ parser: inout ProbeReplyParser, from fd: Int32, waitingMs: Int32) throws(TerminalError) -> Bool {
    switch FileDescriptorIO.waitUntilReady(fd, events: Int16(POLLIN), timeoutMs: waitingMs) {
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
