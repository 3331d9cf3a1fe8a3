import Plumbing
import Terminal

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Files named by bytes, as the kernel names them: a path from argv goes to
/// open(2) unchanged, whatever its encoding (`caf\xe9.jpg` is a file name,
/// not a decoding error), and is only made text to be shown.
enum RawFile {
    struct Failure: Error {
        var reason: String
    }

    /// The whole file, at most `limit` bytes. Regular files only: opened
    /// without waiting (`O_NONBLOCK`: opening a FIFO named `a.png` for
    /// reading blocked until a writer came, for ever in a file manager's
    /// preview loop) and refused unless `fstat` says it is one (a FIFO,
    /// socket or device: `/dev/zero` must not fill memory either).
    static func read(_ path: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let fd = withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw Failure(reason: "no such file")
            case EACCES, EPERM: throw Failure(reason: "permission denied")
            case ENXIO: throw Failure(reason: "not a regular file")
            default: throw Failure(reason: String(cString: strerror(errno)))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: "cannot be read") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(reason: "is a directory")
        case S_IFIFO: throw Failure(reason: "not a regular file (a FIFO)")
        case S_IFSOCK: throw Failure(reason: "not a regular file (a socket)")
        default: throw Failure(reason: "not a regular file (a device)")
        }
        // A regular file says its size: too large is known before reading.
        if info.st_size > limit { throw Failure(reason: "larger than \(limit >> 20) MB") }
        if let whole = try readSized(fd, size: Int(info.st_size)) { return whole }
        // It grew while being read: read on, within the limit.
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if count < 0 { throw Failure(reason: "cannot be read") }
            if count == 0 { return data }
            data += buffer.prefix(count)
            if data.count > limit { throw Failure(reason: "larger than \(limit >> 20) MB") }
        }
    }

    /// A regular file of `size` bytes, read straight into one array of that
    /// size (and one byte more, to see it has not grown): growing an array
    /// 64 KB at a time copied a 0.7 MB photo twice into fresh pages, 400
    /// page faults where 170 do. Nil when the file turned out longer, for the
    /// general loop.
    private static func readSized(_ fd: Int32, size: Int) throws(Failure) -> [UInt8]? {
        var failed = false
        let data = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            while initialized < buffer.count {
                let count = Descriptor.read(
                    fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initialized...])))
                if count < 0 { failed = true }
                if count <= 0 { break }
                initialized += count
            }
        }
        if failed { throw Failure(reason: "cannot be read") }
        guard data.count <= size else {
            _ = lseek(fd, 0, SEEK_SET)
            return nil
        }
        return data
    }

    /// True when something (a file, a link, even a dangling one) is at `path`.
    static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return withPath(path) { lstat($0, &info) } == 0
    }

    static func isDirectory(_ path: [UInt8]) -> Bool {
        var info = stat()
        return withPath(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The file's size in bytes; 0 when it cannot be known.
    static func size(_ path: [UInt8]) -> Int {
        var info = stat()
        return withPath(path) { stat($0, &info) } == 0 ? Int(info.st_size) : 0
    }

    /// When the file was last modified, in nanoseconds since 1970; 0 when
    /// it cannot be known.
    static func modificationTime(_ path: [UInt8]) -> Int64 {
        var info = stat()
        guard withPath(path, { stat($0, &info) }) == 0 else { return 0 }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// What makes a file itself, whatever path leads to it.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The file's device and inode (through symlinks); nil when it cannot be read.
    static func identity(_ path: [UInt8]) -> Identity? {
        var info = stat()
        guard withPath(path, { stat($0, &info) }) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `path` from the root: the current directory before a relative one
    /// (links left as they are, so the name stays the one the user knows).
    static func absolute(_ path: [UInt8]) -> [UInt8] {
        guard path.first != UInt8(ascii: "/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let relative = path.starts(with: Array("./".utf8)) ? Array(path.dropFirst(2)) : path
        return directory + (directory.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + relative
    }

    /// The path with every symlink resolved (realpath(3)); nil when it cannot be.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        guard let resolved = withPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// A regular file (not a FIFO, whose open(2) would block; not a device).
    static func isRegularFile(_ path: [UInt8]) -> Bool {
        var info = stat()
        return withPath(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The entries of a directory, as bytes ("." and ".." left out); nil
    /// with the reason when it cannot be listed.
    static func listing(of directory: [UInt8]) -> Result<[[UInt8]], Failure> {
        guard withPath(directory, { access($0, R_OK | X_OK) }) == 0 else {
            return .failure(Failure(reason: errno == EACCES ? "permission denied" : String(cString: strerror(errno))))
        }
        return .success(names(in: directory))
    }

    /// The entries of a directory, as bytes ("." and ".." left out).
    static func names(in directory: [UInt8]) -> [[UInt8]] {
        DirectoryListing.names(in: directory)
    }

    /// A path for a message: invalid UTF-8 shown as U+FFFD, controls made harmless.
    static func display(_ path: [UInt8]) -> String {
        TerminalText.sanitize(String(decoding: path, as: UTF8.self))
    }

    /// `body` with `path` as a NUL-terminated C string.
    static func withPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body($0) }
        }
    }
}
