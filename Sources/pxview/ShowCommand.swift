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
        options: ViewFlags.all + [ViewFlags.place, ViewFlags.align] + InputList.all + GlobalOption.all
            + [once, animate, loops, rotate, slideshow, grid, title, interactive, printMarked, saveFolder, CommonOption.help],
        maxPositionals: nil, minPositionals: 1, positionals: .files, missing: ("a PATH or URL", "pxview show photo.jpg"),
        keys: [KeyTables.viewer, KeyTables.folderGrid])

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let view = try ViewOptions(parsed)
        if let box = try parsed.value(ViewFlags.place) {
            // A file manager's preview: one picture into that box, asking the terminal nothing.
            return try await Preview.show(
                parsed, view: view, box: box, alignment: try parsed.value(ViewFlags.align) ?? .center)
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
        let output = InlineDrawing.prepare(view: view)
        let plays = try parsed.value(loops)
        let animating = parsed.has(animate) || plays != nil
        let turn = ImageTurn(quarterTurns: (try parsed.value(rotate)).map { Int($0.rawValue)! / 90 } ?? 0)
        let client = CurlClient(userAgent: SourceContext.userAgent)  // loads libcurl only if used
        var status = ExitCode.success
        var imageID = ImageIDs.base()
        defer { output.finish() }
        if let sheet, output.drawsGraphics {
            return await contactSheet(
                files, grid: sheet, titled: parsed.has(title), view: view, output: output, client: client, turn: turn)
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
                        bytes: bytes, name: TerminalText.sanitize(input), view: view, output: output, imageID: imageID,
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
        _ files: [InputList.Input], grid: PixelSize, titled: Bool, view: ViewOptions, output: InlineDrawing,
        client: CurlClient, turn: ImageTurn
    ) async -> Int32 {
        let screen = output.backend.screen
        let window = view.cells ?? screen.windowCells
        let tileCells = CellCount(
            width: max(4, (window.width + ThumbnailStrip.gap) / grid.width - ThumbnailStrip.gap),
            height: max(2, window.height / grid.height - (titled ? 1 : 0)))
        let box = screen.unitBox(cells: tileCells)
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
                    bytes, label: TerminalText.sanitize(name), box: box, output: output, maxPixels: view.maxPixels,
                    imageID: imageID, turn: turn)
                if tile.picture == nil {
                    if bytes != nil { Output.err("pxview: cannot decode \(TerminalText.sanitize(input))\n") }
                    status = ExitCode.failure
                }
                tiles.append(tile)
            }
            output.draw(
                ThumbnailStrip.compose(tiles, terminalColumns: window.width, tileCells: tileCells, labelled: titled))
            start += grid.width
        }
        return status
    }

    /// Draws already-fetched image bytes (`open` uses it too). `animation`
    /// (set by `--animate`): play an animation in place, its own number of
    /// passes or the one given (`--loops`). `turn`: `--rotate`.
    static func draw(
        bytes: [UInt8], name: String, view: ViewOptions, output: InlineDrawing, imageID: UInt32 = ImageIDs.base(),
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
                        bytes, settings: view.settings, box: turn.turnedSize(output.box), drawing: output.drawing,
                        screen: output.backend.screen, maxPixels: view.maxPixels,
                        maxFrames: output.drawsGraphics && animation == nil ? 1 : nil)
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
                    for: decoded.fullSize, settings: view.settings, box: output.box, screen: output.backend.screen)
                guard output.drawsGraphics else {
                    Output.out(
                        "\(name): \(describe(decoded)), fits \(viewport.outputSize) px in a \(output.box) box"
                            + " (not a terminal: pass --protocol to draw)\n")
                    return ExitCode.success
                }
                if let plays = animation, decoded.frames.count > 1 {
                    play(decoded, plays: plays ?? decoded.loopCount, viewport: viewport, output: output, imageID: imageID)
                    return ExitCode.success
                }
                if output.drawsRowsAsMade {
                    // kitty through the pty: resampled, encoded and written
                    // a block of rows at a time, the picture never whole.
                    output.drawInline(renderer.rows(decoded.image, viewport: viewport), imageID: imageID)
                    return ExitCode.success
                }
                pixels = renderer.pixels(decoded.image, viewport: viewport, screen: output.backend.screen)
            }
            // The backend leaves the cursor on a fresh line below the picture, where the prompt goes.
            output.drawInline(pixels, imageID: imageID)
            return ExitCode.success
        } catch {
            Output.err("pxview: cannot decode \(name): \(error)\n")
            return ExitCode.failure
        }
    }

    /// Plays `decoded`'s frames in place (`InlineAnimation`) until its
    /// passes end or a key comes on standard input, when that is a terminal
    /// (in raw mode meanwhile, so the key is not echoed).
    static func play(_ decoded: DecodedImage, plays: Int, viewport: Viewport, output: InlineDrawing, imageID: UInt32) {
        let renderer = ImageRenderer()
        var player = InlineAnimation(
            delays: decoded.frames.map(\.playbackDelayMs), plays: plays, backend: output.backend, imageID: imageID
        ) { renderer.pixels(decoded.frames[$0].image, viewport: viewport, screen: output.backend.screen) }
        let keys = Output.isTerminal(0) ? try? TerminalSession(inputFD: 0, outputFD: 1, options: .rawModeOnly) : nil
        defer { keys?.restore() }
        if player.play(keys: keys == nil ? nil : 0, draw: { output.draw($0) }) == .interrupted {
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
