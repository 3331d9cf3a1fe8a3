import Decoding
import Explorer
import Photos
import Pixabay
import Rendering

/// `pxview open ID`: the largest rendition of one image in the viewer; with
/// `--once` or off a terminal, drawn as `show --once` draws a file.
enum Open: PXCommand {
    static let once = Flag("--once", help: "draw the image once and exit, no viewer")

    static let spec = CommandSpec(
        name: "open", abstract: "view one Pixabay image by id", arguments: "ID", usage: "pxview open ID [OPTIONS]",
        summary: """
            Downloads one Pixabay image (the large rendition) and opens it in the viewer: zoom and
            pan with keys. With --once, or when standard output is not a terminal, draws it once
            as 'pxview show --once' does.
            """,
        options: ViewFlags.all + GlobalOption.all + [once, Show.interactive, CommonOption.help],
        maxPositionals: 1, minPositionals: 1, missing: ("an image ID", "pxview open 1000010"), keys: [KeyTables.viewer])

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let id = try ValueParser.imageID(parsed.positionals[0], command: parsed.command)
        // Every flag is checked, and the terminal probed, before any download.
        let view = try ViewOptions(parsed)
        if view.opensViewer(once: parsed.has(once)) {
            let (drawing, typedAhead) = try ExplorerSetup.drawingPlan(view, command: parsed.command, viewer: true)
            let stack = try SourceContext.make(parsed, showProgress: true)
            let image = try await Download.image(id: id, size: .large, from: stack)
            return Viewer.finish(
                try ExplorerApp.runViewer(
                    photo: Photo(hit: image.hit), bytes: image.bytes, framing: view.settings, drawing: drawing,
                    options: ExplorerSetup.options(view, typedAhead: typedAhead)))
        }
        let output = InlineDrawing.prepare(view: view)
        defer { output.finish() }
        let stack = try SourceContext.make(parsed, showProgress: true)
        let image = try await Download.image(id: id, size: .large, from: stack)
        return Show.draw(
            bytes: image.bytes, name: "pixabay-\(id).\(image.type.fileExtension)", view: view, output: output)
    }
}

/// Fetching one image's bytes by id, shared by `open` and `save`.
enum Download {
    /// Looks the hit up (so an unknown id says so), downloads the rendition
    /// (`large` falls back to `web` when a hit has no large URL) and checks
    /// the bytes really are an image pxview reads before anyone decodes or saves them.
    static func image(id: Int, size: ImageSize, from stack: SourceStack) async throws -> (
        hit: PixabayHit, bytes: [UInt8], type: ImageFormat
    ) {
        let hit = try await stack.source.hit(id: id)
        let bytes = try await stack.source.imageBytes(for: hit, size: size)
        stack.reportStaleCopies()
        guard let type = ImageFormat(sniffing: bytes) else {
            throw CommandError(
                "image \(id) is not an image: the server sent \(ImageFormat.describeNonImage(bytes)) (\(bytes.count) bytes)")
        }
        return (hit, bytes, type)
    }
}
