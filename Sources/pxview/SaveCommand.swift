import Terminal
import Foundation
import HTTP
import Pixabay

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `pxview save ID`: one image to a file, atomically, never clobbering one by accident.
enum Save {
    static func run(_ arguments: [String], raw: [[UInt8]]? = nil) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, raw: raw, spec: Commands.save)
        if parsed.has("--help") { Output.out(Commands.save.helpText); return ExitCode.success }
        let command = Commands.save.name
        let id = try ValueParser.imageID(parsed.positionals[0], command: command)
        let size: ImageSize =
            try parsed.value("--size").map { text throws(UsageError) in
                try ValueParser.flagValue(text, option: "--size", command: command)
            } ?? .large
        let force = parsed.has("--force")
        // The path as argv held it: a name that is not UTF-8 is kept as is.
        let out = parsed.valueBytes["--out"]
        let outIsDirectory = out.map(RawFile.isDirectory) ?? false
        // A named file that exists is refused before any download: no wasted request.
        if let out, !outIsDirectory, !force, RawFile.exists(out) {
            throw CommandError("\(RawFile.display(out)) already exists (use --force to replace it)")
        }
        let stack = try SourceContext.make(parsed, showProgress: true)
        let image = try await Download.image(id: id, size: size, from: stack)
        let defaultName = Array("pixabay-\(id).\(image.type.fileExtension)".utf8)
        let path: [UInt8]
        if let out {
            path = outIsDirectory ? (out.last == UInt8(ascii: "/") ? out : out + [UInt8(ascii: "/")]) + defaultName : out
        } else {
            path = defaultName
        }
        do {
            try AtomicFile.write(image.bytes, to: path, replacing: force)
        } catch let error as AtomicFile.AlreadyExists {
            throw CommandError("\(error) (use --force to replace it)")
        }
        let sizeText = StderrProgressReporter.formatBytes(Double(image.bytes.count))
        Output.out("saved \(RawFile.display(path)) (\(sizeText))\n")
        return ExitCode.success
    }
}
