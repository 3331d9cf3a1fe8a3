import Foundation
import Plumbing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A saved photo: enough to list and preview it with no network and no key,
/// with the same figures (size, likes, views) the search showed. Files
/// written before likes, views, downloads, byte size and preview size were
/// kept still load: those read as 0 until the photo is saved again.
package struct FavouriteEntry: Codable, Sendable, Equatable, Identifiable {
    package var id: Int
    package var tags: String
    package var user: String
    package var userID: Int
    package var type: String
    package var pageURL: String
    package var previewURL: String
    package var previewWidth: Int
    package var previewHeight: Int
    package var webformatURL: String
    package var largeImageURL: String
    package var imageWidth: Int
    package var imageHeight: Int
    /// The original's size in bytes, as Pixabay reports it.
    package var imageSize: Int
    package var likes: Int
    package var views: Int
    package var downloads: Int
    package var added: Date

    package init(hit: PixabayHit, added: Date) {
        id = hit.id
        tags = hit.tags
        user = hit.user
        userID = hit.userID
        type = hit.type
        pageURL = hit.pageURL
        previewURL = hit.previewURL
        previewWidth = hit.previewWidth
        previewHeight = hit.previewHeight
        webformatURL = hit.webformatURL
        largeImageURL = hit.largeImageURL
        imageWidth = hit.imageWidth
        imageHeight = hit.imageHeight
        imageSize = hit.imageSize
        likes = hit.likes
        views = hit.views
        downloads = hit.downloads
        self.added = added
    }

    private enum CodingKeys: String, CodingKey {
        case id, tags, user, userID, type, pageURL, previewURL, previewWidth, previewHeight, webformatURL
        case largeImageURL, imageWidth, imageHeight, imageSize, likes, views, downloads, added
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        tags = try c.decode(String.self, forKey: .tags)
        user = try c.decode(String.self, forKey: .user)
        userID = try c.decode(Int.self, forKey: .userID)
        type = try c.decode(String.self, forKey: .type)
        pageURL = try c.decode(String.self, forKey: .pageURL)
        previewURL = try c.decode(String.self, forKey: .previewURL)
        webformatURL = try c.decode(String.self, forKey: .webformatURL)
        largeImageURL = try c.decode(String.self, forKey: .largeImageURL)
        imageWidth = try c.decode(Int.self, forKey: .imageWidth)
        imageHeight = try c.decode(Int.self, forKey: .imageHeight)
        added = try c.decode(Date.self, forKey: .added)
        // Added in format 1's second revision: absent from older files.
        previewWidth = try c.decodeIfPresent(Int.self, forKey: .previewWidth) ?? 0
        previewHeight = try c.decodeIfPresent(Int.self, forKey: .previewHeight) ?? 0
        imageSize = try c.decodeIfPresent(Int.self, forKey: .imageSize) ?? 0
        likes = try c.decodeIfPresent(Int.self, forKey: .likes) ?? 0
        views = try c.decodeIfPresent(Int.self, forKey: .views) ?? 0
        downloads = try c.decodeIfPresent(Int.self, forKey: .downloads) ?? 0
    }

    /// A hit carrying what was saved, so favourites go through the same views as results.
    package var hit: PixabayHit {
        PixabayHit(
            id: id, pageURL: pageURL, type: type, tags: tags, previewURL: previewURL, previewWidth: previewWidth,
            previewHeight: previewHeight, webformatURL: webformatURL, largeImageURL: largeImageURL,
            imageWidth: imageWidth, imageHeight: imageHeight, imageSize: imageSize, views: views,
            downloads: downloads, likes: likes, userID: userID, user: user)
    }
}

/// Favourites in `<directory>/favourites.json`.
///
/// Every change rewrites the file through a temporary file and rename(2), so
/// a crash leaves either the old or the new list, never half of one. A file
/// that does not parse is never overwritten: it is renamed to
/// `favourites.json.corrupt-<UTC timestamp>` and reported, so the user can
/// recover it. Every read-modify-write holds an exclusive `flock` on
/// `.favourites.lock` beside the file, so two processes (two `fav add`
/// loops, two explorers) never lose each other's changes: without it, 200
/// concurrent adds from two processes kept 181.
package struct FavouritesStore: Sendable {
    package static let fileName = "favourites.json"
    static let formatVersion = 1

    package let directory: String
    private let now: @Sendable () -> Date

    /// `directory` defaults to `$XDG_DATA_HOME/pxview`, else `~/.local/share/pxview`.
    /// `now` stamps additions and corrupt-file names (tests pin it).
    package init(
        directory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.now = now
    }

    package static func defaultDirectory(environment: [String: String]) -> String {
        // The XDG spec says relative values are invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/pxview"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/pxview"
    }

    package var path: String { directory + "/" + Self.fileName }

    /// Saved favourites in the order they were added; [] when nothing was saved yet.
    package func list() throws(PixabayError) -> [FavouriteEntry] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .favourites("cannot read \(path)")
        }
        let file: FavouritesFile
        do {
            file = try Self.decoder.decode(FavouritesFile.self, from: data)
        } catch {
            throw .corruptFavourites(path: path, movedTo: try moveAside())
        }
        if file.version > Self.formatVersion {
            throw .favourites("\(path) was written by a newer pxview (format \(file.version)); left untouched")
        }
        return file.favourites
    }

    /// Saves `hit`; false (and no write) when it is already a favourite.
    @discardableResult
    package func add(_ hit: PixabayHit) throws(PixabayError) -> Bool {
        try locked { () throws(PixabayError) in
            var entries = try list()
            if entries.contains(where: { $0.id == hit.id }) { return false }
            entries.append(FavouriteEntry(hit: hit, added: now()))
            try save(entries)
            return true
        }
    }

    /// Forgets `id`; false (and no write) when it was not a favourite.
    @discardableResult
    package func remove(id: Int) throws(PixabayError) -> Bool {
        try locked { () throws(PixabayError) in
            var entries = try list()
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
            entries.remove(at: index)
            try save(entries)
            return true
        }
    }

    /// Adds `hit` when it is not a favourite, else removes it, in one locked
    /// step (what the file says now decides, not what a screen showed);
    /// returns whether it is a favourite afterwards.
    package func toggle(_ hit: PixabayHit) throws(PixabayError) -> Bool {
        try locked { () throws(PixabayError) in
            var entries = try list()
            if let index = entries.firstIndex(where: { $0.id == hit.id }) {
                entries.remove(at: index)
                try save(entries)
                return false
            }
            entries.append(FavouriteEntry(hit: hit, added: now()))
            try save(entries)
            return true
        }
    }

    package static let lockFileName = ".favourites.lock"

    /// Runs `body` holding an exclusive flock on the lock file (waiting for
    /// another process to finish its change); released when the file closes.
    private func locked<T>(_ body: () throws(PixabayError) -> T) throws(PixabayError) -> T {
        try makeDirectory()
        let lockPath = directory + "/" + Self.lockFileName
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .favourites("cannot open \(lockPath): \(SystemError.lastReason)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw .favourites("cannot lock \(lockPath): \(SystemError.lastReason)") }
        }
        return try body()
    }

    package func contains(id: Int) throws(PixabayError) -> Bool {
        try list().contains { $0.id == id }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Renames the unreadable file out of the way and returns its new path.
    private func moveAside() throws(PixabayError) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = "\(path).corrupt-\(formatter.string(from: now()))"
        var target = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(base)-\(attempt)"
        }
        guard rename(path, target) == 0 else {
            throw .favourites("\(path) is corrupt and could not be moved aside: \(SystemError.lastReason)")
        }
        return target
    }

    /// Temp file in the same directory (same file system, so rename is atomic),
    /// fsync, rename over the old file, fsync the directory (`AtomicWrite`).
    private func save(_ entries: [FavouriteEntry]) throws(PixabayError) {
        try makeDirectory()
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Self.encoder.encode(FavouritesFile(version: Self.formatVersion, favourites: entries)))
        } catch {
            throw .favourites("cannot encode favourites: \(error)")
        }
        // What a pxview killed mid-save left (`kill -9`) goes first.
        DirectoryListing.removeEntriesOfDeadProcesses(
            in: Array(directory.utf8), prefix: Array(Self.temporaryPrefix.utf8), owner: Self.temporaryFileOwner)
        let temporary = "\(directory)/\(Self.temporaryPrefix)\(getpid())-\(UInt32.random(in: 0 ... .max))"
        do throws(SystemError) {
            try AtomicWrite.write(bytes, to: Array(path.utf8), temporary: Array(temporary.utf8), permissions: 0o600)
        } catch  where error.call == .open {
            throw .favourites("cannot create \(temporary): \(error.reason)")
        } catch {
            // "write failed: …", "fsync failed: …", "rename failed: …".
            throw .favourites("cannot save \(path): \(error)")
        }
    }

    /// A save's temporary file is `.favourites.json.tmp-PID-RAND`.
    static let temporaryPrefix = ".\(fileName).tmp-"

    /// The process id in a temporary file's name, or nil for any other name.
    static func temporaryFileOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(temporaryPrefix) else { return nil }
        let fields = name.dropFirst(temporaryPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 2, !fields[1].isEmpty, fields[1].allSatisfy(\.isNumber), let pid = pid_t(fields[0]), pid > 0
        else { return nil }
        return pid
    }

    /// Creates the directory private to the user (0700): favourites say what someone looks at.
    private func makeDirectory() throws(PixabayError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw .favourites("\(directory) exists and is not a directory")
        }
        let parent = (directory as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .favourites("cannot create \(parent): \(error.localizedDescription)")
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .favourites("cannot create \(directory): \(SystemError.lastReason)")
        }
        // mkdir's mode is filtered by the umask; make sure it really is 0700.
        chmod(directory, 0o700)
    }
}

private struct FavouritesFile: Codable {
    var version: Int
    var favourites: [FavouriteEntry]
}
