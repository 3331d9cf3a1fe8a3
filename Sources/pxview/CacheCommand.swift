import Foundation
import HTTP
import Plumbing
import Rendering
import Terminal

/// `pxview cache info|clear`: the disk cache of search results and images.
enum Cache: PXCommand {
    static let spec = CommandSpec(
        name: "cache", abstract: "the disk cache", arguments: "info|clear", usage: "pxview cache info|clear",
        summary: "Shows or empties the disk cache of search results and images ($XDG_CACHE_HOME/pxview).",
        options: GlobalOption.all + [CommonOption.help],
        maxPositionals: 1, minPositionals: 1, positionals: .words(["info", "clear"]),
        missing: ("info or clear", "pxview cache info"))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let cache = DiskCache(directory: DiskCache.defaultDirectory(environment: ProcessInfo.processInfo.environment))
        let info = cache.info()
        let size = ByteSize.text(info.bytes)
        switch parsed.positionals[0] {
        case "info":
            Output.out(
                """
                directory: \(TerminalText.sanitize(info.directory))
                entries: \(info.entries)
                size: \(size)

                """)
        case "clear":
            try cache.clear()
            Output.out(
                "cleared \(info.entries) \(info.entries == 1 ? "entry" : "entries") (\(size)) from \(TerminalText.sanitize(info.directory))\n"
            )
        case let other:
            throw UsageError(
                message: "unknown cache action '\(TerminalText.sanitize(other))' (expected info or clear)",
                command: parsed.command)
        }
        return ExitCode.success
    }
}
