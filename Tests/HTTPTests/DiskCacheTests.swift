import Foundation
import TestSupport
import Testing

@testable import HTTP

private func fileNames(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

private func mode(of path: String) -> mode_t {
    var info = stat()
    _ = stat(path, &info)
    return info.st_mode & 0o777
}

@Suite struct DiskCacheTests {
    @Test func putThenEntryReturnsTheData() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path + "/cache")
        let data = (0..<300).map { UInt8($0 % 256) }

        try cache.put(key: "GET https://example.test/a", data: data)

        #expect(cache.entry(forKey: "GET https://example.test/a")?.data == data)
        #expect(cache.entry(forKey: "GET https://example.test/b")?.data == nil)
        #expect(cache.info().entries == 1)
        #expect(cache.info().bytes == DiskCache.headerSize + data.count)
        #expect(cache.info().directory == directory.path + "/cache")
    }

    @Test func fileNamesAreKeyHashesNotKeys() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path)
        let key = "GET https://pixabay.com/api/?q=fox"

        try cache.put(key: key, data: [1, 2, 3])

        #expect(fileNames(in: directory.path) == [SHA256.hexDigest(key.utf8)])
    }

    @Test func overwritingReplacesTheEntry() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path)

        try cache.put(key: "k", data: [1, 1, 1])
        try cache.put(key: "k", data: [2, 2])

        #expect(cache.entry(forKey: "k")?.data == [2, 2])
        #expect(cache.info().entries == 1)
    }

    @Test func entriesKeepTheirStoreTimeAndStayWhateverTheirAge() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache(directory: directory.path, now: clock.function)
        try cache.put(key: "k", data: [7, 7, 7])

        clock.advance(by: 365 * 86400)
        let entry = cache.entry(forKey: "k")

        #expect(entry?.data == [7, 7, 7])
        #expect(entry?.storedAt == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func truncatedEntryIsDropped() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path)
        try cache.put(key: "k", data: [UInt8](repeating: 9, count: 100))
        let path = cache.path(forKey: "k")
        #expect(truncate(path, off_t(DiskCache.headerSize + 50)) == 0)

        #expect(cache.entry(forKey: "k")?.data == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [0, 10, DiskCache.headerSize + 5])
    func flippedByteIsDetected(offset: Int) throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path)
        try cache.put(key: "k", data: [UInt8](repeating: 9, count: 100))
        let path = cache.path(forKey: "k")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[offset] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(cache.entry(forKey: "k")?.data == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func leastRecentlyUsedEntryIsEvictedFirst() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let entrySize = DiskCache.headerSize + 100
        let cache = DiskCache(directory: directory.path, maxBytes: entrySize * 3, now: clock.function)
        let payload = [UInt8](repeating: 1, count: 100)
        for key in ["a", "b", "c"] {
            clock.advance(by: 10)
            try cache.put(key: key, data: payload)
        }
        clock.advance(by: 10)
        _ = cache.entry(forKey: "a")  // "a" is now the most recently used

        clock.advance(by: 10)
        try cache.put(key: "d", data: payload)

        #expect(cache.entry(forKey: "b")?.data == nil)
        #expect(cache.entry(forKey: "a")?.data == payload)
        #expect(cache.entry(forKey: "c")?.data == payload)
        #expect(cache.entry(forKey: "d")?.data == payload)
        #expect(cache.info().bytes == entrySize * 3)
    }

    @Test func entryLargerThanTheWholeCacheIsNotKept() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path, maxBytes: 1000)
        try cache.put(key: "small", data: [UInt8](repeating: 1, count: 10))
        try cache.put(key: "huge", data: [3])  // an older, smaller copy that must not survive

        try cache.put(key: "huge", data: [UInt8](repeating: 2, count: 2000))

        #expect(cache.entry(forKey: "huge")?.data == nil)
        #expect(cache.entry(forKey: "small")?.data == [UInt8](repeating: 1, count: 10))
    }

    @Test func directoryIsPrivateAndFilesOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let nested = directory.path + "/xdg/pxview"
        let cache = DiskCache(directory: nested)

        try cache.put(key: "k", data: [1])

        #expect(mode(of: directory.path + "/xdg") == 0o700)
        #expect(mode(of: nested) == 0o700)
        #expect(mode(of: cache.path(forKey: "k")) == 0o600)
    }

    @Test func existingWideDirectoryIsTightened() throws {
        let directory = try TemporaryDirectory()
        #expect(chmod(directory.path, 0o755) == 0)

        try DiskCache(directory: directory.path).put(key: "k", data: [1])

        #expect(mode(of: directory.path) == 0o700)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path, maxBytes: 2 * (DiskCache.headerSize + 10))

        for index in 0..<6 {
            try cache.put(key: "key \(index)", data: [UInt8](repeating: UInt8(index), count: 10))
        }

        let names = fileNames(in: directory.path)
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func clearRemovesEverything() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path)
        try cache.put(key: "a", data: [1])
        try cache.put(key: "b", data: [2])

        try cache.clear()

        #expect(cache.info().entries == 0)
        #expect(cache.info().bytes == 0)
        #expect(cache.entry(forKey: "a")?.data == nil)
        #expect(FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func missingDirectoryIsAnEmptyCache() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path + "/not/yet")

        #expect(cache.entry(forKey: "k")?.data == nil)
        #expect(cache.info().entries == 0)
        try cache.clear()
    }

    @Test func unwritableLocationThrowsAClearError() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.path + "/file"
        try Data([1]).write(to: URL(fileURLWithPath: blocker))

        #expect(throws: DiskCacheError.self) { try DiskCache(directory: blocker + "/cache").put(key: "k", data: [1]) }
        do {
            try DiskCache(directory: blocker + "/cache").put(key: "k", data: [1])
        } catch {
            #expect("\(error)".hasPrefix("cannot create cache directory \(blocker)"))
        }
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]) == "/x/cache/pxview")
        #expect(
            DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.cache/pxview")
        #expect(DiskCache.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.cache/pxview")
    }

    /// What is at an entry's path but is not a file pxview wrote is skipped
    /// at once, with a note, never read: a FIFO (whose open would wait for
    /// ever), a directory, a sparse 50 GB file (once an abort allocating
    /// for it), a symbolic link.
    @Test func entriesThatAreNotPlainFilesAreSkippedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let notes = NoteRecorder()
        var cache = DiskCache(directory: directory.path)
        cache.note = { notes.add($0) }
        try cache.put(key: "real", data: [1, 2, 3])
        let fifo = cache.path(forKey: "fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(mkdir(cache.path(forKey: "folder"), 0o700) == 0)
        let sparse = cache.path(forKey: "sparse")
        let fd = open(sparse, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        #expect(fd >= 0 && ftruncate(fd, 50 << 30) == 0)
        close(fd)
        #expect(symlink(cache.path(forKey: "real"), cache.path(forKey: "link")) == 0)

        let start = Date()
        for key in ["fifo", "folder", "sparse", "link"] {
            #expect(cache.entry(forKey: key) == nil, "\(key)")
        }
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(cache.entry(forKey: "real")?.data == [1, 2, 3])
        #expect(
            notes.all == [
                "cache entry \(fifo) skipped: not a regular file",
                "cache entry \(cache.path(forKey: "folder")) skipped: not a regular file",
                "cache entry \(sparse) skipped: \(50 << 30) bytes, over the cache's size",
                "cache entry \(cache.path(forKey: "link")) skipped: a symbolic link",
            ])
        // Skipped, not removed: none of them is pxview's to delete.
        #expect(access(fifo, F_OK) == 0 && access(sparse, F_OK) == 0)
    }

    /// A cache folder that is a link to a shared folder keeps that folder's
    /// mode: pxview never chmods through a symbolic link.
    @Test func aLinkedCacheFolderIsNotChmodded() throws {
        let directory = try TemporaryDirectory()
        let shared = directory.file("shared")
        #expect(mkdir(shared, 0o777) == 0)
        #expect(chmod(shared, 0o1777) == 0)
        let link = directory.file("cache")
        #expect(symlink(shared, link) == 0)
        let cache = DiskCache(directory: link)
        try cache.put(key: "k", data: [9])
        var info = stat()
        #expect(stat(shared, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o1777)
        #expect(cache.entry(forKey: "k")?.data == [9])
        #expect(mode(of: cache.path(forKey: "k")) == 0o600)
    }
}

private final class NoteRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []
    var all: [String] { lock.withLock { notes } }
    func add(_ note: String) { lock.withLock { notes.append(note) } }
}
