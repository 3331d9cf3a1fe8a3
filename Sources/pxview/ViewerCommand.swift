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
    static func run(_ parsed: ParsedArguments, view: ViewOptions) async throws -> Int32 {
        let (drawing, typedAhead) = try ExplorerSetup.drawingPlan(view, command: "show", viewer: true)
        let client = CurlClient(userAgent: SourceContext.userAgent)
        let inputs = Array(zip(parsed.positionals, parsed.positionalBytes))
        let files = FileList(entries: try Folder.entries(for: inputs, client: client))
        if inputs.count == 1, !Show.isURL(inputs[0].0), RawFile.isDirectory(inputs[0].1) {
            return try ExplorerApp.runBrowser(
                source: files, query: SearchQuery(q: ""), drawing: drawing,
                options: ExplorerSetup.options(view, typedAhead: typedAhead),
                folder: RawFile.display(inputs[0].1))
        }
        // The viewer opens at once and fetches and decodes off its loop
        // (q works while a file decodes); a file that cannot be opened before
        // one can is a line on stderr once the terminal is back.
        let photos = files.photos
        let outcome = try ExplorerApp.runViewer(
            photo: photos[0], framing: view.settings, drawing: drawing,
            options: ExplorerSetup.options(view, typedAhead: typedAhead), source: files, sequence: photos)
        return finish(outcome)
    }

    /// The viewer's exit status, after its failures on stderr.
    static func finish(_ outcome: (status: Int32, failures: [String])) -> Int32 {
        for line in outcome.failures { Output.err("pxview: \(TerminalText.sanitize(line))\n") }
        return outcome.status
    }
}

/// Local images as `FileList` entries.
enum Folder {
    /// Every input as an entry; folders among them add their images in place.
    static func entries(for inputs: [(String, [UInt8])], client: CurlClient) throws -> [FileList.Entry] {
        var entries: [FileList.Entry] = []
        for (input, path) in inputs {
            if !Show.isURL(input), RawFile.isDirectory(path) {
                entries += try images(in: path)
            } else {
                entries.append(entry(input: input, path: path, client: client))
            }
        }
        guard !entries.isEmpty else {
            let names = inputs.map { RawFile.display($0.1) }.joined(separator: ", ")
            throw CommandError("no \(ImageFormat.namesPhrase) images in \(names)")
        }
        return entries
    }

    /// The image files of `directory` (by the codec table's extensions; the
    /// bytes are sniffed when loaded), sorted by name with numbers in order
    /// (`img2` before `img10`), hidden files left out.
    static func images(in directory: [UInt8]) throws -> [FileList.Entry] {
        let extensions = ImageFormat.fileExtensions
        let base = directory.last == UInt8(ascii: "/") ? directory : directory + [UInt8(ascii: "/")]
        let listed: [[UInt8]]
        switch RawFile.listing(of: directory) {
        case .success(let names): listed = names
        case .failure(let failure): throw CommandError("cannot read \(RawFile.display(directory)): \(failure.reason)")
        }
        // Regular files only: a FIFO named x.jpg would block its reader for ever.
        let names = listed.filter { name in
            guard name.first != UInt8(ascii: "."), let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
            let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
            return extensions.contains(ext) && RawFile.isRegularFile(base + name)
        }
        let sorted = names.sorted {
            String(decoding: $0, as: UTF8.self).compare(
                String(decoding: $1, as: UTF8.self), options: [.numeric, .caseInsensitive])
                == .orderedAscending
        }
        return sorted.map { name in
            let path = base + name
            let file = LocalFile(name: RawFile.display(name), byteCount: RawFile.size(path))
            return FileList.Entry(file: file) { () async throws(LocalFileError) in
                do {
                    return try RawFile.read(path, limit: Show.maxFileBytes)
                } catch {
                    throw LocalFileError(name: file.name, reason: (error as? RawFile.Failure)?.reason ?? "\(error)")
                }
            }
        }
    }

    /// One file or URL given on the command line.
    static func entry(input: String, path: [UInt8], client: CurlClient) -> FileList.Entry {
        let name =
            Show.isURL(input)
            ? TerminalText.sanitize(input) : RawFile.display(Array(path.split(separator: UInt8(ascii: "/")).last ?? []))
        let file = LocalFile(
            name: name.isEmpty ? TerminalText.sanitize(input) : name, byteCount: Show.isURL(input) ? 0 : RawFile.size(path))
        return FileList.Entry(file: file) { () async throws(LocalFileError) in
            try await Show.load(input, path: path, client: client)
        }
    }

}
