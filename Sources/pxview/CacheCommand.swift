import Rendering
import Terminal
import Foundation
import HTTP

/// `pxview cache info|clear`: the disk cache of search results and images.
enum Cache {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Commands.cache)
        if parsed.has("--help") { Output.out(Commands.cache.helpText); return ExitCode.success }
        let cache = DiskCache(directory: DiskCache.defaultDirectory(environment: ProcessInfo.processInfo.environment))
        let info = cache.info()
        let size = StderrProgressReporter.formatBytes(Double(info.bytes))
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
            Output.out("cleared \(info.entries) \(info.entries == 1 ? "entry" : "entries") (\(size)) from \(TerminalText.sanitize(info.directory))\n")
        case let other:
            throw UsageError(
                message: "unknown cache action '\(TerminalText.sanitize(other))' (expected info or clear)",
                command: Commands.cache.name)
        }
        return ExitCode.success
    }
}
