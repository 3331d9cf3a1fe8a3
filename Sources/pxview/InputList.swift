import Decoding
import Foundation
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The orders `--sort` puts a folder's images and a list in.
enum ListOrder: String, CaseIterable, Sendable {
    case name, mtime, size, random
}

/// `show`'s inputs made into the files it shows, the one place that does
/// it for the viewer, the grid and `--once`: `-` is the names standard
/// input holds (nsxiv's `-i`), a folder its images (with `-r` its
/// subfolders' too), and `--sort`/`--reverse` order them.
enum InputList {
    static let recursive = Flag(
        "--recursive", aliases: ["-r"],
        help: "a folder includes its subfolders' images (symlink loops, hidden and unreadable folders skipped)")
    static let null = Flag(
        "--null", aliases: ["-0"], help: "names on standard input (-) and printed by -o end with NUL, not a newline")
    static let sort: Option<ListOrder> = .choice(
        "--sort", "name|mtime|size|random",
        help: "order a folder's images and the files given (default: a folder's by name, the files as given)")
    static let reverse = Flag("--reverse", help: "the order reversed (a folder's by name from z, with no --sort)")
    static let all: [any DeclaredOption] = [recursive, null, sort, reverse]

    /// One file to show: as typed (or read), and its path's bytes.
    typealias Input = (text: String, path: [UInt8])

    /// The positionals with `-` replaced by the names on standard input
    /// (read once; an empty line is no name). Keys then come from the
    /// terminal: `/dev/tty` becomes standard input, as it is for a viewer
    /// started from a pipe.
    static func expandingStandardInput(_ parsed: ParsedArguments) throws -> [Input] {
        let inputs = zip(parsed.positionals, parsed.positionalBytes).map { Input(text: $0, path: $1) }
        guard inputs.contains(where: { $0.text == "-" }) else { return inputs }
        let names = split(readStandardInput(), separator: parsed.has(null) ? 0 : UInt8(ascii: "\n"))
        reattachTerminalInput()
        let listed = names.map { Input(text: String(decoding: $0, as: UTF8.self), path: $0) }
        let expanded = inputs.flatMap { $0.text == "-" ? listed : [$0] }
        guard !expanded.isEmpty else { throw CommandError("no file names on standard input") }
        return expanded
    }

    /// Names separated by `separator`, empty ones dropped (a final newline,
    /// `find -print0`'s last NUL); with newlines, a CR before one is dropped too.
    static func split(_ bytes: [UInt8], separator: UInt8) -> [[UInt8]] {
        bytes.split(separator: separator, omittingEmptySubsequences: true).map { name in
            separator == UInt8(ascii: "\n") && name.last == UInt8(ascii: "\r") ? Array(name.dropLast()) : Array(name)
        }.filter { !$0.isEmpty }
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(0, into: $0) }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// `show -o … | xargs`: standard output is the pipe the marked files
    /// go to, so the viewer draws on `/dev/tty` put on descriptor 1 (every
    /// drawing writes there), the pipe kept aside for the list. Nothing
    /// changes when standard output is the terminal or there is none.
    /// Returns where the list goes: the pipe's new descriptor, or 1.
    static func terminalOutputForMarks() -> Int32 {
        guard isatty(1) == 0 else { return 1 }
        let tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return 1 }
        defer { close(tty) }
        let saved = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return 1 }
        dup2(tty, 1)
        return saved
    }

    /// `/dev/tty` on descriptor 0 when standard input is not a terminal
    /// (the list came through it); left alone when there is no terminal.
    private static func reattachTerminalInput() {
        guard isatty(0) == 0 else { return }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return }
        dup2(fd, 0)
        close(fd)
    }

    /// Every input as a file: folders among them expanded in place (their
    /// images by name, or as `order` says), files and URLs as given (or in
    /// `order`). Throws when a folder given cannot be read, or when there
    /// is nothing to show.
    static func files(_ inputs: [Input], recursive: Bool, order: ListOrder?, reverse: Bool) throws -> [Input] {
        var files: [Input] = []
        for input in inputs {
            if !Show.isURL(input.text), RawFile.isDirectory(input.path) {
                var folder = try images(in: input.path, recursive: recursive)
                folder = sorted(folder, by: order ?? .name)
                files += reverse && order == nil ? folder.reversed() : folder
            } else {
                files.append(input)
            }
        }
        guard !files.isEmpty else {
            let names = inputs.map { RawFile.display($0.path) }.joined(separator: ", ")
            throw CommandError("no \(ImageFormat.namesPhrase) images in \(names)")
        }
        guard let order else { return files }
        let sortedFiles = sorted(files, by: order)
        return reverse ? sortedFiles.reversed() : sortedFiles
    }

    /// `files` in `order`: names compared with numbers in order (`img2`
    /// before `img10`), the newest first for mtime (as `ls -t`), the largest
    /// first for size (as `ls -S`); ties by name.
    static func sorted(_ files: [Input], by order: ListOrder) -> [Input] {
        func byName(_ a: Input, _ b: Input) -> Bool {
            a.text.compare(b.text, options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        switch order {
        case .name: return files.sorted(by: byName)
        case .random: return files.shuffled()
        case .mtime, .size:
            let keyed = files.map { file -> (Input, Int64) in
                (file, order == .mtime ? RawFile.modificationTime(file.path) : Int64(RawFile.size(file.path)))
            }
            return keyed.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : byName($0.0, $1.0) }.map(\.0)
        }
    }

    /// The image files of `directory` (by the codec table's extensions; the
    /// bytes are sniffed when loaded), hidden ones left out; with
    /// `recursive`, its subfolders' too, each folder once (a link to a
    /// folder it is in is a loop, not followed) and an unreadable
    /// subfolder skipped.
    static func images(in directory: [UInt8], recursive: Bool) throws -> [Input] {
        var found: [Input] = []
        var seen = Set<RawFile.Identity>()
        var pending: [([UInt8], String)] = [(directory, "")]
        var first = true
        while let (folder, prefix) = pending.popLast() {
            if let identity = RawFile.identity(folder), !seen.insert(identity).inserted { continue }
            let real = RawFile.realPath(folder) ?? folder
            let listed: [[UInt8]]
            switch RawFile.listing(of: folder) {
            case .success(let names): listed = names
            case .failure(let failure):
                if first { throw CommandError("cannot read \(RawFile.display(folder)): \(failure.reason)") }
                continue
            }
            first = false
            let base = folder.last == UInt8(ascii: "/") ? folder : folder + [UInt8(ascii: "/")]
            for name in listed where name.first != UInt8(ascii: ".") {
                let path = base + name
                let shown = prefix + String(decoding: name, as: UTF8.self)
                if recursive, RawFile.isDirectory(path) {
                    // A link to this folder or one above it is a loop: not followed.
                    let target = RawFile.realPath(path) ?? path
                    if real == target || real.starts(with: target + [UInt8(ascii: "/")]) || target == [UInt8(ascii: "/")] {
                        continue
                    }
                    pending.append((path, shown + "/"))
                } else if isImageName(name), RawFile.isRegularFile(path) {
                    // Regular files only: a FIFO named x.jpg would block its reader for ever.
                    found.append(Input(text: shown, path: path))
                }
            }
        }
        return found
    }

    private static func isImageName(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        return ImageFormat.fileExtensions.contains(String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased())
    }
}
