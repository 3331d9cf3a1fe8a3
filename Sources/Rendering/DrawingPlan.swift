import Encoding
import Pixels
import Scaling
import Terminal

/// What is known about the terminal program itself (its identity, from
/// its XTVERSION answer or the environment), where its graphics differ
/// from the protocol's letter: each quirk read off its row of the
/// terminal table (`TerminalTable`), where it is said with what was seen.
package struct TerminalTraits: Equatable, Sendable {
    /// The terminal, when it is one the table knows.
    package var terminal: TerminalIdentity?

    package init(terminal: TerminalIdentity? = nil) {
        self.terminal = terminal
    }

    /// From XTVERSION's answer ("kitty(0.26.5)", "Konsole 22.12.3"…), read
    /// by the table.
    package init(version: String?) {
        self.init(terminal: version.flatMap(TerminalIdentity.init(naming:)))
    }

    /// The terminal has a feature its row says came in `since` (nil: never).
    private func has(_ since: KeyPath<TerminalRow, [Int]?>) -> Bool {
        guard let terminal, let minimum = terminal.row[keyPath: since] else { return false }
        return terminal.isAtLeast(minimum)
    }

    /// The terminal draws the sextants (U+1FB00-1FB3B) itself, whatever its
    /// font (`TerminalRow.drawsSextants`). Elsewhere they depend on the
    /// font, which no query reveals: `PXVIEW_SEXTANTS=1` turns them on.
    package var drawsSextants: Bool { terminal?.row.drawsSextants ?? false }

    /// Unicode placeholders (`TerminalRow.placeholdersSince`).
    package var supportsPlaceholders: Bool { has(\.placeholdersSince) }

    /// kitty's clipboard protocol, OSC 5522 (`TerminalRow.clipboardImagesSince`);
    /// others ignore it (`Y` says so instead).
    package var takesClipboardImages: Bool { has(\.clipboardImagesSince) }

    /// A scaled kitty placement shrinks by its `X`/`Y` offset
    /// (`TerminalRow.scaledOffsetsShrink`).
    package var scaledOffsetsShrink: Bool { terminal?.row.scaledOffsetsShrink ?? false }

    /// Sixel pictures stay under text written over them
    /// (`TerminalRow.sixelsOutliveText`).
    package var sixelsOutliveText: Bool { terminal?.row.sixelsOutliveText ?? false }

    /// After a sixel the cursor is still on the picture's last band's row
    /// (`TerminalRow.sixelCursorStaysInPicture`).
    package var sixelCursorStaysInPicture: Bool { terminal?.row.sixelCursorStaysInPicture ?? false }
}

/// How this run draws: the method (one backend), the multiplexer the
/// graphics must pass through, the geometry, the background and the
/// terminal's quirks. Decided once from the probe in `decide`, the one
/// place the protocol is chosen (the backends say whether they draw on the
/// terminal: `Backends`); `makeBackend` makes the method's backend.
package struct DrawingPlan: Sendable {
    package var method: DrawingMethod
    package var multiplexer: Multiplexer
    package var geometry: TerminalGeometry
    package var background: BackgroundChoice
    package var traits: TerminalTraits
    /// How kitty gets pixels: shared memory or a file when the probe showed
    /// kitty reads ours (same machine, no multiplexer), else the pty.
    package var kittyMedium: KittyMedium = .direct
    /// Frames may be wrapped in synchronized output (mode 2026).
    package var synchronizedOutput: Bool
    /// One line for stderr when the choice fell short (tmux without passthrough).
    package var hint: String?
    /// The terminal answers `CSI 16 t`, so it can be asked again after a resize.
    package var reportsCellSize: Bool
    /// Why text is drawn where the terminal could do better, when the user
    /// can change it: said on the status line, fixed in `?` help.
    package var shortfall: GraphicsShortfall?
    /// What text is drawn with: ASCII in a C locale (`TerminalLocale`),
    /// where the text picture is coloured spaces instead of `▀`.
    package var glyphs: Glyphs = .unicode
    /// What text is drawn with where this plan's method cannot draw
    /// (`drawingText()`): what `auto` chooses with no graphics.
    package var textMethod = Backends.textMethod(linuxConsole: false)
    /// Text pictures (`symbols`) may use the sextants: the terminal draws
    /// them (`TerminalTraits.drawsSextants`) or `PXVIEW_SEXTANTS` says so.
    package var sextants = false

    package init(
        method: DrawingMethod, geometry: TerminalGeometry, multiplexer: Multiplexer = .none,
        background: BackgroundChoice = .auto, traits: TerminalTraits = TerminalTraits(),
        synchronizedOutput: Bool = false, hint: String? = nil, reportsCellSize: Bool = false
    ) {
        self.reportsCellSize = reportsCellSize
        self.method = method
        self.multiplexer = multiplexer
        self.geometry = geometry
        self.background = background
        self.traits = traits
        self.synchronizedOutput = synchronizedOutput
        self.hint = hint
    }

    /// The way `choice` is drawn (`Backends.method(for:on:)`: with `auto`
    /// the first backend, in `Backends.all`'s order, whose pictures the
    /// terminal shows). Inside tmux the probe went through passthrough
    /// (`ProbeQuery.bytes(for:)`), so the capabilities are the outer
    /// terminal's. Without passthrough tmux drops graphics: text, and a
    /// hint naming the setting unless text was asked for. `sextants`
    /// overrides what the terminal is known to draw (`PXVIEW_SEXTANTS`).
    package static func decide(
        choice: ProtocolChoice, capabilities: TerminalCapabilities?, multiplexer: Multiplexer,
        geometry: TerminalGeometry, background: BackgroundChoice = .auto, sextants: Bool? = nil, linuxConsole: Bool = false,
        glyphs: Glyphs = .unicode
    ) -> DrawingPlan {
        let traits = TerminalTraits(terminal: capabilities?.terminal)
        let situation = TerminalSituation(
            capabilities: capabilities, multiplexer: multiplexer, traits: traits, linuxConsole: linuxConsole)
        let method = Backends.method(for: choice, on: situation)
        let askedForText = choice != .auto && Backends.type(for: method).picturesAreText
        let hint = multiplexer.blocksGraphics && !askedForText ? Multiplexer.passthroughHint : nil
        var drawing = DrawingPlan(
            method: method, geometry: geometry, multiplexer: multiplexer, background: background, traits: traits,
            synchronizedOutput: !multiplexer.wrapsGraphics && (capabilities?.synchronizedOutput ?? false), hint: hint,
            reportsCellSize: capabilities?.reportsCellSize ?? false)
        if Backends.type(for: method).leavesHandovers, !multiplexer.wrapsGraphics {
            drawing.kittyMedium = capabilities?.kittyMedium ?? .direct
        }
        drawing.textMethod = Backends.textMethod(linuxConsole: linuxConsole)
        drawing.sextants = sextants ?? traits.drawsSextants
        drawing.glyphs = glyphs
        return drawing
    }

    /// The same from the start-up probe's report, with the reason (if one
    /// the user can fix) why it came to text.
    package static func decide(
        choice: ProtocolChoice, report: ProbeReport, geometry: TerminalGeometry, background: BackgroundChoice = .auto,
        sextants: Bool? = nil, linuxConsole: Bool = false, glyphs: Glyphs = .unicode
    ) -> DrawingPlan {
        var drawing = decide(
            choice: choice, capabilities: report.capabilities, multiplexer: report.multiplexer, geometry: geometry,
            background: background, sextants: sextants, linuxConsole: linuxConsole, glyphs: glyphs)
        if choice == .auto, drawing.backendType.picturesAreText {
            drawing.shortfall = GraphicsShortfall(report: report)
        }
        return drawing
    }

    /// The backend that draws this plan's method (`Backends`).
    package var backendType: any GraphicsBackend.Type { Backends.type(for: method) }

    /// The `--protocol` value that names the way this plan draws.
    package var choice: ProtocolChoice { backendType.choice(for: method) }

    /// What `doctor` says of the way this plan draws.
    package var doctorWords: DoctorWords { backendType.doctorWords(for: method) }

    /// `GraphicsBackend.inlineFollowUp(for:)` of this plan.
    package var inlineFollowUp: (delayMs: Int, bytes: [UInt8])? { backendType.inlineFollowUp(for: self) }

    /// The same plan drawing text instead (`textMethod`): where its own
    /// way cannot draw (a sixel preview box on the window's last row).
    package func drawingText() -> DrawingPlan {
        var text = self
        text.method = textMethod
        return text
    }

    package func makeBackend(resampler: Resampler = Resampler()) -> any GraphicsBackend {
        backendType.make(drawing: self, resampler: resampler)
    }

    /// For `PXVIEW_DEBUG`.
    package var summary: String {
        "drawing \(method.rawValue), multiplexer \(multiplexer), cells \(geometry.windowCells) of \(geometry.cellPixels) px, "
            + "background \(background)\(geometry.background.map { " over \($0.r),\($0.g),\($0.b)" } ?? "")"
            + backendType.summary(of: self)
    }
}

/// Why pxview fell back to text, when the user can do something about it:
/// a few words for the status line (`status`, `reason` in `pxview doctor`)
/// and the fix for `?` help and `pxview doctor` (`fix`).
package enum GraphicsShortfall: Equatable, Sendable {
    /// tmux passes no graphics.
    case passthroughOff
    /// The terminal never answered within the limit (a slow link).
    case probeTimedOut(milliseconds: Int)
    /// xterm, but started without sixel (`-ti vt340`).
    case xtermWithoutSixel
    /// The terminal was not asked (in the background, or pxview's tmux
    /// pane was not the active one).
    case notProbed(ProbeSkip)

    /// Nil when nothing the user can change would give real pixels.
    package init?(report: ProbeReport) {
        if report.multiplexer.blocksGraphics {
            self = .passthroughOff
        } else if report.timedOut {
            self = .probeTimedOut(milliseconds: report.timeoutMs)
        } else if let skip = report.skipped, skip == .background || skip == .paneNotActive {
            self = .notProbed(skip)
        } else if report.capabilities?.terminal?.kind == .xterm,
            report.capabilities?.sixel == false
        {
            self = .xtermWithoutSixel
        } else {
            return nil
        }
    }

    /// A few words, for the end of a status line.
    package var status: String { "text: " + reason }

    /// Why, in a few words.
    package var reason: String {
        switch self {
        case .passthroughOff: return "tmux passthrough is off"
        case .probeTimedOut: return "the terminal did not answer"
        case .xtermWithoutSixel: return "xterm without sixel"
        case .notProbed(.background): return "not asked in the background"
        case .notProbed: return "the terminal was not asked"
        }
    }

    /// What to change, in one line.
    package var fix: String {
        switch self {
        case .passthroughOff:
            return "add 'set -g allow-passthrough on' to ~/.tmux.conf (tmux 3.3+) for sixel or kitty pictures"
        case .probeTimedOut(let milliseconds):
            return "no answer within \(milliseconds) ms: PXVIEW_PROBE_TIMEOUT_MS=5000 waits longer, "
                + "--protocol sixel|kitty skips the question"
        case .xtermWithoutSixel:
            return "start xterm as 'xterm -ti vt340' (or XTerm*decTerminalID: vt340 in ~/.Xresources) for sixel pictures"
        case .notProbed(.background):
            return "a background job cannot ask the terminal: --protocol sixel|kitty (or PXVIEW_PROTOCOL) says what it draws"
        case .notProbed:
            return "pxview's tmux pane was not the active one when it started: --protocol sixel|kitty says what it draws"
        }
    }
}

/// The probe's question whether kitty can read pixels from this machine:
/// a 1x1 pixel in shared memory and one in a temporary file, with the
/// queries naming them (sent before DA1), removed again after the probe.
/// Inside a multiplexer the pty is used anyway, so nothing is asked.
package struct KittyMediumProbe: Sendable {
    package private(set) var queries: [UInt8] = []
    private var objects: [(String, KittyMedium)] = []

    package init(multiplexer: Multiplexer, asking: Bool = true) {
        guard asking, !multiplexer.wrapsGraphics else { return }
        let pixel: [UInt8] = [0, 0, 0]
        let encoder = KittyEncoder()
        if let name = KittyTransfer.sharedMemory(pixel) {
            objects.append((name, .sharedMemory))
            queries += encoder.query(
                id: KittyTransfer.sharedMemoryQueryID, reading: KittyReference(medium: .sharedMemory, name: name))
        }
        if let path = KittyTransfer.temporaryFile(pixel) {
            objects.append((path, .file))
            queries += encoder.query(id: KittyTransfer.fileQueryID, reading: KittyReference(medium: .file, name: path))
        }
    }

    /// Removes what kitty did not read (everything, in other terminals).
    package func cleanUp() {
        for (reference, medium) in objects { KittyTransfer.remove(reference, medium: medium) }
    }
}
