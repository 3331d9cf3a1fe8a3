import Pixels
import Terminal
import Testing

@testable import Rendering

/// Why text, said where the user looks, only when the user can change it.
@Suite struct ShortfallTests {
    static let geometry = TerminalGeometry(windowCells: CellCount(width: 80, height: 24))

    static func capabilities(version: String? = nil, sixel: Bool = false, kitty: Bool = false) -> TerminalCapabilities {
        TerminalCapabilities(
            kittyGraphics: kitty, sixel: sixel, colorRegisters: nil, sixelMaxSize: nil, cellSize: nil, windowPixels: nil,
            windowCells: CellCount(width: 80, height: 24), synchronizedOutput: false, terminalVersion: version)
    }

    static func decide(_ report: ProbeReport, choice: ProtocolChoice = .auto) -> DrawingPlan {
        DrawingPlan.decide(choice: choice, report: report, geometry: geometry)
    }

    @Test func eachFixableReasonIsNamed() {
        let blocked = Self.decide(
            ProbeReport(capabilities: Self.capabilities(kitty: true), multiplexer: .tmux(passthrough: false)))
        #expect(blocked.method == .symbols && blocked.shortfall == .passthroughOff)
        #expect(blocked.shortfall?.status == "text: tmux passthrough is off")
        let remote = Self.decide(ProbeReport(capabilities: Self.capabilities(), multiplexer: .remoteTmux(passthrough: false)))
        #expect(remote.shortfall == .passthroughOff)
        var silent = ProbeReport(capabilities: Self.capabilities(), multiplexer: .none, timeoutMs: 2000)
        silent.outcome = ProbeOutcome(replies: ProbeReplies(), leftover: [], elapsedMs: 2000, timedOut: true)
        #expect(Self.decide(silent).shortfall == .probeTimedOut(milliseconds: 2000))
        let xterm = Self.decide(ProbeReport(capabilities: Self.capabilities(version: "XTerm(379)"), multiplexer: .none))
        #expect(xterm.shortfall == .xtermWithoutSixel)
        #expect(xterm.shortfall?.fix.contains("xterm -ti vt340") == true)
        let background = Self.decide(
            ProbeReport(capabilities: Self.capabilities(), multiplexer: .none, skipped: .background))
        #expect(background.shortfall == .notProbed(.background))
    }

    @Test func nothingIsSaidWhenNothingWouldHelp() {
        // A terminal that simply has no graphics, or blocks asked for.
        #expect(
            Self.decide(ProbeReport(capabilities: Self.capabilities(version: "VTE(7002)"), multiplexer: .none)).shortfall == nil)
        let asked = Self.decide(
            ProbeReport(capabilities: Self.capabilities(), multiplexer: .tmux(passthrough: false)), choice: .blocks)
        #expect(asked.shortfall == nil)
        let sixel = Self.decide(
            ProbeReport(capabilities: Self.capabilities(version: "XTerm(379)", sixel: true), multiplexer: .none))
        #expect(sixel.method == .sixel && sixel.shortfall == nil)
    }

    /// A remote tmux with passthrough on wraps graphics like a local one;
    /// kitty 0.28+ gets placeholders through either.
    @Test func aRemoteTmuxDrawsThroughPassthrough() {
        let remote = Self.decide(
            ProbeReport(
                capabilities: Self.capabilities(version: "kitty(0.35.0)", kitty: true),
                multiplexer: .remoteTmux(passthrough: true)))
        #expect(remote.method == .kittyPlaceholders && remote.multiplexer.wrapsGraphics)
        #expect(
            Multiplexer.remoteTmux(passthrough: true).passthroughOn && !Multiplexer.remoteTmux(passthrough: true).blocksGraphics)
    }
}
