import Terminal
import Foundation
import HTTP
import Pixabay

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
        let sizeText = StderrProgressReporter.formatBytes(Double(image.bytes.count))
        Output.out("saved \(RawFile.display(path)) (\(sizeText))\n")
        return ExitCode.success
    }
}

/// Writes a whole file or nothing: the bytes go to a hidden temporary file in
/// the destination's directory (same file system, so the final step is
/// atomic) which is then linked or renamed into place. A failure at any
/// point removes the temporary file, so nothing half-written is left behind.
/// Paths are bytes, as the kernel takes them.
enum AtomicFile {
    /// The destination is already there and `replacing` was false. Callers
    /// word the advice: `save` has `--force`, the viewer's `s` key has not.
    struct AlreadyExists: Error, CustomStringConvertible {
        var path: [UInt8]
        var description: String { "\(RawFile.display(path)) already exists" }
    }

    static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws {
        try write(bytes, to: Array(path.utf8), replacing: replacing)
    }

    /// - Parameter replacing: false refuses an existing file, also one that
    ///   appeared while writing (link(2) fails with EEXIST rather than replace).
    ///
    /// Ctrl-C, SIGTERM or SIGHUP while writing removes the temporary file
    /// (`TemporaryFileGuard`); one a killed process could not remove (SIGKILL,
    /// a crash) is swept by the next write into the same folder.
    static func write(_ bytes: [UInt8], to path: [UInt8], replacing: Bool) throws {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { Array(path[...$0]) } ?? []
        let name = slash.map { Array(path[($0 + 1)...]) } ?? path
        sweepStaleParts(in: directory.isEmpty ? Array(".".utf8) : directory)
        let temporary = directory + [UInt8(ascii: ".")] + name
            + Array(".part-\(getpid())-\(UInt32.random(in: 0 ... .max))".utf8)
        let failure: String? = TemporaryFileGuard.removing(temporary) {
            let fd = RawFile.withPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
            guard fd >= 0 else { return errnoText() }
            var failure = writeAll(bytes, to: fd)
            if failure == nil, fsync(fd) != 0 { failure = errnoText() }
            if close(fd) != 0, failure == nil { failure = errnoText() }
            if failure == nil {
                failure = replacing ? moveReplacing(temporary, path) : moveRefusingExisting(temporary, path)
            }
            return failure
        }
        if let failure {
            _ = RawFile.withPath(temporary) { unlink($0) }
            if failure == Self.existsMarker { throw AlreadyExists(path: path) }
            throw CommandError("cannot write \(RawFile.display(path)): \(failure)")
        }
    }

    /// Removes `.NAME.part-PID-RAND` files of processes that no longer run:
    /// what an interrupted write left behind. Another running pxview's part
    /// files, and any other file, are left alone.
    static func sweepStaleParts(in directory: [UInt8]) {
        let base = directory.last == UInt8(ascii: "/") ? directory : directory + [UInt8(ascii: "/")]
        for name in RawFile.names(in: directory) {
            guard let pid = partFileOwner(String(decoding: name, as: UTF8.self)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { _ = RawFile.withPath(base + name) { unlink($0) } }
        }
    }

    /// The process id in a part file's name `.NAME.part-PID-RAND`, or nil.
    static func partFileOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".part-", options: .backwards),
            marker.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        let fields = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[1].allSatisfy(\.isNumber), !fields[1].isEmpty,
            let pid = pid_t(fields[0]), pid > 0
        else { return nil }
        return pid
    }

    private static func moveReplacing(_ temporary: [UInt8], _ path: [UInt8]) -> String? {
        let status = RawFile.withPath(temporary) { from in RawFile.withPath(path) { rename(from, $0) } }
        return status == 0 ? nil : errnoText()
    }

    /// link(2) then unlink the temporary name: atomic "create if absent".
    /// File systems without hard links fall back to check-then-rename.
    private static func moveRefusingExisting(_ temporary: [UInt8], _ path: [UInt8]) -> String? {
        if RawFile.withPath(temporary, { from in RawFile.withPath(path) { link(from, $0) } }) == 0 {
            _ = RawFile.withPath(temporary) { unlink($0) }
            return nil
        }
        let linkError = errno
        if linkError == EEXIST { return existsMarker }
        guard linkError == EPERM || linkError == ENOTSUP || linkError == EXDEV || linkError == EMLINK else {
            return String(cString: strerror(linkError))
        }
        if RawFile.exists(path) { return existsMarker }
        return moveReplacing(temporary, path)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return errnoText() }
            offset += count
        }
        return nil
    }

    /// What the move helpers report when the destination exists.
    private static let existsMarker = "\u{0}exists"

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
