import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The freedesktop.org trash (Trash specification 1.0), as file managers
/// use it: a file is renamed into `files/` of a trash on its own device,
/// after its `.trashinfo` (the old path and the time) was made in `info/`
/// under the same name. Never an unlink: when no trash on the file's device
/// can take it, nothing moves and the reason is said.
struct Trash {
    /// The home trash: `$XDG_DATA_HOME/Trash` (`~/.local/share/Trash`).
    let home: [UInt8]
    let uid: uid_t
    /// The deletion time written (local time, as the spec says).
    var now: () -> Date = Date.init

    init(environment: [String: String], uid: uid_t = getuid()) {
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? "/") + "/.local/share")
        home = Array((data + "/Trash").utf8)
        self.uid = uid
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Moves `path` (absolute) into the trash on its device; the name it got there.
    @discardableResult
    func move(_ path: [UInt8]) throws(Failure) -> [UInt8] {
        guard path.first == UInt8(ascii: "/") else { throw Failure(description: "not an absolute path") }
        guard let device = RawFile.identity(path)?.device, RawFile.isRegularFile(path) else {
            throw Failure(description: "not a file any more")
        }
        let (trash, relativeTo) = try trashDirectory(for: path, device: device)
        let files = trash + Array("/files".utf8)
        let info = trash + Array("/info".utf8)
        // The folders above the trash too (a fresh XDG_DATA_HOME), as `mkdir -p`.
        var prefixes: [[UInt8]] = []
        for (index, byte) in trash.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
            prefixes.append(Array(trash[..<index]))
        }
        for directory in prefixes + [trash, files, info] where !RawFile.isDirectory(directory) {
            guard RawFile.withPath(directory, { mkdir($0, 0o700) }) == 0 || errno == EEXIST else {
                throw Failure(description: "cannot make \(RawFile.display(directory)): \(String(cString: strerror(errno)))")
            }
        }
        let name = Array(path.split(separator: UInt8(ascii: "/")).last ?? [])
        let (stem, ext) = Self.split(name)
        for number in 1...1000 {
            let candidate = number == 1 ? name : stem + Array(".\(number)".utf8) + ext
            let infoPath = info + [UInt8(ascii: "/")] + candidate + Array(".trashinfo".utf8)
            // The info file first, made exclusively: it claims the name.
            let fd = RawFile.withPath(infoPath) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            if fd < 0 {
                if errno == EEXIST { continue }
                throw Failure(description: "cannot write to the trash: \(String(cString: strerror(errno)))")
            }
            let shown = relativeTo.map { Array(path.dropFirst($0.count + 1)) } ?? path
            let text = Array(Self.info(path: shown, date: now()).utf8)
            let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            let target = files + [UInt8(ascii: "/")] + candidate
            if written != text.count || RawFile.exists(target)
                || RawFile.withPath(path, { from in RawFile.withPath(target) { rename(from, $0) } }) != 0
            {
                let reason = written != text.count ? "the trash's info could not be written" : String(cString: strerror(errno))
                _ = RawFile.withPath(infoPath) { unlink($0) }
                if RawFile.exists(target) && written == text.count { continue }
                throw Failure(description: "not moved to the trash: \(reason)")
            }
            return candidate
        }
        throw Failure(description: "the trash holds 1000 files of that name")
    }

    /// The trash a file on `device` goes to: the home trash when it is on
    /// the same device, else its top directory's `.Trash/UID` (when
    /// `.Trash` is a sticky directory, not a link) or `.Trash-UID`, whose
    /// info names paths relative to that top directory.
    func trashDirectory(for path: [UInt8], device: UInt64) throws(Failure) -> (trash: [UInt8], relativeTo: [UInt8]?) {
        var homeBase = home
        while !RawFile.exists(homeBase), let slash = homeBase.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            homeBase = Array(homeBase[..<slash])
        }
        if RawFile.identity(homeBase)?.device == device { return (home, nil) }
        // The top directory: the highest folder above the file on the same device.
        var top = Array(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
        while let slash = top.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            let parent = Array(top[..<slash])
            guard RawFile.identity(parent)?.device == device else { break }
            top = parent
        }
        if top.isEmpty || RawFile.identity([UInt8(ascii: "/")])?.device == device { top = [] }
        let shared = top + Array("/.Trash".utf8)
        var info = stat()
        if RawFile.withPath(shared, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_ISVTX != 0 {
            return (shared + Array("/\(uid)".utf8), top)
        }
        let own = top + Array("/.Trash-\(uid)".utf8)
        if RawFile.withPath(own, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw Failure(description: "\(RawFile.display(own)) is not a folder: no trash on that device")
        }
        return (own, top)
    }

    /// A `.trashinfo` file's text: the path percent-encoded (RFC 2396,
    /// `/` kept), the local time to the second.
    static func info(path: [UInt8], date: Date) -> String {
        let unreserved = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'()/".utf8))
        let encoded = path.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return "[Trash Info]\nPath=\(encoded)\nDeletionDate=\(formatter.string(from: date))\n"
    }

    /// `photo.jpg` as (`photo`, `.jpg`); a name without a dot has no extension.
    static func split(_ name: [UInt8]) -> (stem: [UInt8], ext: [UInt8]) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return (name, []) }
        return (Array(name[..<dot]), Array(name[dot...]))
    }
}
