import Terminal
import Explorer
import HTTP

/// `pxview show -i PATH|URL`: the interactive viewer opened directly on one
/// image (zoom, pan, fit modes); `q` quits.
enum Viewer {
    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        guard let input = parsed.positionals.first else {
            throw UsageError(message: "show -i needs one PATH or URL", command: "show")
        }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "show -i opens one image at a time", command: "show")
        }
        let view = try ViewOptions(parsed, command: "show")
        let display = try ExplorerSetup.display(view, command: "show", viewer: true)
        let bytes = try await Show.load(
            input, path: parsed.positionalBytes.first, client: CurlClient(userAgent: "pxview/\(Commands.version)"))
        return try ExplorerApp.runViewer(
            bytes: bytes, title: TerminalText.sanitize(input), framing: view.settings, display: display,
            options: ExplorerSetup.options(maxPixels: view.maxPixels))
    }
}
