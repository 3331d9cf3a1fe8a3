import Decoding
import Explorer
import Foundation
import HTTP
import Photos
import Pixels
import Plumbing
import Rendering
import Scaling
import Terminal
import TerminalPictures

#if canImport(Glibc)
    import Glibc
#endif

/// `--rotate`'s angles, clockwise.
enum QuarterTurns: String, CaseIterable, Sendable {
    case none = "0"
    case quarter = "90"
    case half = "180"
    case threeQuarters = "270"
}

/// `pxview show PATH|URL...` with `--once` or off a terminal: draws each
/// image once, in order (on a terminal the viewer opens: `Viewer`). A file that
/// cannot be read or decoded gets one line on stderr and the rest still draw;
/// the exit status is 1 if any failed.
enum Show: PXCommand {
    static let once = Flag("--once", help: "draw each image once and exit, no viewer")
    static let interactive = Flag(
        "--interactive", aliases: ["-i"], help: "the viewer (the default on a terminal; kept for scripts)")
    static let animate = Flag(
        "--animate", help: "with --once: play an animation in place until a key, Ctrl-C or its last loop")
    static let printMarked = Flag(
        "--output-marked", aliases: ["-o"],
        help: "when the viewer or grid ends, print the files marked with m on standard output, one a line (-0: NUL-ended)")
    static let slideshow = Option<Int>(
        "--slideshow", "SECONDS", help: "the viewer moves on to the next photo every SECONDS (0.2 to 86400; S stops it)"
    ) { value throws(UsageError) in
        guard let seconds = Double(value.text), seconds >= 0.2, seconds <= 86400 else {
            throw UsageError(
                message:
                    "\(value.option) expects seconds from 0.2 to 86400, like 5 or 1.5 (got '\(TerminalText.sanitize(value.text))')",
                command: value.command)
        }
        return Int((seconds * 1000).rounded())
    }
    static let grid: Option<PixelSize> = .size(
        "--grid", "COLSxROWS", help: "draw the files once as a contact sheet, COLS a row, ROWS to a window's height",
        limit: 64, example: "3x2")
    static let title = Flag("--title", help: "with --grid: each picture's file name under it")
    static let rotate: Option<QuarterTurns> = .choice(
        "--rotate", "0|90|180|270", help: "turn the picture clockwise (the view only: the file is left as it is)")
    static let saveFolder: Option<[UInt8]> = .path(
        "--out", "DIR", help: "the viewer's s saves copies of files into DIR (without it, s asks for a folder)")
    static let loops: Option<Int> = .positiveInteger(
        "--loops", "N", help: "with --animate: play it N times (default: as the file says)")

    static let spec = CommandSpec(
        name: "show", abstract: "view images from files, URLs or a folder", arguments: "PATH|URL|DIR",
        usage: "pxview show [OPTIONS] PATH|URL|DIR...",
        summary: """
            On a terminal, opens the viewer on the first image (n/p step through the others);
            a folder opens as a grid of its images. With --once, or when standard output is
            not a terminal, draws each image once instead (without --size/--cells in the
            terminal's box); with no terminal and no --protocol, prints a one-line description
            of each image instead of escape codes.
            A PATH of - is the file names on standard input, one a line (-0: NUL-separated),
            keys then coming from the terminal. -r takes in subfolders; --sort name|mtime|
            size|random (and --reverse) orders folders' images and the files given.
            Formats: \(ImageFormat.namesPhrase).
            An animation plays in the viewer (Ctrl-A pauses); --once draws its first frame,
            --once --animate plays it in place.
            """,
        options: ViewOption.all + [ViewOption.place, ViewOption.align] + InputList.all + GlobalOption.all
            + [once, animate, loops, rotate, slideshow, grid, title, interactive, printMarked, saveFolder, CommonOption.help],
        maxPositionals: nil, minPositionals: 1, positionals: .files, missing: ("a PATH or URL", "pxview show photo.jpg"),
        keys: [KeyTables.viewer, KeyTables.folderGrid])

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let view = try ViewOptions(parsed)
        if let box = try parsed.value(ViewOption.place) {
            // A file manager's preview: one picture into that box, asking the terminal nothing.
            return try await Preview.show(
                parsed, view: view, box: box, alignment: try parsed.value(ViewOption.align) ?? .center)
        }
        let inputs = try InputList.expandingStandardInput(parsed)
        let marksOutput = parsed.has(printMarked) && !parsed.has(once) ? InputList.terminalOutputForMarks() : 1
        // On a terminal the viewer is the default: keys typed next zoom and
        // pan instead of landing in the shell.
        let sheet = try parsed.value(grid)
        if view.opensViewer(once: parsed.has(once) || sheet != nil) {
            // Once silently ignored: the viewer plays as the file says.
            if let given = parsed.has(animate) ? animate.spec.name : parsed.values[loops.spec.name] != nil ? loops.spec.name : nil
            {
                throw UsageError(
                    message: "\(given) plays an animation in place, with --once (the viewer plays it as the file says)",
                    command: parsed.command)
            }
            return try await Viewer.run(parsed, view: view, inputs: inputs, marksOutput: marksOutput)
        }
        let files = try InputList.files(
            inputs, recursive: parsed.has(InputList.recursive), order: try parsed.value(InputList.sort),
            reverse: parsed.has(InputList.reverse))
        let screen = InlineDrawing.prepare(view: view)
        let plays = try parsed.value(loops)
        let animating = parsed.has(animate) || plays != nil
        let turn = ImageTurn(quarterTurns: (try parsed.value(rotate)).map { Int($0.rawValue)! / 90 } ?? 0)
        let client = CurlClient(userAgent: SourceContext.userAgent)  // loads libcurl only if used
        var status = ExitCode.success
        var imageID = ImageIDs.base()
        defer { screen.finish() }
        if let sheet, screen.drawsGraphics {
            return await contactSheet(
                files, grid: sheet, titled: parsed.has(title), view: view, screen: screen, client: client, turn: turn)
        }
        for (input, path) in files {
            // Ctrl-C during an animation: the files after it are not drawn.
            if ProcessSignals.terminationRequested != nil { break }
            defer { imageID += 1 }
            do {
                let bytes = try await load(input, path: path, client: client)
                status = max(
                    status,
                    draw(
                        bytes: bytes, name: TerminalText.sanitize(input), view: view, screen: screen, imageID: imageID,
                        animation: animating ? .some(plays) : nil, turn: turn))
            } catch {
                Output.err("pxview: \(error)\n")
                status = ExitCode.failure
            }
        }
        return status
    }

    /// `--grid COLSxROWS`: the files as a contact sheet in the scrollback,
    /// COLS tiles a row (the window's columns shared out), each row
    /// `1/ROWS` of the window's height, a row drawn as soon as its files are
    /// in (`ThumbnailStrip`, as `search`'s strip); `titled`: each file's
    /// name under its tile. A file that cannot be read or decoded is a line
    /// on stderr and a tile saying so; the exit status is then 1.
    static func contactSheet(
        _ files: [InputList.Input], grid: PixelSize, titled: Bool, view: ViewOptions, screen: InlineDrawing,
        client: CurlClient, turn: ImageTurn
    ) async -> Int32 {
        let units = screen.backend.screen
        let window = view.cells ?? units.windowCells
        let tileCells = PixelSize(
            width: max(4, (window.width + ThumbnailStrip.gap) / grid.width - ThumbnailStrip.gap),
            height: max(2, window.height / grid.height - (titled ? 1 : 0)))
        let box = units.unitBox(cells: tileCells)
        var status = ExitCode.success
        var imageID = ImageIDs.base()
        var start = 0
        while start < files.count {
            var tiles: [StripTile] = []
            for (input, path) in files[start..<min(files.count, start + grid.width)] {
                defer { imageID += 1 }
                let name =
                    Show.isURL(input)
                    ? input : String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
                var bytes: [UInt8]?
                do {
                    bytes = try await load(input, path: path, client: client)
                } catch {
                    Output.err("pxview: \(error)\n")
                }
                let tile = stripTile(
                    bytes, label: TerminalText.sanitize(name), box: box, screen: screen, maxPixels: view.maxPixels,
                    imageID: imageID, turn: turn)
                if tile.picture == nil {
                    if bytes != nil { Output.err("pxview: cannot decode \(TerminalText.sanitize(input))\n") }
                    status = ExitCode.failure
                }
                tiles.append(tile)
            }
            screen.draw(
                ThumbnailStrip.compose(tiles, terminalColumns: window.width, tileCells: tileCells, labelled: titled))
            start += grid.width
        }
        return status
    }

    /// Draws already-fetched image bytes (`open` uses it too). `animation`
    /// (set by `--animate`): play an animation in place, its own number of
    /// passes or the one given (`--loops`). `turn`: `--rotate`.
    static func draw(
        bytes: [UInt8], name: String, view: ViewOptions, screen: InlineDrawing, imageID: UInt32 = ImageIDs.base(),
        animation: Int?? = nil, turn: ImageTurn = ImageTurn()
    ) -> Int32 {
        let renderer = ImageRenderer()
        do {
            // The decoded image lives only until the view is resampled: an
            // 8 MP photo is 33 MB of pixels the encoder does not need
            // (peak RSS of a 2560x1440 sixel `show`: 70 MB with it kept, 62 MB without).
            let pixels: RGBAImage
            do {
                // A drawing shows an animation's first frame; a description counts them all.
                // The libraries' own stderr lines are not pxview's one line.
                var decoded = try StderrCapture.around(said: Output.librarySaid) { () throws(DecodeError) in
                    // Decoded for the box as the unturned picture meets it (the DCT scale).
                    try renderer.decode(
                        bytes, settings: view.settings, box: turn.turnedSize(screen.box), drawing: screen.drawing,
                        screen: screen.backend.screen, maxPixels: view.maxPixels,
                        maxFrames: screen.drawsGraphics && animation == nil ? 1 : nil)
                }
                if turn != ImageTurn() {
                    decoded = decoded.mapImages { $0.turned(turn) }
                    decoded.fullSize = turn.turnedSize(decoded.fullSize)
                }
                for warning in decoded.warnings {
                    Output.err("pxview: warning: \(name): \(TerminalText.sanitize(warning))\n")
                }
                if let note = decoded.colourProblem ?? decoded.colour?.description {
                    SourceContext.debugNote()?("\(name): colour: \(note)")
                }
                let viewport = renderer.viewport(
                    for: decoded.fullSize, settings: view.settings, box: screen.box, screen: screen.backend.screen)
                guard screen.drawsGraphics else {
                    Output.out(
                        "\(name): \(describe(decoded)), fits \(viewport.outputSize) px in a \(screen.box) box"
                            + " (not a terminal: pass --protocol to draw)\n")
                    return ExitCode.success
                }
                if let plays = animation, decoded.frames.count > 1 {
                    play(decoded, plays: plays ?? decoded.loopCount, viewport: viewport, screen: screen, imageID: imageID)
                    return ExitCode.success
                }
                if screen.drawsRowsAsMade {
                    // kitty through the pty: resampled, encoded and written
                    // a block of rows at a time, the picture never whole.
                    screen.drawInline(renderer.rows(decoded.image, viewport: viewport), imageID: imageID)
                    return ExitCode.success
                }
                pixels = renderer.pixels(decoded.image, viewport: viewport, screen: screen.backend.screen)
            }
            // The backend leaves the cursor on a fresh line below the picture, where the prompt goes.
            screen.drawInline(pixels, imageID: imageID)
            return ExitCode.success
        } catch {
            Output.err("pxview: cannot decode \(name): \(error)\n")
            return ExitCode.failure
        }
    }

    /// Plays `decoded`'s frames in place (`InlineAnimation`) until its
    /// passes end or a key comes on standard input, when that is a terminal
    /// (in raw mode meanwhile, so the key is not echoed).
    static func play(_ decoded: DecodedImage, plays: Int, viewport: Viewport, screen: InlineDrawing, imageID: UInt32) {
        let renderer = ImageRenderer()
        var player = InlineAnimation(
            delays: decoded.frames.map(\.playbackDelayMs), plays: plays, backend: screen.backend, imageID: imageID
        ) { renderer.pixels(decoded.frames[$0].image, viewport: viewport, screen: screen.backend.screen) }
        let keys = Output.isTerminal(0) ? try? TerminalSession(inputFD: 0, outputFD: 1, options: .rawModeOnly) : nil
        defer { keys?.restore() }
        if player.play(keys: keys == nil ? nil : 0, draw: { screen.draw($0) }) == .interrupted {
            // Ctrl-C in raw mode: end as SIGINT would (the shell sees 130).
            ProcessSignals.requestTermination(SIGINT)
        }
    }

    /// "GIF 400x250, 12 frames, 0.96 s" (one pass, as the viewer plays it), or "JPEG 1920x1280".
    static func describe(_ decoded: DecodedImage) -> String {
        let colour = decoded.colour.map { ", \(TerminalText.sanitize($0.description))" } ?? ""
        let still = "\(decoded.format.displayName) \(decoded.fullSize)"
        guard decoded.isAnimated else { return still + colour }
        let centiseconds = (decoded.durationMs + 5) / 10
        let seconds = "\(centiseconds / 100).\(centiseconds % 100 < 10 ? "0" : "")\(centiseconds % 100)"
        return still + ", \(decoded.frameCount) frames, \(seconds) s" + colour
    }

    /// True for what `load` fetches through libcurl rather than reads from disk.
    static func isURL(_ input: String) -> Bool {
        let lower = input.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file://")
    }

    /// Reads a local file, or fetches an http(s) or file:// URL. `path` is
    /// the argument's bytes as argv held them (default: its UTF-8): a file
    /// name need not be UTF-8. Every failure is a `LocalFileError` naming the
    /// input, sanitized for the terminal.
    static func load(_ input: String, path: [UInt8]? = nil, client: CurlClient) async throws(LocalFileError) -> [UInt8] {
        let name = TerminalText.sanitize(input)
        func fail(_ reason: String) -> LocalFileError { LocalFileError(name: name, reason: TerminalText.sanitize(reason)) }
        if isURL(input) {
            let response: HTTPResponse
            do {
                // Typed by the user: file:// is theirs to read.
                response = try await client.fetch(HTTPRequest(url: input, allowsFileURL: true))
            } catch {
                throw fail(String(describing: error))
            }
            guard response.status == 200 else { throw fail("HTTP status \(response.status)") }
            return response.body
        }
        do {
            return try RawFile.read(path ?? Array(input.utf8), limit: maxFileBytes)
        } catch {
            throw fail(error.reason)
        }
    }

    /// No image a terminal can show is larger (the 100-megapixel decode
    /// limit is reached long before).
    static let maxFileBytes = 256 << 20
}

/// The view flags shared by `show`, `open` and the viewer, checked up front.
struct ViewOptions {
    var protocolChoice: ProtocolChoice
    var protocolGiven: Bool
    var size: PixelSize?
    var cells: CellCount?
    var cellSize: PixelSize?
    var settings: ViewSettings
    var maxPixels: Int
    var background: BackgroundChoice
    /// `PXVIEW_SEXTANTS`: 1 lets text pictures use sextants, 0 never; unset,
    /// the terminal decides (`TerminalTraits.drawsSextants`).
    var sextants: Bool?
    /// `TERM=linux`: the Linux console, whose font has half-blocks only.
    var linuxConsole: Bool

    /// What the probe's decision takes from these options.
    var choices: TerminalDisplay.Choices {
        TerminalDisplay.Choices(
            protocolChoice: protocolChoice, cellSize: cellSize, background: background, sextants: sextants,
            linuxConsole: linuxConsole)
    }

    /// Reads the flags in this order, so the first bad one is the one reported.
    /// Commands without the view options (`pxview`, `search -i`) get their defaults.
    init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(UsageError)
    {
        if let choice = try parsed.value(GlobalOption.protocolChoice) {
            protocolChoice = choice
            protocolGiven = true
        } else if let text = environment["PXVIEW_PROTOCOL"], !text.isEmpty {
            protocolChoice = try ValueParser.choice(text, option: "PXVIEW_PROTOCOL", command: parsed.command)
            protocolGiven = true
        } else {
            protocolChoice = .auto
            protocolGiven = false
        }
        size = try parsed.value(ViewOption.size)
        cells = try parsed.value(ViewOption.cells)
        cellSize = try parsed.value(ViewOption.cellSize)
        var settings = ViewSettings()
        settings.fit = try parsed.value(ViewOption.fit) ?? settings.fit
        settings.zoom = try parsed.value(ViewOption.zoom) ?? settings.zoom
        if let center = try parsed.value(ViewOption.center) {
            settings.centerX = center.x
            settings.centerY = center.y
        }
        self.settings = settings
        maxPixels = try parsed.value(ViewOption.maxPixels) ?? DecodeOptions.defaultMaxPixels
        background = try parsed.value(ViewOption.background) ?? .auto
        linuxConsole = environment["TERM"] == "linux"
        if let text = environment["PXVIEW_SEXTANTS"], !text.isEmpty {
            sextants = try ValueParser.choice(text, option: "PXVIEW_SEXTANTS", command: parsed.command, as: OnOff.self) == .on
        }
    }
}

extension ViewOptions {
    /// `show` and `open` open the viewer when both ends are a terminal,
    /// unless `--once` says draw once, or a box (`--size`, `--cells`) was
    /// asked for: the viewer fills the window, so a box means a drawing.
    func opensViewer(once: Bool) -> Bool {
        !once && size == nil && cells == nil && Output.isTerminal(0) && Output.isTerminal(1)
    }
}

/// Housekeeping that need not delay what the user asked for: run beside
/// it, and waited for (briefly) before pxview exits.
enum Chores {
    static let group = DispatchGroup()
    /// How long the end of a run waits for chores still going.
    static let finishSeconds = 0.5

    static func run(_ chore: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .utility).async(group: group, execute: chore)
    }

    static func finish() {
        _ = group.wait(timeout: .now() + finishSeconds)
    }
}

/// What the terminal can show, found once per run, and how to draw on it.
struct InlineDrawing {
    var drawing: DrawingPlan
    var backend: any GraphicsBackend
    /// The box to fit into, in the backend's units.
    var box: PixelSize
    /// False when stdout is not a terminal and no protocol was asked for:
    /// then `show` describes instead of drawing.
    var drawsGraphics: Bool

    static func prepare(view: ViewOptions) -> InlineDrawing {
        let drawsGraphics = Output.isTerminal(1) || view.protocolGiven
        var drawing = probe(view: view)
        // A description speaks in pixels, so it reasons as a pixel protocol would.
        if !drawsGraphics { drawing.method = .kitty }
        let backend = drawing.makeBackend()
        let box = backend.unitBox(size: view.size, cells: view.cells)
        // From here on, Ctrl-C during a drawing closes the open sequence first.
        if drawsGraphics { OutputGuard.install() }
        return InlineDrawing(drawing: drawing, backend: backend, box: box, drawsGraphics: drawsGraphics)
    }

    /// The one place the terminal is asked what it can do and the protocol
    /// is chosen (`show`, `open`, the search strip and the explorer):
    /// `--protocol`, else `PXVIEW_PROTOCOL`, else the probe (through tmux
    /// passthrough inside tmux). `PXVIEW_DEBUG` prints what was found; the
    /// tmux hint goes to stderr once.
    static func probe(view: ViewOptions, environment: [String: String] = ProcessInfo.processInfo.environment) -> DrawingPlan {
        report(view: view, environment: environment).drawing
    }

    /// The probe's whole report and the drawing plan decided from it (`pxview
    /// doctor` shows both).
    /// `debugLines`: `PXVIEW_DEBUG`'s lines and the tmux hint go to stderr
    /// (not for `doctor`, which says it all on stdout).
    /// `ttyFD`: the terminal asked and measured (standard output, or for
    /// `doctor` writing to a file, `/dev/tty`).
    /// `alreadyRaw`: a running explorer asks (it holds the terminal raw).
    static func report(
        view: ViewOptions, environment: [String: String], debugLines: Bool = true, ttyFD: Int32 = 1,
        alreadyRaw: Bool = false
    ) -> (report: ProbeReport, drawing: DrawingPlan) {
        let (report, drawing) = TerminalDisplay.ask(view.choices, environment: environment, ttyFD: ttyFD, alreadyRaw: alreadyRaw)
        if report.outcome != nil {
            // For the previews (`show --place`) that must not ask this terminal.
            let memory = TerminalMemory(environment: environment, ttyFD: ttyFD)
            Chores.run { memory.remember(report) }
        }
        if drawing.method == .kitty {
            // What a killed pxview left for kitty goes, beside the start-up
            // work and at most once an hour (only kitty runs make such objects).
            let stamp = TerminalMemory.directory(environment: environment) + "/kitty-swept"
            Chores.run { KittyTransfer.sweepStaleIfDue(stamp: stamp) }
        }
        guard debugLines else { return (report, drawing) }
        if !(environment["PXVIEW_DEBUG"] ?? "").isEmpty {
            let capabilities = report.capabilities
            Output.err("pxview: terminal \(capabilities.map { String(describing: $0) } ?? "none")\n")
            if let outcome = report.outcome {
                let answer = outcome.timedOut ? "no answer within \(report.timeoutMs) ms" : "answered in \(outcome.elapsedMs) ms"
                Output.err("pxview: probe \(answer)\n")
            }
            if let skipped = report.skipped { Output.err("pxview: probe not sent: \(skipped.rawValue)\n") }
            for ignored in capabilities?.ignoredReplies ?? [] {
                Output.err("pxview: ignored an out-of-bounds reply: \(ignored)\n")
            }
            Output.err("pxview: \(drawing.summary)\n")
        }
        if let hint = drawing.hint, report.capabilities != nil { Output.err(hint + "\n") }
        return (report, drawing)
    }

    /// A picture alone at the cursor.
    func drawInline(_ pixels: RGBAImage, imageID: UInt32) {
        draw(backend.inline(pixels, imageID: imageID).joined())
    }

    /// True when `drawInline(rows)` draws rows as they are made: kitty
    /// through the pty outside a multiplexer.
    var drawsRowsAsMade: Bool { backend.drawsRowsAsMade }

    /// A picture alone at the cursor, handed to the terminal in parts as it
    /// is made (`drawsRowsAsMade`), the drawing open from the first to the last.
    func drawInline(_ rows: PixelRows, imageID: UInt32) {
        OutputGuard.writeDrawing(fd: 1) { write in _ = backend.drawInline(rows, imageID: imageID, write: write) }
    }

    /// Writes a drawing to stdout: graphics wrapped for the multiplexer, and
    /// inside tmux a fence before each picture (read from the terminal in
    /// raw mode, so the answer is never echoed).
    /// Once the command's pictures are all drawn: the backend's
    /// `inlineFollowUp`, on a terminal (a file gets no nudges).
    func finish() {
        guard let (delayMs, bytes) = backend.inlineFollowUp, drawsGraphics, Output.isTerminal(1) else { return }
        usleep(useconds_t(delayMs * 1000))
        draw(bytes)
    }

    func draw(_ bytes: [UInt8]) {
        var writer = FrameWriter(fd: 1, synchronizedOutput: false, multiplexer: drawing.multiplexer, sink: .guarded)
        guard drawing.multiplexer.wrapsGraphics, Output.isTerminal(1), let tty = ControllingTerminal.input() else {
            _ = try? writer.write(bytes)
            return
        }
        defer { tty.close() }
        // Raw mode while the fences' answers come, so they are not echoed.
        guard let session = try? TerminalSession(inputFD: tty.fd, outputFD: 1, options: .rawModeOnly) else {
            _ = try? writer.write(bytes)
            return
        }
        defer { session.restore() }
        writer.fenceInputFD = tty.fd
        _ = try? writer.write(bytes)
    }
}
