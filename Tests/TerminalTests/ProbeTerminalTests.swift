import Pixels
import Plumbing
import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// probeTerminal against a real pseudo-terminal, with a thread answering
/// like a given terminal would.
@Suite struct ProbeTerminalTests {
    private func reference(_ name: String) throws -> ReferenceTerminal {
        try #require(ReferenceTerminal.all.first { $0.name == name })
    }

    @Test(arguments: ["kitty", "xterm_vt340", "xterm_stock", "mlterm", "konsole"])
    func probeReadsRepliesFromThePty(name: String) throws {
        let terminal = try reference(name)
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        // Each reply in its own write, so the prober has to stitch reads.
        let impersonator = TerminalImpersonator(master: pty.master, answer: terminal.replies.map { Array($0.utf8) })

        let started = MonotonicClock.milliseconds()
        let outcome = try probeTerminal(inputFD: pty.slave, outputFD: pty.slave, timeoutMs: 20000)
        let (replies, leftover) = (outcome.replies, outcome.leftover)
        let elapsed = MonotonicClock.milliseconds() - started

        #expect(impersonator.waitForQuery() == ProbeQuery.bytes)
        #expect(leftover.isEmpty)
        #expect(replies.deviceAttributes != nil)
        #expect(capabilities(from: replies, winsize: terminal.winsize) == terminal.expected)
        // Finishing on DA1 means not waiting for the (20 s) timeout.
        #expect(elapsed < 10000)
        #expect(!outcome.timedOut && outcome.elapsedMs <= elapsed)
    }

    @Test func keysTypedDuringTheProbeComeBackAsLeftover() throws {
        let terminal = try reference("kitty")
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let typed = Array("j\u{1B}[B".utf8)
        let impersonator = TerminalImpersonator(
            master: pty.master, answer: [typed, terminal.replyBytes, Array("q".utf8)])

        let outcome = try probeTerminal(inputFD: pty.slave, outputFD: pty.slave, timeoutMs: 2000)
        let (replies, leftover) = (outcome.replies, outcome.leftover)
        _ = impersonator.waitForQuery()

        #expect(replies.kittyGraphicsMessage == "OK")
        // "q" arrives 3 ms after DA1: the drain may or may not catch it, but
        // whatever was read must be the typed input, in order.
        #expect(leftover == typed || leftover == typed + Array("q".utf8))
        let rest = PseudoTerminal.read(pty.slave, quietMs: 20)
        #expect(leftover + rest == typed + Array("q".utf8))
    }

    @Test func silentTerminalTimesOut() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let impersonator = TerminalImpersonator(master: pty.master, answer: [])

        let started = MonotonicClock.milliseconds()
        let outcome = try probeTerminal(inputFD: pty.slave, outputFD: pty.slave, timeoutMs: 200)
        let (replies, leftover) = (outcome.replies, outcome.leftover)
        let elapsed = MonotonicClock.milliseconds() - started

        #expect(impersonator.waitForQuery() == ProbeQuery.bytes)
        #expect(replies == ProbeReplies())
        #expect(leftover.isEmpty)
        #expect(elapsed >= 195 && elapsed < 10000, "took \(elapsed) ms")
        #expect(outcome.timedOut)
    }

    @Test func probeOnAClosedDescriptorThrows() {
        #expect(throws: TerminalError.self) {
            _ = try probeTerminal(inputFD: -1, outputFD: -1, timeoutMs: 50)
        }
    }
}
