import Pixels
import Rendering
import Terminal

/// How the display is found: the one place the terminal is asked (or its
/// remembered answers read) and the protocol chosen, for the library and
/// for pxview's commands alike (which add their chores and debug lines).
extension TerminalDisplay {
    /// What the user chose, beside what the terminal says.
    package struct Choices: Sendable {
        package var protocolChoice: ProtocolChoice
        /// `--cell-size`: the cell's pixels, whatever the terminal says.
        package var cellSize: PixelSize?
        package var background: BackgroundChoice
        /// `PXVIEW_SEXTANTS`: nil lets the terminal decide.
        package var sextants: Bool?
        /// `TERM=linux`: half-blocks only.
        package var linuxConsole: Bool

        package init(
            protocolChoice: ProtocolChoice = .auto, cellSize: PixelSize? = nil, background: BackgroundChoice = .auto,
            sextants: Bool? = nil, linuxConsole: Bool = false
        ) {
            self.protocolChoice = protocolChoice
            self.cellSize = cellSize
            self.background = background
            self.sextants = sextants
            self.linuxConsole = linuxConsole
        }
    }

    /// Asks the terminal on `ttyFD` (kitty also whether it reads pixels
    /// from this machine, unless `PXVIEW_KITTY_TRANSFER=direct`) and
    /// decides how to draw. `alreadyRaw`: a running explorer asks.
    /// Then two chores, handed to `chores` (pxview runs them beside its
    /// work; the library at once): the answers remembered for previews
    /// that must not ask this terminal (`recall`), and, at most once an
    /// hour, what a killed run left for kitty swept away (only runs that
    /// hand pictures over make such objects).
    package static func ask(
        _ choices: Choices, environment: [String: String], ttyFD: Int32 = 1, alreadyRaw: Bool = false,
        chores: (@escaping @Sendable () -> Void) -> Void = { $0() }
    ) -> (report: ProbeReport, drawing: DrawingPlan) {
        var mediumProbe: KittyMediumProbe?
        let report = detectTerminal(
            probe: true, environment: environment, outputFD: ttyFD, alreadyRaw: alreadyRaw,
            extraQueries: { multiplexer in
                mediumProbe = KittyMediumProbe(
                    multiplexer: multiplexer, asking: environment["PXVIEW_KITTY_TRANSFER"] != "direct")
                return mediumProbe?.queries ?? []
            })
        mediumProbe?.cleanUp()
        let drawing = decide(choices, report: report, environment: environment, ttyFD: ttyFD)
        if report.outcome != nil {
            let memory = TerminalMemory(environment: environment, ttyFD: ttyFD)
            chores { memory.remember(report) }
        }
        sweepHandovers(drawing, environment: environment, chores: chores)
        return (report, drawing)
    }

    /// Kitty's leftovers swept, at most once an hour (`KittyTransfer.sweepStaleIfDue`).
    private static func sweepHandovers(
        _ drawing: DrawingPlan, environment: [String: String], chores: (@escaping @Sendable () -> Void) -> Void
    ) {
        guard drawing.backendType.leavesHandovers else { return }
        let stamp = TerminalMemory.directory(environment: environment) + "/kitty-swept"
        chores { KittyTransfer.sweepStaleIfDue(stamp: stamp) }
    }

    /// The same without asking: what an earlier probe in this terminal
    /// remembered (`TerminalMemory`), else the environment; kitty's
    /// leftovers swept when due.
    package static func recall(
        _ choices: Choices, environment: [String: String], ttyFD: Int32
    ) -> (report: ProbeReport, drawing: DrawingPlan) {
        let report = recallTerminal(
            environment: environment, ttyFD: ttyFD, memory: TerminalMemory(environment: environment, ttyFD: ttyFD))
        let drawing = decide(choices, report: report, environment: environment, ttyFD: ttyFD)
        sweepHandovers(drawing, environment: environment, chores: { $0() })
        return (report, drawing)
    }

    private static func decide(
        _ choices: Choices, report: ProbeReport, environment: [String: String], ttyFD: Int32
    ) -> DrawingPlan {
        let geometry = TerminalGeometry(
            capabilities: report.capabilities, window: windowSize(fd: ttyFD), cellSizeOverride: choices.cellSize)
        return DrawingPlan.decide(
            choice: choices.protocolChoice, report: report, geometry: geometry, background: choices.background,
            sextants: choices.sextants, linuxConsole: choices.linuxConsole,
            // A C locale gets ASCII text and the ASCII text picture.
            glyphs: TerminalLocale(environment: environment).glyphs)
    }

    /// The library's own choices: `protocol`, and `TERM=linux`'s half-blocks.
    static func choices(_ chosen: PictureProtocol?, environment: [String: String]) -> Choices {
        Choices(protocolChoice: choice(chosen), linuxConsole: TerminalTable.isLinuxConsole(environment: environment))
    }
}
