import Decoding
import Explorer
import Foundation
import HTTP
import Pixabay
import Terminal

/// `pxview` with no command: the explorer on the launch query. Online the
/// launch query is the original app's "famous quotes"; offline it is empty,
/// which lists the whole bundled catalog.
enum Explore {
    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let display = try ExplorerSetup.display(parsed, command: "")
        let stack = try SourceContext.make(parsed)
        let query = stack.source.isOffline ? "" : Search.launchQuery
        return try ExplorerApp.runBrowser(
            source: stack.source, query: query, display: display, options: ExplorerSetup.options())
    }
}

/// What every explorer entry point (`pxview`, `search -i`, `open`, `show -i`)
/// builds the same way from the global options and the environment.
enum ExplorerSetup {
    /// Probes the terminal once (in raw mode, so no reply reaches the shell)
    /// and picks the protocol: `--protocol`, else `PXVIEW_PROTOCOL`, else the probe.
    static func display(
        _ parsed: ParsedArguments, command: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ExplorerDisplay {
        guard Output.isTerminal(0), Output.isTerminal(1) else { throw ExplorerError.notATerminal }
        var choice = ProtocolChoice.auto
        if let text = parsed.value("--protocol") {
            choice = try ValueParser.choice(text, option: "--protocol", command: command)
        } else if let text = environment["PXVIEW_PROTOCOL"], !text.isEmpty {
            choice = try ValueParser.choice(text, option: "PXVIEW_PROTOCOL", command: command)
        }
        let cellSize = try parsed.value("--cell-size").map { text throws(UsageError) in
            try ValueParser.size(text, option: "--cell-size", command: command, limit: 256)
        }
        let capabilities = detectTerminal(probe: true)
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let decision = ProtocolDecision.decide(choice: choice, capabilities: capabilities, insideTmux: insideTmux)
        if !(environment["PXVIEW_DEBUG"] ?? "").isEmpty {
            Output.err("pxview: terminal \(capabilities.map { String(describing: $0) } ?? "none"); drawing \(decision)\n")
        }
        return ExplorerDisplay(decision: decision, capabilities: capabilities, cellSizeOverride: cellSize)
    }

    static func options(maxPixels: Int = 100_000_000) -> ExplorerOptions {
        ExplorerOptions(favourites: FavouritesStore(), save: saveInCurrentDirectory, maxPixels: maxPixels)
    }

    /// `s` in the viewer: the viewed bytes as `pixabay-ID.jpg|png` (a local
    /// file: `pxview-NAME.ext`) in the current directory, written as
    /// `pxview save` writes (atomically, never replacing an existing file).
    static let saveInCurrentDirectory: ExplorerSaveAction = { bytes, hit, title in
        let ext = ImageFileType(sniffing: bytes)?.fileExtension ?? "jpg"
        let stem = hit.map { "pixabay-\($0.id)" }
            ?? "pxview-" + ((title as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = "\(stem).\(ext)"
        try AtomicFile.write(bytes, to: name, replacing: false)
        return "saved \(name) (\(StderrProgressReporter.formatBytes(Double(bytes.count))))"
    }
}
