import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// How long to keep reading after the DA1 reply, in case a terminal that
/// answers out of order still has bytes in flight.
let probeDrainMilliseconds = 5

/// The start-up probe's wait for the terminal's answer. Every terminal and
/// tmux answer DA1, and a local one in a few milliseconds, so a generous
/// limit costs nothing there; over a long SSH hop the replies took 400 ms,
/// and waiting only 200 ms drew half-blocks for a sixel terminal and left
/// its late replies to be echoed into the shell. `PXVIEW_PROBE_TIMEOUT_MS`
/// changes it.
package enum ProbeTiming {
    package static let defaultTimeoutMs = 2000
    /// After tmux's own DA1 answer, how long the outer terminal's (through
    /// passthrough) may still take: the two sit side by side, so its answer
    /// follows tmux's by local latency, whatever the link to pxview costs.
    package static let outerAnswerGraceMs = 150

    /// The limit the environment asks for (1 ms to 60 s), else the default.
    package static func timeoutMs(environment: [String: String]) -> Int {
        guard let text = environment["PXVIEW_PROBE_TIMEOUT_MS"], let value = Int(text), (1...60_000).contains(value)
        else { return defaultTimeoutMs }
        return value
    }
}

/// What one probe learnt and what it cost.
package struct ProbeOutcome: Sendable, Equatable {
    package var replies: ProbeReplies
    /// Input that was not a reply (keys typed meanwhile).
    package var leftover: [UInt8]
    /// From the queries' write to the last reply (or the limit).
    package var elapsedMs: Int
    /// No DA1 answer within the limit.
    package var timedOut: Bool

    package init(replies: ProbeReplies, leftover: [UInt8], elapsedMs: Int, timedOut: Bool) {
        self.replies = replies
        self.leftover = leftover
        self.elapsedMs = elapsedMs
        self.timedOut = timedOut
    }
}

/// Asks the terminal what it supports: writes `queries` (`ProbeQuery.bytes`,
/// or `ProbeQuery.bytes(for:)` inside a multiplexer) in one write
/// to `outputFD`, then reads `inputFD` until `expectedAnswers` DA1 replies
/// arrive or `timeoutMs` passes, then briefly drains whatever else is
/// already on its way. With two expected (tmux's own and the outer
/// terminal's through passthrough), the second is waited for only
/// `ProbeTiming.outerAnswerGraceMs` (or as long as the first took) after
/// the first: passthrough may be off.
///
/// Call it in raw mode (see `TerminalSession`): with echo on, the replies
/// would be printed, and in canonical mode they would not arrive until Enter.
/// Anything read that is not a reply — keys typed during the probe — comes
/// back as `leftover`; feed it to the `InputDecoder` first.
///
/// A terminal that never answers DA1 (not a real terminal, or a very slow
/// link) costs `timeoutMs`; `replies.deviceAttributes` is then nil.
package func probeTerminal(
    inputFD: Int32 = 0, outputFD: Int32 = 1, timeoutMs: Int = ProbeTiming.defaultTimeoutMs,
    queries: [UInt8] = ProbeQuery.bytes, expectedAnswers: Int = 1
) throws(TerminalError) -> ProbeOutcome {
    var reader = ReplyReader(fd: inputFD)
    let start = MonotonicClock.milliseconds()
    try Descriptor.writeAll(queries, to: outputFD)
    var deadline = start + timeoutMs
    var graceStarted = false
    while !reader.parser.hasDeviceAttributes(count: expectedAnswers) {
        if expectedAnswers > 1, reader.parser.isComplete, !graceStarted {
            graceStarted = true
            let first = MonotonicClock.milliseconds() - start
            deadline = min(deadline, start + first + max(ProbeTiming.outerAnswerGraceMs, first))
        }
        guard try reader.readOnce(before: deadline) else { break }
    }
    let answered = MonotonicClock.milliseconds()
    if reader.parser.isComplete {
        while try reader.readOnce(before: MonotonicClock.milliseconds() + probeDrainMilliseconds) {}
    }
    return ProbeOutcome(
        replies: reader.parser.result, leftover: reader.parser.leftoverInput, elapsedMs: answered - start,
        timedOut: !reader.parser.isComplete)
}
