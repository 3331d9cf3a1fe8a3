import Decoding
import Foundation
import HTTP
import Photos
import Pixels
import Plumbing
import Rendering
import Terminal
import TerminalPictures

#if canImport(Glibc)
    import Glibc
#endif

/// Where previews of lf, fzf, ranger and nnn go: `show --once --place
/// COLSxROWS@X,Y` draws one picture into that box of cells and `clear`
/// takes it away. Built for a terminal another program owns:
///
/// - Pictures go to the terminal itself (`/dev/tty` when standard output is
///   a pipe, as lf's and fzf's are: a pipe keeps only colour codes), never
///   to standard output.
/// - Nothing is asked of the terminal: its answers would become the host's
///   keystrokes (in lf, `e` from xterm's `XTerm` answer opened vim). The
///   protocol comes from `--protocol`/`PXVIEW_PROTOCOL`, an earlier probe of
///   the same terminal, tmux, or the environment (`recallTerminal`).
/// - One write: cursor saved, the box blanked (sixel, text), the picture
///   placed row by row, the last preview deleted (kitty, which uses a new
///   image id each time), the cursor restored, so the host cannot move
///   the cursor in between and the box is never empty.
/// - Never a scroll: a sixel that would touch the last row is one row
///   shorter; kitty places with `C=1`.
/// - Inside tmux the box is the pane's (pane-relative, as lf passes it),
///   placed at the pane's offset on the outer screen.
enum Preview {
    /// The terminal a preview writes to: stdout when it is one, else `/dev/tty`.
    static func terminalOutput() throws -> ControllingTerminal {
        // Cut short (SIGTERM while the terminal reads nothing), a preview
        // closes its string and puts the host's cursor back.
        OutputGuard.installForPreview()
        guard let output = ControllingTerminal.previewOutput() else {
            throw CommandError("no terminal to draw on: standard output is not one and /dev/tty cannot be opened")
        }
        return output
    }

    /// The display a preview draws with, decided without asking the terminal.
    static func drawingPlan(view: ViewOptions, environment: [String: String], ttyFD: Int32) -> (DrawingPlan, ProbeReport) {
        let (report, drawing) = TerminalDisplay.recall(view.choices, environment: environment, ttyFD: ttyFD)
        return (drawing, report)
    }

    /// `show --once --place`: each file drawn into the box in turn (the
    /// last one stays); status 1 if any could not be.
    static func show(
        _ parsed: ParsedArguments, view: ViewOptions, box: CellRect, alignment: PreviewPlacement.Alignment
    ) async throws -> Int32 {
        let started = TerminalMemory.wallClockMs()
        let environment = ProcessInfo.processInfo.environment
        let output = try terminalOutput()
        defer { output.close() }
        let (probed, report) = Self.drawingPlan(view: view, environment: environment, ttyFD: output.fd)
        let window = probed.geometry.windowCells
        // Text where the protocol cannot draw in the box (a sixel on the
        // last row alone would scroll the screen).
        guard let (drawing, usable) = PreviewPlacement.fitting(box, drawing: probed) else {
            throw UsageError(
                message: "--place \(box.placeText) is outside the \(window.width)x\(window.height)-cell window",
                command: parsed.command)
        }
        let memory = TerminalMemory(environment: environment, ttyFD: output.fd)
        // The last kitty id used: the next picture goes under the one after
        // it, and replaces it when it is still on screen.
        let last = memory.lastPreview()
        var previous = memory.lastPreviewImageID(tmuxPane: report.tmuxPane) ?? last?.kittyImageID
        var onScreen = last?.cleared == false ? last?.kittyImageID : nil
        let backend = drawing.makeBackend()
        let client = CurlClient(userAgent: SourceContext.userAgent)
        let renderer = ImageRenderer()
        let unitBox = backend.screen.unitBox(cells: CellCount(width: usable.columns, height: usable.rows))
        var writer = FrameWriter(
            fd: output.fd, synchronizedOutput: false, multiplexer: drawing.multiplexer, sink: .guarded)
        writer.paneOrigin = report.tmuxPane?.screenOrigin
        var status = ExitCode.success
        for (input, path) in zip(parsed.positionals, parsed.positionalBytes) {
            let name = TerminalText.sanitize(input)
            do {
                let bytes = try await Show.load(input, path: path, client: client)
                // The host's screen must not get the libraries' stderr lines.
                let decoded = try StderrCapture.around(said: Output.librarySaid) { () throws(DecodeError) in
                    try renderer.decode(
                        bytes, settings: view.settings, box: unitBox, drawing: drawing, screen: backend.screen,
                        maxPixels: view.maxPixels)
                }
                let viewport = renderer.viewport(
                    for: decoded.fullSize, settings: view.settings, box: unitBox, screen: backend.screen)
                let pixels = renderer.pixels(decoded.image, viewport: viewport, screen: backend.screen)
                let shot = PreviewPlacement.shot(
                    pixels, backend: backend, in: usable, alignment: alignment, after: previous, replacing: onScreen)
                // A clear that started after this preview (lf's cleaner, run
                // as the selection moved on while this decoded) wins: nothing
                // is drawn.
                if memory.lastPreview()?.lastClearMs ?? 0 > started { break }
                // Remembered before it is drawn: a `clear` racing it then
                // finds it newer than itself and leaves it.
                memory.rememberPreview(
                    TerminalMemory.PreviewRecord(
                        box: usable, method: drawing.method.rawValue, kittyImageID: shot.imageID, startedMs: started))
                try writer.write(shot.bytes)
                if let id = shot.imageID {
                    previous = id
                    onScreen = id
                    memory.rememberPreviewImageID(id, tmuxPane: report.tmuxPane)
                    try? await Task.sleep(for: .milliseconds(PreviewPlacement.followUpDelayMs))
                    try writer.write(shot.followUp)
                }
            } catch let error as LocalFileError {
                Output.err("pxview: \(error)\n")
                status = ExitCode.failure
            } catch let error as DecodeError {
                Output.err("pxview: cannot decode \(name): \(error)\n")
                status = ExitCode.failure
            }
        }
        return status
    }
}

extension ViewFlags {
    static let place = Option<CellRect>(
        "--place", "COLSxROWS@X,Y",
        help: "draw into this box of cells (X,Y zero-based from the top-left, as lf passes them) on the terminal itself, "
            + "asking it nothing: for file managers' previews"
    ) { value throws(UsageError) in
        guard let box = CellRect(placeText: value.text), box.columns <= 2048, box.rows <= 2048, box.column < 2048,
            box.row < 2048
        else {
            throw UsageError(
                message: "--place expects COLSxROWS@X,Y, like 40x20@60,1 (got '\(TerminalText.sanitize(value.text))')",
                command: value.command)
        }
        return box
    }
    static let align: Option<PreviewPlacement.Alignment> = .choice(
        "--align", "A", help: "with --place: center (default) or top-left in the box")
}

/// `pxview clear [--place COLSxROWS@X,Y]`: takes pxview's preview away and
/// nothing else: kitty's by the last preview's own image id (every id
/// previews use when none is remembered), sixel and text by blanking the
/// box (the last preview's when none is given).
enum Clear: PXCommand {
    static let spec = CommandSpec(
        name: "clear", abstract: "take pxview's preview picture away (a file manager's cleaner)", arguments: "",
        usage: "pxview clear [--place COLSxROWS@X,Y]",
        summary: """
            Removes the picture 'pxview show --once --place' drew, and nothing else: kitty's by the
            preview's own image id, sixel and text by blanking the box (given, or the last
            preview's). Like --place, it writes to the terminal itself and asks it nothing.
            """,
        options: [ViewFlags.place] + GlobalOption.all + [CommonOption.help], maxPositionals: 0)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let started = TerminalMemory.wallClockMs()
        let environment = ProcessInfo.processInfo.environment
        let view = try ViewOptions(parsed, environment: environment)
        let output = try Preview.terminalOutput()
        defer { output.close() }
        let (drawing, report) = Preview.drawingPlan(view: view, environment: environment, ttyFD: output.fd)
        let memory = TerminalMemory(environment: environment, ttyFD: output.fd)
        // Noted first: a preview that started before this clear and has not
        // drawn yet (a slow decode) then draws nothing. Nil: nothing was
        // remembered.
        let remembered = memory.lastPreview() != nil
        let noted = memory.previewCleared(nil, startedMs: started)
        let last = remembered ? noted : nil
        // A preview started after this clear (lf runs the cleaner for the
        // last file and the previewer for the next at once) is the one the
        // user wants: it already replaced the last one.
        if let last, last.startedMs > started { return ExitCode.success }
        // Only the part inside the window (2048x2048 wrote 40 KB of erases past a 120x40 one).
        let given = try parsed.value(ViewFlags.place).map {
            PreviewPlacement.clamped($0, window: drawing.geometry.windowCells)
        }
        let box = given ?? (last?.cleared == false ? last?.box : nil)
        let clearing = PreviewPlacement.clearingBytes(
            box, method: drawing.method,
            kittyImageIDs: last.map { $0.cleared ? [] : $0.kittyImageID.map { [$0] } ?? [] })
        if !clearing.isEmpty {
            var writer = FrameWriter(
                fd: output.fd, synchronizedOutput: false, multiplexer: drawing.multiplexer, sink: .guarded)
            writer.paneOrigin = report.tmuxPane?.screenOrigin
            try writer.write(clearing)
        }
        if let last { memory.previewCleared(last, startedMs: started) }
        return ExitCode.success
    }
}
