import Foundation
import Pixels
import Rendering
import Terminal

/// `pxview doctor`: what pxview found out about the terminal and why it
/// draws the way it does, one line per finding, then the fix for each thing
/// that limits the picture. Asks exactly as a run would (`InlineDrawing.report`),
/// so what it says is what the grid and `show` get.
enum Doctor: PXCommand {
    static let json = Flag("--json", help: "the findings as one JSON object, for scripts")
    static let prime = Flag(
        "--prime",
        help: "ask the terminal only if nothing is remembered for it yet, and print nothing: a line for a shell's rc, "
            + "so previews in this terminal know what it draws")

    static let spec = CommandSpec(
        name: "doctor", abstract: "what pxview found out about the terminal, and how to get real pixels",
        arguments: "", usage: "pxview doctor [--json | --prime] [--protocol P]",
        summary: """
            Asks the terminal what a run would ask and prints one line per finding: the terminal
            and its version, tmux and its passthrough, what the probe answered and how long it
            took, the protocol chosen and why, cell and window size, sixel registers and limit,
            background colour, how kitty gets pixels, the locale; then a fix for each thing that
            limits the picture. Works inside tmux and without a terminal (then it says there is none).
            """,
        options: [json, prime] + GlobalOption.all + [CommonOption.help], maxPositionals: 0)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let view = try ViewOptions(parsed, environment: environment)
        // The terminal itself, whatever standard output is: `pxview doctor
        // > /dev/null` in a shell's rc primes the memory previews read.
        let tty = ControllingTerminal.output()
        defer { tty?.close() }
        let ttyFD = tty?.fd ?? 1
        if parsed.has(prime) {
            // Every new shell runs it: a terminal already known is not asked
            // again (asking discards keys typed meanwhile).
            guard tty != nil else { return ExitCode.success }
            let pane = Tmux(environment: environment)?.paneState()
            if let window = windowSize(fd: ttyFD),
                TerminalMemory(environment: environment, ttyFD: ttyFD).recalled(winsize: window, tmuxPane: pane) != nil
            {
                return ExitCode.success
            }
            _ = InlineDrawing.report(view: view, environment: environment, debugLines: false, ttyFD: ttyFD)
            return ExitCode.success
        }
        let (report, drawing) = InlineDrawing.report(
            view: view, environment: environment, debugLines: false, ttyFD: ttyFD)
        var findings = Findings(
            report: report, drawing: drawing, choice: view.protocolChoice, environment: environment)
        if report.capabilities != nil, report.outcome == nil || report.timedOut {
            // Nothing learnt now: what a preview would make of the terminal without asking it.
            let (preview, previewReport) = Preview.drawingPlan(view: view, environment: environment, ttyFD: ttyFD)
            findings.preview = (preview.method, previewReport.knownFrom ?? "nothing")
        }
        Output.out(parsed.has(json) ? findings.json + "\n" : findings.lines.joined(separator: "\n") + "\n")
        return ExitCode.success
    }
}

/// What `pxview doctor` says, as a pure function of what was found (tests
/// check it line by line).
struct Findings {
    var report: ProbeReport
    var drawing: DrawingPlan
    var choice: ProtocolChoice
    var environment: [String: String]
    /// What a preview (`show --place`, which asks nothing) would draw and
    /// why, when this run learnt nothing it could remember.
    var preview: (method: DrawingMethod, knownFrom: String)?

    init(report: ProbeReport, drawing: DrawingPlan, choice: ProtocolChoice, environment: [String: String]) {
        self.report = report
        self.drawing = drawing
        self.choice = choice
        self.environment = environment
    }

    /// (label, value) in the order printed.
    var entries: [(String, String)] {
        var out: [(String, String)] = []
        guard let capabilities = report.capabilities else {
            out.append(("terminal", "none: no terminal to ask (pxview describes images instead of drawing)"))
            out.append(("multiplexer", report.multiplexer.description))
            out.append(("protocol", protocolLine))
            out.append(("locale", localeLine))
            for fix in fixes { out.append(("fix", fix)) }
            return out
        }
        // tmux names the terminal outside it even where its queries cannot pass.
        let terminal =
            capabilities.terminalVersion
            ?? report.tmuxPane?.clientTermType.map { "\($0) (tmux's client_termtype)" }
            ?? "did not say its name (no XTVERSION answer)"
        out.append(("terminal", terminal))
        out.append(("multiplexer", multiplexerLine))
        if let pane = report.tmuxPane {
            let shown = pane.isShown ? (pane.paneActive ? "shown, active" : "shown, not active") : "not shown"
            out.append(
                (
                    "tmux pane",
                    "at column \(pane.left), row \(pane.top) of the window, \(pane.width)x\(pane.height) cells, \(shown)"
                ))
        }
        out.append(("probe", probeLine))
        if let replies = report.outcome?.replies {
            out.append(("kitty graphics", replies.kittyGraphicsMessage.map { "answered \($0)" } ?? "no answer"))
            let attributes = replies.deviceAttributes.map { $0.map(String.init).joined(separator: ";") }
            out.append(
                (
                    "sixel",
                    capabilities.sixel
                        ? "yes (DA1 ?\(attributes ?? ""))" : "no" + (attributes.map { " (DA1 ?\($0) has no 4)" } ?? "")
                ))
            if let version = replies.multiplexerVersion { out.append(("tmux answered", version)) }
        }
        out.append(("protocol", protocolLine))
        let words = drawing.doctorWords
        if words.showsGlyphs { out.append(("glyphs", glyphsLine)) }
        let geometry = drawing.geometry
        let window = geometry.windowPixels.map { ", \($0.width)x\($0.height) px" } ?? ", pixel size not reported"
        out.append(("window", "\(geometry.windowCells.width)x\(geometry.windowCells.height) cells\(window)"))
        out.append(("cell", "\(geometry.cellPixels.width)x\(geometry.cellPixels.height) px\(cellSource(capabilities))"))
        if capabilities.sixel || words.showsSixelLimits {
            let registers = capabilities.colorRegisters.map { "\($0) (pxview uses \(geometry.colorRegisters))" }
            out.append(("colour registers", registers ?? "not reported"))
            out.append(("sixel limit", capabilities.sixelMaxSize.map { "\($0.width)x\($0.height) px" } ?? "not reported"))
        }
        out.append(("background", capabilities.backgroundColor.map(Self.hex) ?? "not reported (assumed dark)"))
        if words.showsKittyTransfer {
            out.append(("kitty transfer", transferLine))
        }
        out.append(("previews", previewLine))
        out.append(("locale", localeLine))
        for fix in fixes { out.append(("fix", fix)) }
        return out
    }

    /// What `show --place` (which asks the terminal nothing) uses here.
    var previewLine: String {
        if let preview { return "\(preview.method.rawValue) (show --place asks nothing: from \(preview.knownFrom))" }
        return "\(drawing.method.rawValue) (show --place asks nothing: this probe's answers are kept for it, 24 h)"
    }

    var lines: [String] {
        let entries = self.entries
        let width = (entries.map { $0.0.count }.max() ?? 0) + 2
        return entries.map { label, value in
            label + String(repeating: " ", count: width - label.count) + TerminalText.sanitize(value)
        }
    }

    /// The same findings keyed by label (`fix` as a list).
    var json: String {
        var object: [String: Any] = [:]
        var fixList: [String] = []
        for (label, value) in entries {
            if label == "fix" { fixList.append(value) } else { object[label.replacingOccurrences(of: " ", with: "_")] = value }
        }
        object["fixes"] = fixList
        object["drawing"] = drawing.method.rawValue
        object["probe_ms"] = report.outcome?.elapsedMs
        object["probe_timed_out"] = report.timedOut
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    var multiplexerLine: String {
        switch report.multiplexer {
        case .none: return "none"
        case .tmux(let passthrough):
            return "tmux, allow-passthrough \(passthrough ? "on" : "off")"
        case .remoteTmux(let passthrough):
            return "tmux without $TMUX (a remote shell?): passthrough "
                + (passthrough ? "on (the outer terminal answered through it)" : "off (only tmux answered)")
        }
    }

    var probeLine: String {
        switch report.skipped {
        case .notATerminal?: return "not sent: no terminal"
        case .notAsked?: return "not sent"
        case .background?: return "not sent: pxview is not the terminal's foreground job"
        case .paneNotActive?: return "not sent: pxview's tmux pane is not the active one (the answers would go there)"
        case nil: break
        }
        guard let outcome = report.outcome else { return "not sent: the terminal could not be opened" }
        if outcome.timedOut { return "no answer within \(report.timeoutMs) ms (PXVIEW_PROBE_TIMEOUT_MS)" }
        return "answered in \(outcome.elapsedMs) ms (limit \(report.timeoutMs) ms)"
    }

    var protocolLine: String {
        let method = drawing.method.rawValue
        if choice != .auto {
            let source = environment["PXVIEW_PROTOCOL"].map { _ in "PXVIEW_PROTOCOL" } ?? "--protocol"
            return "\(method) (\(source) \(choice.rawValue))"
        }
        let capabilities = report.capabilities
        let words = drawing.doctorWords
        let why: String
        if let chosen = words.whyChosen {
            why = chosen
        } else if let shortfall = drawing.shortfall {
            why = shortfall.reason
        } else if capabilities == nil {
            why = "no terminal"
        } else {
            why = "the terminal draws neither kitty graphics nor sixel"
        }
        let console = words.note
        return "\(method) (auto: \(why)\(console))"
    }

    /// Which characters a `symbols` picture uses, and why.
    var glyphsLine: String {
        if drawing.glyphs == .ascii { return "none: coloured spaces (the locale is not UTF-8)" }
        let blocks = "eighths, halves and quadrants"
        let setting = environment["PXVIEW_SEXTANTS"].flatMap { $0.isEmpty ? nil : $0 }
        if drawing.sextants {
            return "\(blocks) and sextants (" + (setting != nil ? "PXVIEW_SEXTANTS=1)" : "the terminal draws them)")
        }
        if setting != nil { return "\(blocks) (PXVIEW_SEXTANTS=0)" }
        return "\(blocks) (PXVIEW_SEXTANTS=1 adds sextants where the font has them)"
    }

    func cellSource(_ capabilities: TerminalCapabilities) -> String {
        if drawing.geometry.cellSizeFixed { return " (--cell-size)" }
        if capabilities.cellSize == nil { return " (assumed: nothing reported it)" }
        return ""
    }

    var transferLine: String {
        switch drawing.kittyMedium {
        case .sharedMemory: return "shared memory (kitty reads pixels from this machine: no compression, no base64)"
        case .file: return "temporary files (kitty reads pixels from this machine)"
        case .direct:
            if report.multiplexer.wrapsGraphics { return "through the terminal (inside tmux)" }
            // Not asked at all: the variable says so, not kitty.
            if environment["PXVIEW_KITTY_TRANSFER"] == "direct" {
                return "through the terminal (PNG, base64): PXVIEW_KITTY_TRANSFER=direct"
            }
            return "through the terminal (PNG, base64): kitty could not read this machine's memory"
        }
    }

    var localeLine: String {
        let locale = TerminalLocale(environment: environment)
        return "\(locale.name) (\(locale.isUTF8 ? "UTF-8" : "not UTF-8"))"
    }

    /// One line per thing the user can change.
    var fixes: [String] {
        var fixes: [String] = []
        if let shortfall = drawing.shortfall { fixes.append(shortfall.fix) }
        if let limit = report.capabilities?.sixelMaxSize, drawing.doctorWords.showsSixelLimits,
            let window = drawing.geometry.windowPixels, limit.width < window.width || limit.height < window.height
        {
            fixes.append(
                "sixel pictures are capped at \(limit.width)x\(limit.height) px, smaller than the window: "
                    + "'XTerm*maxGraphicSize: 4096x4096' in ~/.Xresources (xterm) draws them whole")
        }
        if !TerminalLocale(environment: environment).isUTF8 {
            fixes.append("export LANG=C.UTF-8 (or another UTF-8 locale) for frames and text in UTF-8")
        }
        return fixes
    }

    static func hex(_ color: RGBA) -> String {
        String(format: "#%02x%02x%02x", color.r, color.g, color.b)
    }
}
