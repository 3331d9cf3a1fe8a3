import Foundation
import Testing

@testable import Pixabay

@Suite struct FavouritesTests {
    static let fixedNow = Date(timeIntervalSince1970: 1_704_164_645)  // 2024-01-02T03:04:05Z

    /// A store in a fresh directory that does not exist yet (the store creates it).
    func freshStore() -> FavouritesStore {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pxview-fav-\(UUID().uuidString)")
        return FavouritesStore(directory: root.path + "/data/pxview", now: { Self.fixedNow })
    }

    func cleanUp(_ store: FavouritesStore) {
        try? FileManager.default.removeItem(atPath: (store.directory as NSString).deletingLastPathComponent)
    }

    let cat = PixabayHit(
        id: 7, pageURL: "https://pixabay.com/photos/cat-7/", tags: "cat, pet", previewURL: "https://cdn/cat_150.jpg",
        webformatURL: "https://cdn/cat_640.jpg", imageWidth: 900, imageHeight: 600, likes: 12, userID: 4, user: "ann")
    let tree = PixabayHit(id: 9, tags: "tree", previewURL: "https://cdn/tree_150.jpg", user: "bo")

    /// A save sweeps the temporary files of pxviews killed mid-save
    /// (`kill -9`), and leaves a running one's and every other file.
    @Test func aSaveSweepsTheTemporaryFilesOfDeadProcesses() throws {
        let store = freshStore()
        defer { cleanUp(store) }
        #expect(try store.add(cat))
        // A process id that no longer runs: a child that has ended.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = store.directory + "/.favourites.json.tmp-\(child.processIdentifier)-12345"
        let mine = store.directory + "/.favourites.json.tmp-\(getpid())-777"
        let other = store.directory + "/.favourites.json.tmp-notes"
        for path in [dead, mine, other] { #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
        #expect(try store.add(tree))
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: mine) && FileManager.default.fileExists(atPath: other))
        #expect(FavouritesStore.temporaryFileOwner(".favourites.json.tmp-42-9") == 42)
        #expect(FavouritesStore.temporaryFileOwner(".favourites.json.tmp-42") == nil)
        #expect(FavouritesStore.temporaryFileOwner("favourites.json") == nil)
    }

    @Test func addListRemoveRoundTrip() throws {
        let store = freshStore()
        defer { cleanUp(store) }
        #expect(try store.list().isEmpty)
        #expect(try store.add(cat))
        #expect(try store.add(tree))
        #expect(try store.add(cat) == false)
        let listed = try store.list()
        #expect(listed.map(\.id) == [7, 9])
        #expect(listed[0] == FavouriteEntry(hit: cat, added: Self.fixedNow))
        #expect(listed[0].hit.previewURL == "https://cdn/cat_150.jpg")
        #expect(listed[0].hit.pageURL == "https://pixabay.com/photos/cat-7/")
        // The figures the search showed come back (the favourites view showed ♥ 0).
        #expect(listed[0].hit.likes == 12)
        #expect(listed[0].hit.imageWidth == 900 && listed[0].hit.user == "ann")
        #expect(try store.contains(id: 9))
        #expect(try store.remove(id: 9))
        #expect(try store.remove(id: 9) == false)
        #expect(try store.contains(id: 9) == false)
        // A second store on the same directory sees the same list (it is on disk, not in memory).
        #expect(try FavouritesStore(directory: store.directory).list().map(\.id) == [7])
    }

    /// A file from before likes and views were kept still loads; they read 0.
    @Test func olderEntriesWithoutLikesStillLoad() throws {
        let store = freshStore()
        defer { cleanUp(store) }
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        let old =
            #"{"version":1,"favourites":[{"id":5,"tags":"a, b","user":"u","userID":1,"type":"photo","pageURL":"p","previewURL":"v","webformatURL":"w","largeImageURL":"l","imageWidth":640,"imageHeight":480,"added":"2024-01-02T03:04:05Z"}]}"#
        try Data(old.utf8).write(to: URL(fileURLWithPath: store.path))
        let listed = try store.list()
        #expect(listed.map(\.id) == [5])
        #expect(listed[0].likes == 0 && listed[0].imageWidth == 640 && listed[0].previewURL == "v")
    }

    @Test func writesArePrivateAndAtomic() throws {
        let store = freshStore()
        defer { cleanUp(store) }
        try store.add(cat)
        let manager = FileManager.default
        let directoryMode = try #require(manager.attributesOfItem(atPath: store.directory)[.posixPermissions] as? Int)
        #expect(directoryMode & 0o777 == 0o700)
        let fileMode = try #require(manager.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int)
        #expect(fileMode & 0o777 == 0o600)
        let firstInode = try #require(manager.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int)
        try store.add(tree)
        let secondInode = try #require(manager.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int)
        // rename(2) of a new file, not an in-place rewrite: the inode changes.
        #expect(firstInode != secondInode)
        // No temporary file left, only the list and its lock.
        #expect(try manager.contentsOfDirectory(atPath: store.directory).sorted() == [".favourites.lock", "favourites.json"])
        let json = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(json.contains(#""added" : "2024-01-02T03:04:05Z""#))
        #expect(json.contains(#""version" : 1"#))
    }

    @Test func corruptFileIsKeptAsideAndReported() async throws {
        let store = freshStore()
        defer { cleanUp(store) }
        try store.add(cat)
        try Data("{\"version\":1,\"favourites\":[{\"id\":".utf8).write(to: URL(fileURLWithPath: store.path))
        let error = await pixabayError { _ = try store.list() }
        let movedTo = store.path + ".corrupt-20240102T030405Z"
        #expect(error == .corruptFavourites(path: store.path, movedTo: movedTo))
        #expect(error?.description.contains(movedTo) == true)
        #expect(try String(contentsOfFile: movedTo, encoding: .utf8) == "{\"version\":1,\"favourites\":[{\"id\":")
        #expect(!FileManager.default.fileExists(atPath: store.path))
        // The next list starts empty and adding works again; a second corrupt file gets its own name.
        #expect(try store.list().isEmpty)
        try store.add(tree)
        #expect(try store.list().map(\.id) == [9])
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.path))
        let second = await pixabayError { _ = try store.add(cat) }
        #expect(second == .corruptFavourites(path: store.path, movedTo: movedTo + "-2"))
    }

    @Test func newerFormatIsLeftUntouched() async throws {
        let store = freshStore()
        defer { cleanUp(store) }
        try store.add(cat)
        let newer = #"{"version":2,"favourites":[]}"#
        try newer.write(toFile: store.path, atomically: true, encoding: .utf8)
        let error = await pixabayError { _ = try store.list() }
        #expect(error == .favourites("\(store.path) was written by a newer pxview (format 2); left untouched"))
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == newer)
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(
            FavouritesStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]) == "/x/data/pxview")
        #expect(
            FavouritesStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/share/pxview")
        #expect(FavouritesStore.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/pxview")
        #expect(FavouritesStore(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/pxview/favourites.json")
    }
}
