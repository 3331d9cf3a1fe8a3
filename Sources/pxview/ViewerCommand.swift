import Decoding
import Explorer
import Foundation
import HTTP
import Photos
import Pixabay
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// `pxview show PATH|URL|DIR...` on a terminal: the viewer on the first
/// image, `n`/`p` stepping through the rest (like nsxiv and feh); a single
/// folder opens as a grid of its images (nsxiv's thumbnail mode).
enum Viewer {
    /// `marksOutput`: where `-o` prints the marked files.
    static func run(_ parsed: ParsedArguments, view: ViewOptions, inputs: [InputList.Input], marksOutput: Int32 = 1)
        async throws -> Int32
    {
        let (drawing, typedAhead) = try ExplorerSetup.drawingPlan(view, command: "show", viewer: true)
        let client = CurlClient(userAgent: SourceContext.userAgent)
        let files = FileList(entries: try Folder.entries(for: inputs, parsed: parsed, client: client))
        var options = ExplorerSetup.options(view, typedAhead: typedAhead)
        options.slideshowMs = try parsed.value(Show.slideshow)
        if let folder = try parsed.value(Show.saveFolder) {
            guard RawFile.isDirectory(folder) else {
                throw UsageError(message: "--out \(RawFile.display(folder)): no such folder", command: parsed.command)
            }
            options.saveFolder = String(decoding: RawFile.absolute(folder), as: UTF8.self)
        }
        let environment = ProcessInfo.processInfo.environment
        options.trash = { location in
            let name = try Trash(environment: environment).move(location)
            let file = RawFile.display(Array(location.split(separator: UInt8(ascii: "/")).last ?? []))
            let stored = RawFile.display(name)
            return "moved \(file) to the trash" + (stored == file ? "" : " (as \(stored))")
        }
        // A folder opens as a grid, unless a slideshow of it is asked for.
        if inputs.count == 1, !Show.isURL(inputs[0].text), RawFile.isDirectory(inputs[0].path), options.slideshowMs == nil {
            return finish(
                try ExplorerApp.runBrowser(
                    source: files, query: SearchQuery(q: ""), drawing: drawing, options: options,
                    folder: RawFile.display(inputs[0].path)),
                parsed: parsed, marksOutput: marksOutput)
        }
        // The viewer opens at once and fetches and decodes off its loop
        // (q works while a file decodes); a file that cannot be opened before
        // one can is a line on stderr once the terminal is back.
        let photos = files.photos
        let outcome = try ExplorerApp.runViewer(
            photo: photos[0], framing: view.settings, drawing: drawing, options: options, source: files, sequence: photos)
        return finish(outcome, parsed: parsed, marksOutput: marksOutput)
    }

    /// The viewer's exit status, after its failures on stderr and, with
    /// `-o`, the marked files on standard output (the terminal is back by
    /// now: `pxview show -o DIR | xargs …` gets them alone), one a line or
    /// NUL-terminated with `-0`.
    static func finish(_ outcome: ExplorerOutcome, parsed: ParsedArguments? = nil, marksOutput: Int32 = 1) -> Int32 {
        for line in outcome.failures { Output.err("pxview: \(TerminalText.sanitize(line))\n") }
        if let parsed, parsed.has(Show.printMarked) {
            let end: UInt8 = parsed.has(InputList.null) ? 0 : UInt8(ascii: "\n")
            Output.write(outcome.marked.flatMap { $0 + [end] }, fd: marksOutput)
        }
        return outcome.status
    }
}

/// Local images as `FileList` entries.
enum Folder {
    /// Every input as an entry; folders among them add their images in
    /// place (`InputList.files`: with `-r`, `--sort`, `--reverse`).
    static func entries(for inputs: [InputList.Input], parsed: ParsedArguments, client: CurlClient) throws
        -> [FileList.Entry]
    {
        let files = try InputList.files(
            inputs, recursive: parsed.has(InputList.recursive), order: try parsed.value(InputList.sort),
            reverse: parsed.has(InputList.reverse))
        return files.map { entry(input: $0.text, path: $0.path, client: client) }
    }

    /// One file or URL given on the command line.
    static func entry(input: String, path: [UInt8], client: CurlClient) -> FileList.Entry {
        let name =
            Show.isURL(input)
            ? TerminalText.sanitize(input) : RawFile.display(Array(path.split(separator: UInt8(ascii: "/")).last ?? []))
        let file = LocalFile(
            name: name.isEmpty ? TerminalText.sanitize(input) : name, byteCount: Show.isURL(input) ? 0 : RawFile.size(path),
            location: Show.isURL(input) ? Array(input.utf8) : RawFile.absolute(path))
        return FileList.Entry(file: file) { () async throws(LocalFileError) in
            try await Show.load(input, path: path, client: client)
        }
    }

}
