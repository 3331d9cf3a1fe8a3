import Encoding
import Pixels
import Scaling
import Terminal

/// What is known about the terminal program itself, from its XTVERSION
/// answer, where its graphics differ from the protocol's letter.
///
/// kitty, by version (each seen here; where pxview handles it):
/// - 0.26.5 (Debian 12): no Unicode placeholders (placements through
///   tmux's passthrough instead); `d=I` frees every image left without a
///   placement, so pxview frees one image by swapping its data for a
///   pixel (`KittyEncoder.release`).
/// - 0.28 and later: Unicode placeholders (`supportsPlaceholders`,
///   `KittyPlaceholderBackend`, inside tmux).
/// - 0.33 and later: deletion by id range (`d=R`, `pxview clear` with
///   nothing remembered; older versions ignore it).
/// - 0.48.2: new data under an id takes the image's pictures away before
///   it arrives, placeholder cells are drawn again only when their text
///   changes or a `U=1` command comes (`KittyPlaceholderBackend`: two ids
///   per slot, the virtual placement last), a preview under an id deleted
///   just before showed black (`PreviewPlacement`: never reused), and the
///   window is sometimes not drawn after the last picture command until
///   more input comes (`GraphicsBackend.followUp`, a nudge 50 ms after a
///   preview). The fixes are harmless in 0.26.5, so they are not
///   switched by version.
package struct TerminalTraits: Equatable, Sendable {
    /// kitty's version, when the terminal is kitty.
    package var kittyVersion: [Int]?
    /// Konsole keeps a sixel picture until another picture covers it whole,
    /// the screen is cleared or a kitty delete command names it: text
    /// written over it (ECH, spaces, EL) does not remove it (seen in Konsole
    /// 22.12; its `Screen::addPlacement` only drops fully covered pictures).
    /// It also paints unpainted sixel pixels with colour register 0.
    package var isKonsole: Bool
    /// WezTerm, which draws block characters itself (`custom_block_glyphs`,
    /// on by default).
    package var isWezTerm: Bool

    package init(kittyVersion: [Int]? = nil, isKonsole: Bool = false, isWezTerm: Bool = false) {
        self.kittyVersion = kittyVersion
        self.isKonsole = isKonsole
        self.isWezTerm = isWezTerm
    }

    /// The terminal draws the sextants (U+1FB00-1FB3B) itself, whatever its
    /// font (`TerminalRow.drawsSextants`: kitty, Konsole, WezTerm).
    /// Elsewhere they depend on the font, which no query reveals:
    /// `PXVIEW_SEXTANTS=1` turns them on.
    package var drawsSextants: Bool { kittyVersion != nil || isKonsole || isWezTerm }

    /// From the terminal's identity (`TerminalTable`'s row for it).
    package init(terminal: TerminalIdentity?) {
        guard let terminal else {
            self.init()
            return
        }
        self.init(
            kittyVersion: terminal.kind == .kitty ? terminal.version : nil, isKonsole: terminal.kind == .konsole,
            isWezTerm: terminal.kind == .wezterm)
    }

    /// From XTVERSION's answer ("kitty(0.26.5)", "Konsole 22.12.3"…), read
    /// by the table.
    package init(version: String?) {
        self.init(terminal: version.flatMap(TerminalIdentity.init(naming:)))
    }

    /// Unicode placeholders arrived in kitty 0.28.0; Debian's 0.26.5 prints
    /// them as boxes.
    package var supportsPlaceholders: Bool {
        guard let version = kittyVersion, !version.isEmpty else { return false }
        return version.lexicographicallyPrecedes([0, 28]) == false
    }

    /// kitty's clipboard protocol (OSC 5522: any media type, an image
    /// too) came in kitty 0.27.0; others ignore it (`Y` says so instead).
    package var takesClipboardImages: Bool {
        guard let version = kittyVersion, !version.isEmpty else { return false }
        return version.lexicographicallyPrecedes([0, 27]) == false
    }

    /// kitty shrinks a scaled placement by its `X`/`Y` offset (the picture
    /// still ends on the box's last cell); Konsole shifts it instead. Only
    /// for kitty itself are pixel offsets used with scaling.
    package var scaledOffsetsShrink: Bool { kittyVersion != nil }
}

/// How this run draws: the method (one backend), the multiplexer the
/// graphics must pass through, the geometry, the background and the
/// terminal's quirks. Decided once from the probe in `decide`, the one
/// place the protocol is chosen; `makeBackend` is the one place that
/// branches on it.
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

    /// kitty > sixel > symbols when asked to choose. Inside tmux the
    /// probe went through passthrough (`ProbeQuery.bytes(for:)`), so the
    /// capabilities are the outer terminal's: kitty with Unicode
    /// placeholders where it has them, else kitty or sixel placed through
    /// passthrough. Without passthrough tmux drops graphics: symbols, and
    /// a hint naming the setting. `sextants` overrides what the terminal
    /// is known to draw (`PXVIEW_SEXTANTS`). On the Linux console
    /// (`linuxConsole`: `TERM=linux`) text is half-blocks: the VGA font's
    /// 256 characters (code page 437) have `▀ ▄ █ ▌ ▐` but none of the
    /// eighths or quadrants (console-setup's fonts vary; `--protocol
    /// symbols` asks for them).
    package static func decide(
        choice: ProtocolChoice, capabilities: TerminalCapabilities?, multiplexer: Multiplexer,
        geometry: TerminalGeometry, background: BackgroundChoice = .auto, sextants: Bool? = nil, linuxConsole: Bool = false,
        glyphs: Glyphs = .unicode
    ) -> DrawingPlan {
        let traits = TerminalTraits(terminal: capabilities?.terminal)
        let blocked = multiplexer.blocksGraphics
        let kittyMethod: DrawingMethod =
            multiplexer.wrapsGraphics && traits.supportsPlaceholders ? .kittyPlaceholders : .kitty
        let text: DrawingMethod = linuxConsole ? .blocks : .symbols
        let method: DrawingMethod
        switch choice {
        case .sixel: method = .sixel
        case .kitty: method = kittyMethod
        case .symbols: method = .symbols
        case .blocks: method = .blocks
        case .auto:
            if blocked {
                method = text
            } else if capabilities?.kittyGraphics == true {
                method = kittyMethod
            } else if capabilities?.sixel == true {
                method = .sixel
            } else {
                method = text
            }
        }
        let hint = blocked && choice != .symbols && choice != .blocks ? Multiplexer.passthroughHint : nil
        var drawing = DrawingPlan(
            method: method, geometry: geometry, multiplexer: multiplexer, background: background, traits: traits,
            synchronizedOutput: !multiplexer.wrapsGraphics && (capabilities?.synchronizedOutput ?? false), hint: hint,
            reportsCellSize: capabilities?.reportsCellSize ?? false)
        if method == .kitty, !multiplexer.wrapsGraphics { drawing.kittyMedium = capabilities?.kittyMedium ?? .direct }
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
        if choice == .auto, Self.backendType(drawing.method).picturesAreText {
            drawing.shortfall = GraphicsShortfall(report: report)
        }
        return drawing
    }

    /// The backend for `method`: the only switch over drawing methods.
    /// The backend that draws `method`: the one place a method is turned
    /// into its backend.
    package static func backendType(_ method: DrawingMethod) -> any GraphicsBackend.Type {
        switch method {
        case .sixel: return SixelBackend.self
        case .kitty: return KittyBackend.self
        case .kittyPlaceholders: return KittyPlaceholderBackend.self
        case .symbols, .blocks: return TextBackend.self
        }
    }

    package func makeBackend(resampler: Resampler = Resampler()) -> any GraphicsBackend {
        switch method {
        case .sixel: return SixelBackend(drawing: self, resampler: resampler)
        case .kitty: return KittyBackend(drawing: self, resampler: resampler)
        case .kittyPlaceholders: return KittyPlaceholderBackend(drawing: self, resampler: resampler)
        case .symbols, .blocks: return TextBackend(drawing: self, resampler: resampler)
        }
    }

    /// For `PXVIEW_DEBUG`.
    package var summary: String {
        "drawing \(method.rawValue), multiplexer \(multiplexer), cells \(geometry.windowCells) of \(geometry.cellPixels) px, "
            + "background \(background)\(geometry.background.map { " over \($0.r),\($0.g),\($0.b)" } ?? "")"
            + (method == .kitty ? ", kitty pixels via \(kittyMedium.rawValue)" : "")
            + (method == .symbols ? (sextants ? ", with sextants" : ", no sextants") : "")
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
