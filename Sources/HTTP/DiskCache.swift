import Foundation
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Why the cache could not be written or cleared. Reads never fail: a
/// missing, unreadable or corrupt entry is simply a miss.
package enum DiskCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(String, reason: String)
    case cannotWrite(String, reason: String)
    case cannotRemove(String, reason: String)

    package var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create cache directory \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write cache file \(path): \(reason)"
        case .cannotRemove(let path, let reason): "cannot remove cache file \(path): \(reason)"
        }
    }
}

/// A size-bounded cache of byte blobs on disk, one file per key.
///
/// - File names are the SHA-256 of the key, so keys (URLs) never appear on disk.
/// - The directory is private (0700) and files 0600: cached search results
///   are the user's business.
/// - Each file starts with a header holding the store time, the payload
///   length and a SHA-256 over those and the payload; a file that is truncated or damaged
///   fails the check and is deleted on read. That is why writes skip
///   `fsync`: a file torn by a crash is detected rather than prevented,
///   which is cheaper than a disk flush per thumbnail.
/// - Writes go through `AtomicWrite`: a temporary file in the same directory renamed
///   into place, so readers see the old entry or the new one, never half.
/// - When the total exceeds `maxBytes`, least recently used entries go
///   first; a read counts as a use (the file's modification time is set to
///   the access time, since atime is unreliable under `relatime`/`noatime`).
package struct DiskCache: Sendable {
    /// A stored blob and when it was stored.
    package struct Entry: Sendable, Equatable {
        package var data: [UInt8]
        package var storedAt: Date
    }

    package let directory: String
    package let maxBytes: Int
    /// Injected so tests can age entries without waiting.
    let now: @Sendable () -> Date
    /// Told what was skipped and why (`PXVIEW_DEBUG`): a cache entry that is
    /// not what pxview wrote is passed over silently otherwise.
    package var note: (@Sendable (String) -> Void)?

    static let magic: [UInt8] = Array("PXC1".utf8)
    /// magic (4) + store time (8) + payload length (8) + SHA-256 of those two and the payload (32).
    static let headerSize = 52
    private static let temporaryPrefix = ".tmp-"
    /// Temporary files older than this were left by a crashed writer.
    private static let abandonedTemporaryAge: TimeInterval = 3600

    package init(directory: String, maxBytes: Int = 512 << 20, now: @escaping @Sendable () -> Date = Date.init) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.now = now
    }

    /// `$XDG_CACHE_HOME/pxview` when that is set to an absolute path (as the
    /// XDG spec requires), else `~/.cache/pxview`.
    package static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return xdg + "/pxview"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/pxview"
    }

    // MARK: Reading

    /// The entry for `key` whatever its age: freshness is the caller's
    /// (`CachingFetcher` serves a stale copy when the network is down).
    /// Corrupt entries are deleted and reported missing. Counts as a use
    /// for LRU.
    package func entry(forKey key: String) -> Entry? {
        let path = path(forKey: key)
        let bytes: [UInt8]
        switch Self.readWholeFile(path, limit: maxBytes) {
        case .read(let read): bytes = read
        case .missing: return nil
        case .skipped(let reason):
            note?("cache entry \(path) skipped: \(reason)")
            return nil
        }
        guard let entry = Self.decode(bytes) else {
            unlink(path)
            return nil
        }
        Self.setTimes(path: path, to: now())
        return entry
    }

    // MARK: Writing

    /// Stores `data` under `key` atomically, then evicts least recently
    /// used entries while the cache is over `maxBytes`. An entry larger
    /// than `maxBytes` on its own is not stored (it would only flush
    /// everything else) and any older copy under `key` is forgotten.
    package func put(key: String, data: [UInt8]) throws {
        guard Self.headerSize + data.count <= maxBytes else {
            remove(key: key)
            return
        }
        try createDirectory()
        let temporary = directory + "/" + Self.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let destination = path(forKey: key)
        do throws(SystemError) {
            // Exactly 0600 whatever the umask; no fsync (see above).
            try AtomicWrite.write(
                Self.encode(data, storedAt: now()), to: Array(destination.utf8), temporary: Array(temporary.utf8),
                permissions: 0o600, exactPermissions: true, synced: false,
                beforeMove: { Self.setTimes(path: temporary, to: now()) })
        } catch {
            throw DiskCacheError.cannotWrite(error.call == .rename ? destination : temporary, reason: error.reason)
        }
        evictIfNeeded()
    }

    /// Forgets `key`; nothing happens if it is not cached.
    package func remove(key: String) {
        unlink(path(forKey: key))
    }

    /// Deletes every entry (and leftover temporary file); keeps the directory.
    package func clear() throws {
        for file in listFiles() where file.isEntry || file.isTemporary {
            if unlink(file.path) != 0, errno != ENOENT {
                throw DiskCacheError.cannotRemove(file.path, reason: SystemError.lastReason)
            }
        }
    }

    /// What `pxview cache info` shows.
    package func info() -> (entries: Int, bytes: Int, directory: String) {
        let entries = listFiles().filter(\.isEntry)
        return (entries.count, entries.reduce(0) { $0 + $1.size }, directory)
    }

    func path(forKey key: String) -> String {
        directory + "/" + SHA256.hexDigest(key.utf8)
    }

    // MARK: Eviction

    private struct CacheFile {
        var path: String
        var name: String
        var size: Int
        var lastUse: Date
        var isEntry: Bool { name.count == 64 && name.allSatisfy(\.isHexDigit) }
        var isTemporary: Bool { name.hasPrefix(DiskCache.temporaryPrefix) }
    }

    private func listFiles() -> [CacheFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            let lastUse = Date(
                timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return CacheFile(path: path, name: name, size: Int(info.st_size), lastUse: lastUse)
        }
    }

    private func evictIfNeeded() {
        let files = listFiles()
        let realNow = Date()
        for file in files where file.isTemporary && realNow.timeIntervalSince(file.lastUse) > Self.abandonedTemporaryAge {
            unlink(file.path)
        }
        let entries = files.filter(\.isEntry)
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > maxBytes else { return }
        let oldestFirst = entries.sorted { ($0.lastUse, $0.name) < ($1.lastUse, $1.name) }
        for file in oldestFirst where total > maxBytes {
            if unlink(file.path) == 0 || errno == ENOENT { total -= file.size }
        }
    }

    // MARK: File format

    static func encode(_ data: [UInt8], storedAt: Date) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + data.count)
        bytes += littleEndianBytes(storedAt.timeIntervalSince1970.bitPattern)
        bytes += littleEndianBytes(UInt64(data.count))
        bytes += checksum(header: bytes[4..<20], data: data[...])
        bytes += data
        return bytes
    }

    /// Covers the store time and length as well as the payload, so no
    /// damaged byte anywhere goes unnoticed.
    private static func checksum(header: ArraySlice<UInt8>, data: ArraySlice<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(header)
        hasher.update(data)
        return hasher.finalize()
    }

    static func decode(_ bytes: [UInt8]) -> Entry? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { return nil }
        let storedAt = Double(bitPattern: readLittleEndian(bytes, at: 4))
        let length = readLittleEndian(bytes, at: 12)
        guard storedAt.isFinite, length == UInt64(bytes.count - headerSize) else { return nil }
        guard checksum(header: bytes[4..<20], data: bytes[headerSize...])[...] == bytes[20..<headerSize] else {
            return nil
        }
        return Entry(data: Array(bytes[headerSize...]), storedAt: Date(timeIntervalSince1970: storedAt))
    }

    private static func littleEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << ($1 * 8) }
    }

    // MARK: POSIX helpers

    /// Creates the directory and any missing parents with mode 0700, and
    /// tightens the cache directory itself to 0700 if it already existed,
    /// but never through a symbolic link: a cache folder linked to a shared
    /// folder (a sticky /tmp) once had that folder's mode changed to 0700.
    /// Entries are 0600 whatever the folder.
    private func createDirectory() throws {
        var path = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw DiskCacheError.cannotCreateDirectory(path, reason: SystemError.lastReason)
            }
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                note?("cache folder \(directory) is a symbolic link: its mode is left as it is")
                return
            }
            throw DiskCacheError.cannotCreateDirectory(directory, reason: SystemError.lastReason)
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & 0o777 != 0o700, fchmod(fd, 0o700) != 0 {
            throw DiskCacheError.cannotCreateDirectory(directory, reason: SystemError.lastReason)
        }
    }

    enum FileRead: Equatable {
        case read([UInt8])
        case missing
        /// Not a file pxview wrote: left alone, never read.
        case skipped(String)
    }

    /// A cache entry, read only when it is a regular file (not a symlink:
    /// O_NOFOLLOW; not a FIFO, whose open would wait for a writer for ever:
    /// O_NONBLOCK; not a directory or device) of at most `limit` bytes (a
    /// symlinked 50 GB sparse file once aborted pxview allocating for it).
    static func readWholeFile(_ path: String, limit: Int) -> FileRead {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            return errno == ELOOP ? .skipped("a symbolic link") : .skipped(SystemError.lastReason)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .skipped(SystemError.lastReason) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .skipped("not a regular file") }
        guard info.st_size >= 0, info.st_size <= limit else { return .skipped("\(info.st_size) bytes, over the cache's size") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Descriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[offset...]))
            }
            guard count > 0 else { return .skipped("shorter than it said") }
            offset += count
        }
        return .read(bytes)
    }

    private static func setTimes(path: String, to date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        let times = [time, time]
        _ = utimensat(AT_FDCWD, path, times, 0)
    }
}
