import Foundation
import HTTP
import Pixabay
import Plumbing
import Terminal

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `pxview save ID`: one image to a file, atomically, never clobbering one by accident.
enum Save: PXCommand {
    /// The path as argv held it: a name that is not UTF-8 is kept as is.
    static let out: Option<[UInt8]> = .path("--out", aliases: ["-o"], "PATH", help: "file (or existing directory) to write")
    static let size: Option<ImageSize> = .pixabayWord("--size", "S", help: "preview|web|large (default large)")
    static let force = Flag("--force", aliases: ["-f"], help: "replace an existing file")

    static let spec = CommandSpec(
        name: "save", abstract: "download one image to a file", arguments: "ID",
        usage: "pxview save ID [--out PATH] [--size preview|web|large] [--force]",
        summary: """
            Downloads one image to a file, by default pixabay-ID.jpg (or .png: the extension
            follows the real bytes) in the current directory. Never overwrites without --force.
            """,
        options: [out, size, force] + GlobalOption.all + [CommonOption.help],
        maxPositionals: 1, minPositionals: 1, missing: ("an image ID", "pxview save 1000010"))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let id = try ValueParser.imageID(parsed.positionals[0], command: parsed.command)
        let size = try parsed.value(Self.size) ?? .large
        let force = parsed.has(Self.force)
        let out = try parsed.value(Self.out)
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
        let sizeText = ByteSize.text(image.bytes.count)
        Output.out("saved \(RawFile.display(path)) (\(sizeText))\n")
        return ExitCode.success
    }
}
