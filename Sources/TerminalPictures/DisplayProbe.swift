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
    package static func ask(
        _ choices: Choices, environment: [String: String], ttyFD: Int32 = 1, alreadyRaw: Bool = false
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
        return (report, decide(choices, report: report, environment: environment, ttyFD: ttyFD))
    }

    /// The same without asking: what an earlier probe in this terminal
    /// remembered (`TerminalMemory`), else the environment.
    package static func recall(
        _ choices: Choices, environment: [String: String], ttyFD: Int32
    ) -> (report: ProbeReport, drawing: DrawingPlan) {
        let report = recallTerminal(
            environment: environment, ttyFD: ttyFD, memory: TerminalMemory(environment: environment, ttyFD: ttyFD))
        return (report, decide(choices, report: report, environment: environment, ttyFD: ttyFD))
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
        Choices(protocolChoice: choice(chosen), linuxConsole: environment["TERM"] == "linux")
    }
}
