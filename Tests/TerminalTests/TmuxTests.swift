import ControlSequences
import Foundation
import Pixels
import Plumbing
import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// tmux as pxview asks it (`Tmux`), pictures placed in pxview's pane through
/// passthrough, and tmux known without `$TMUX`.
@Suite struct TmuxTests {
    /// What tmux 3.3a prints for `Tmux.paneFormat` (seen with xterm attached).
    static let answer = "61\t0\t59\t36\t0\t1\t0\t1\t9\t19\ton\tbottom\t/dev/pts/3\tXTerm(379)\n"

    @Test func thePaneStateIsReadFromOneDisplayCall() throws {
        let calls = Calls()
        let tmux = Tmux(pane: "%1") { arguments in
            calls.add(arguments)
            return arguments.first == "show" ? "on\n" : Self.answer
        }
        let pane = try #require(tmux.paneState())
        #expect(
            pane
                == TmuxPaneState(
                    left: 61, top: 0, width: 59, height: 36, paneActive: false, windowActive: true, windowZoomed: false,
                    attached: true, cellSize: PixelSize(width: 9, height: 19), statusRowsAbove: 0, clientTTY: "/dev/pts/3",
                    clientTermType: "XTerm(379)"))
        #expect(pane.isShown)
        #expect(pane.screenOrigin == CellOffset(column: 61, row: 0))
        #expect(tmux.passthrough() == .on)
        #expect(
            calls.all == [["display", "-p", "-t", "%1", Tmux.paneFormat], ["show", "-Apv", "-t", "%1", "allow-passthrough"]])
    }

    @Test func shownMeansTheCurrentWindowAndNoOtherPaneZoomed() throws {
        var pane = try #require(TmuxPaneState(answer: Self.answer))
        pane.windowActive = false
        #expect(!pane.isShown)
        pane.windowActive = true
        pane.windowZoomed = true
        #expect(!pane.isShown, "another pane is zoomed over it")
        pane.paneActive = true
        #expect(pane.isShown, "it is the zoomed one")
        pane.attached = false
        #expect(!pane.isShown)
        // A status line on top moves every pane down a row on the screen.
        let top = try #require(TmuxPaneState(answer: "0\t5\t80\t20\t1\t1\t0\t1\t\t\t2\ttop\t\t\n"))
        #expect(top.screenOrigin == CellOffset(column: 0, row: 7) && top.cellSize == nil && top.clientTTY == nil)
        #expect(TmuxPaneState(answer: "#{pane_left}") == nil)
        #expect(TmuxPaneState(answer: "") == nil)
    }

    @Test func passthroughSettings() {
        #expect(PassthroughSetting(answer: "on\n") == .on)
        #expect(PassthroughSetting(answer: "all\n") == .all && PassthroughSetting.all.passes)
        #expect(PassthroughSetting(answer: "off\n") == .off && !PassthroughSetting.off.passes)
        #expect(PassthroughSetting(answer: nil) == .off)
        #expect(PassthroughSetting(answer: "weird") == .off)
    }

    @Test func termTellsOfATmuxWithoutItsVariable() {
        #expect(TmuxHint(environment: ["TERM": "tmux-256color"]) == .tmux)
        #expect(TmuxHint(environment: ["TERM": "screen-256color"]) == .screenOrTmux)
        #expect(TmuxHint(environment: ["TERM": "xterm-256color"]) == .none)
        // With $TMUX, tmux itself is asked instead.
        #expect(TmuxHint(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]) == .none)
        #expect(TmuxHint(environment: [:]) == .none)
    }

    /// The exact bytes of a frame through tmux when the pane is known: each
    /// picture moved, inside its passthrough, to the pane's place plus its
    /// cell (the outer cursor hidden and margins reset first); the cursor-only text just before a picture
    /// dropped; an upload's chunks and its placement in one passthrough;
    /// other text kept as it is.
    @Test func picturesArePlacedAtThePanesOffsetInsideThePassthrough() {
        let frame = Array(
            ("\u{1B}[1;1Hheader\u{1B}[3;2H\u{1B}_Ga=t,i=5,q=2,m=1;AAAA\u{1B}\\\u{1B}_Gm=0,q=2;BBBB\u{1B}\\"
                + "\u{1B}[3;2H\u{1B}_Ga=p,i=5,p=1,C=1,q=2\u{1B}\\\u{1B}[7;4H\u{1B}P0;1;0q#0~\u{1B}\\\u{1B}[9;1Hend").utf8)
        let placed = Passthrough.wrapGraphics(frame, placingAt: CellOffset(column: 61, row: 2))
        let expected =
            "\u{1B}[1;1Hheader\u{1B}[3;2H"
            + "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,i=5,q=2,m=1;AAAA\u{1B}\u{1B}\\\u{1B}\u{1B}_Gm=0,q=2;BBBB\u{1B}\u{1B}\\"
            + "\u{1B}\u{1B}[?25l\u{1B}\u{1B}[r\u{1B}\u{1B}[5;63H\u{1B}\u{1B}_Ga=p,i=5,p=1,C=1,q=2\u{1B}\u{1B}\\"
            + "\u{1B}\u{1B}[?25l\u{1B}\u{1B}[r\u{1B}\u{1B}[9;65H\u{1B}\u{1B}P0;1;0q#0~\u{1B}\u{1B}\\\u{1B}\\"
            + "\u{1B}[9;1Hend"
        #expect(String(decoding: placed, as: UTF8.self) == expected)
    }

    /// Without a known pane (a one-shot drawing, a remote shell) the chunks
    /// of one upload still travel together, and each picture drawn at the
    /// cursor starts a passthrough of its own (the writer fences before it).
    @Test func anUploadsChunksTravelInOnePassthrough() {
        let frame = Array(
            "\u{1B}[3;2H\u{1B}_Ga=t,i=5,q=2,m=1;AAAA\u{1B}\\\u{1B}_Gm=0,q=2;BBBB\u{1B}\\\u{1B}_Ga=p,i=5,p=1,C=1,q=2\u{1B}\\".utf8)
        let expected =
            "\u{1B}[3;2H\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,i=5,q=2,m=1;AAAA\u{1B}\u{1B}\\\u{1B}\u{1B}_Gm=0,q=2;BBBB\u{1B}\u{1B}\\\u{1B}\\"
            + "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,i=5,p=1,C=1,q=2\u{1B}\u{1B}\\\u{1B}\\"
        #expect(String(decoding: Passthrough.wrapGraphics(frame), as: UTF8.self) == expected)
        #expect(
            String(
                decoding: FrameWriter(synchronizedOutput: false, multiplexer: .tmux(passthrough: true)).framed(frame),
                as: UTF8.self)
                == expected)
    }

    @Test func theCellAPieceOfTextEndsOn() {
        #expect(Passthrough.endingCursorPosition(Array("ab\u{1B}[12;7H".utf8)) == CellOffset(column: 6, row: 11))
        #expect(Passthrough.endingCursorPosition(Array("\u{1B}[H".utf8)) == CellOffset(column: 0, row: 0))
        #expect(Passthrough.endingCursorPosition(Array("\u{1B}[3;4Hx".utf8)) == nil)
        #expect(Passthrough.endingCursorPosition(Array("\u{1B}[3;4;5H".utf8)) == nil)
        #expect(Passthrough.endingCursorPosition(Array("\u{1B}[?5H".utf8)) == nil)
    }

    /// tmux's own answers first, then the outer terminal's through
    /// passthrough: tmux is known by its XTVERSION, the terminal by the other.
    @Test func theParserTellsTmuxsAnswersFromTheTerminals() {
        var parser = ProbeReplyParser()
        parser.feed(Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4c".utf8))
        #expect(parser.result.multiplexerVersion == "tmux 3.3a")
        #expect(parser.result.terminalVersion == "XTerm(379)")
        #expect(parser.result.deviceAttributes == [63, 1, 2, 4] && parser.result.deviceAttributeReplies == 2)
        #expect(parser.hasDeviceAttributes(count: 2))
        // In whatever order they come, tmux's own `?1;2c` is not the terminal's.
        var reversed = ProbeReplyParser()
        reversed.feed(Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?63;1;2;4c\u{1B}[?1;2c".utf8))
        #expect(reversed.result.deviceAttributes == [63, 1, 2, 4] && reversed.result.deviceAttributeReplies == 2)
    }

    /// With two answers expected (tmux's and the terminal's), the probe ends
    /// on the second; when only tmux answers (passthrough off) it waits for
    /// the second only a short grace after the first, never the full limit.
    @Test func aProbeThroughARemoteTmuxEndsOnTheOuterAnswerOrSoonAfterTmuxs() throws {
        for passthrough in [true, false] {
            let pty = try PseudoTerminal()
            let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
            defer { session.restore() }
            var pieces = [Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c".utf8)]
            if passthrough { pieces.append(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c".utf8)) }
            let tmux = TerminalImpersonator(master: pty.master, answer: pieces, gapMs: 30)
            let started = MonotonicClock.milliseconds()
            let outcome = try probeTerminal(
                inputFD: pty.slave, outputFD: pty.slave, timeoutMs: 20000, queries: ProbeQuery.remoteTmux, expectedAnswers: 2)
            let elapsed = MonotonicClock.milliseconds() - started
            #expect(tmux.waitForQuery() == ProbeQuery.remoteTmux)
            #expect(outcome.replies.multiplexerVersion == "tmux 3.3a")
            #expect(outcome.replies.deviceAttributeReplies == (passthrough ? 2 : 1))
            #expect(outcome.replies.kittyGraphicsMessage == (passthrough ? "OK" : nil))
            #expect(!outcome.timedOut)
            // Not the (20 s) timeout.
            #expect(elapsed < 10000, "\(elapsed) ms")
        }
    }

    /// Replies 400 ms late (a long SSH hop) are still the probe's: nothing
    /// is left for the shell to read afterwards.
    @Test func aSlowLinksAnswersAreWaitedFor() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let terminal = TerminalImpersonator(
            master: pty.master, answer: [Array("\u{1B}[?1;0;256S\u{1B}[?63;1;2;4c".utf8)], delayMs: 400)
        let outcome = try probeTerminal(inputFD: pty.slave, outputFD: pty.slave)
        _ = terminal.waitForQuery()
        #expect(!outcome.timedOut && outcome.elapsedMs >= 380)
        #expect(outcome.replies.colorRegisters == 256 && outcome.replies.deviceAttributes == [63, 1, 2, 4])
        #expect(PseudoTerminal.read(pty.slave, quietMs: 50).isEmpty)
        #expect(ProbeTiming.defaultTimeoutMs == 2000)
        #expect(ProbeTiming.timeoutMs(environment: ["PXVIEW_PROBE_TIMEOUT_MS": "5000"]) == 5000)
        #expect(ProbeTiming.timeoutMs(environment: ["PXVIEW_PROBE_TIMEOUT_MS": "0"]) == 2000)
        #expect(ProbeTiming.timeoutMs(environment: ["PXVIEW_PROBE_TIMEOUT_MS": "ten"]) == 2000)
    }
}

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [[String]] = []
    var all: [[String]] { lock.withLock { calls } }
    func add(_ arguments: [String]) { lock.withLock { calls.append(arguments) } }
}
