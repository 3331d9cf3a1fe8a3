import Decoding
import Explorer
import Foundation
import HTTP
import Photos
import Pixabay
import Plumbing
import Rendering
import Terminal

/// `pxview` with no command: the explorer on the launch query. Online the
/// launch query is the original app's "famous quotes"; offline it is empty,
/// which lists the whole bundled catalog.
enum Explore: PXCommand {
    static let version = Flag("--version", help: "print the version")

    static let spec = CommandSpec(
        name: "", abstract: "real photos inside a terminal: sixel, kitty graphics or text",
        usage: "pxview [OPTIONS] [COMMAND] [ARGS...]",
        summary: """
            Real photos inside a terminal: sixel, kitty graphics, or block symbols in 24-bit colour.
            With no command, opens the explorer on the launch query.
            Formats: \(ImageFormat.namesPhrase); animations play in the viewer.
            In a C locale (LANG=C) the grid and the viewer draw in ASCII alone.
            """,
        options: GlobalOption.all + [CommonOption.help, version],
        maxPositionals: nil, keys: [KeyTables.grid, KeyTables.viewer], commands: Commands.all.map { $0.spec })

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        if parsed.has(version) {
            Output.out("pxview \(Commands.version)\n")
            return ExitCode.success
        }
        let view = try ViewOptions(parsed)
        let (drawing, typedAhead) = try ExplorerSetup.drawingPlan(view, command: parsed.command)
        let stack = try SourceContext.make(parsed, announceCatalog: true)
        let query = SearchQuery(q: stack.source.isOffline ? "" : Search.launchQuery)
        return try ExplorerApp.runBrowser(
            source: PixabayPhotos(stack.source), query: query, drawing: drawing,
            options: ExplorerSetup.options(view, typedAhead: typedAhead)
        ).status
    }
}

/// What every explorer entry point (`pxview`, `search -i`, `open`, `show -i`)
/// builds the same way from the global options and the environment.
enum ExplorerSetup {
    /// The terminal as the explorer sees it: probed once (in raw mode, so
    /// no reply reaches the shell), with the protocol chosen exactly as
    /// `show` chooses it (`InlineDrawing.report`). The explorer fills the terminal,
    /// so `--size` and `--cells` are refused rather than ignored.
    /// With the plan, the keys typed while the terminal was being asked
    /// (for `options`).
    static func drawingPlan(_ view: ViewOptions, command: String, viewer: Bool = false) throws -> (
        drawing: DrawingPlan, typedAhead: [UInt8]
    ) {
        if view.size != nil || view.cells != nil {
            throw UsageError(
                message: "--size and --cells do not apply to the interactive viewer, which fills the terminal",
                command: command)
        }
        try ExplorerApp.checkTerminal(ExplorerOptions(), viewer: viewer)
        let (report, drawing) = InlineDrawing.report(view: view, environment: ProcessInfo.processInfo.environment)
        return (drawing, report.outcome?.leftover ?? [])
    }

    /// The explorer's options for `view`: a pxview that could not ask the
    /// terminal at its start (its tmux pane was not the active one) asks
    /// again, the same way, once its pane is.
    static func options(_ view: ViewOptions, typedAhead: [UInt8]) -> ExplorerOptions {
        var options = ExplorerOptions(
            favourites: FavouritesStore(), save: saveInCurrentDirectory, maxPixels: view.maxPixels, typedAhead: typedAhead,
            reprobe: {
                let (report, drawing) = InlineDrawing.report(
                    view: view, environment: ProcessInfo.processInfo.environment, debugLines: false, alreadyRaw: true)
                guard report.outcome != nil else { return nil }
                return (drawing, report.outcome?.leftover ?? [])
            }, librarySaid: { Output.librarySaid($0) },
            decodeTimeoutMs: ExplorerOptions.decodeTimeoutMs(environment: ProcessInfo.processInfo.environment))
        options.keyHandler = KeyHandler.path(environment: ProcessInfo.processInfo.environment)
        return options
    }

    /// `s` in the viewer: the viewed bytes under the name the photo says
    /// (`pixabay-ID.jpg|png`, a local file's `pxview-NAME.ext`, the extension
    /// the bytes' format's) in the current directory, written as
    /// `pxview save` writes (atomically, never replacing a file). When the
    /// name is taken, the next free `-2`, `-3`… is used and the message says so.
    static let saveInCurrentDirectory = saveAction(in: nil)

    /// The same, into `directory` (nil: the current one).
    static func saveAction(in directory: String?) -> ExplorerSaveAction {
        { bytes, photo, asked in
            let directory = asked.map(expandingHome) ?? directory
            if let directory, !RawFile.isDirectory(Array(directory.utf8)) {
                throw CommandError("no such folder: \(TerminalText.sanitize(directory))")
            }
            let ext = ImageFormat(sniffing: bytes)?.fileExtension ?? "jpg"
            let stem = fittingStem(photo.saveStem, ext: ext)
            let size = ByteSize.text(bytes.count)
            for number in 1...999 {
                let name = number == 1 ? "\(stem).\(ext)" : "\(stem)-\(number).\(ext)"
                do {
                    try AtomicFile.write(bytes, to: directory.map { $0 + "/" + name } ?? name, replacing: false)
                } catch is AtomicFile.AlreadyExists {
                    continue
                }
                let place = asked.map { " in \(TerminalText.sanitize($0))" } ?? ""
                return number == 1
                    ? "saved \(name)\(place) (\(size))" : "saved \(name)\(place) (\(stem).\(ext) exists; \(size))"
            }
            throw CommandError("\(stem).\(ext) and 998 numbered copies exist; nothing saved")
        }
    }

    /// A folder as typed: `~` and `~/…` are the home folder's, as a shell has them.
    static func expandingHome(_ folder: String) -> String {
        guard folder == "~" || folder.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else {
            return folder
        }
        return home + folder.dropFirst()
    }

    /// The longest name a file system takes (NAME_MAX on Linux), in bytes.
    static let maxNameBytes = 255

    /// `stem` cut (between characters) so that `STEM-999.EXT` fits in a
    /// file name: `pxview-` before a 250-byte file's name made the viewer's
    /// `s` fail with "File name too long".
    static func fittingStem(_ stem: String, ext: String) -> String {
        let room = maxNameBytes - "-999.".utf8.count - ext.utf8.count
        var cut = ""
        for character in stem {
            guard cut.utf8.count + character.utf8.count <= room else { break }
            cut.append(character)
        }
        return cut
    }
}
