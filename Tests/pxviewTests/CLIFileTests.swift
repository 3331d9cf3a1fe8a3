import Foundation
import Photos
import Pixabay
import TestSupport
import Testing

@testable import pxview

/// `save`, `open`'s error paths and `fav`: the commands that fetch one image or touch files.
@Suite struct CLIFileTests {
    func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test func saveWritesTheExactBytesWithTheExtensionTheBytesDeserve() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let jpeg = try sandbox.run(["save", "101"] + pixabay.options)
        #expect(jpeg.status == 0)
        #expect(jpeg.out == "saved pixabay-101.jpg (26.6 KB)\n")
        #expect(contents(sandbox.workDirectory + "/pixabay-101.jpg") == (try catalogFile("web/cat.jpg")))

        let png = try sandbox.run(["save", "102"] + pixabay.options)
        #expect(png.status == 0)
        #expect(png.out == "saved pixabay-102.png (7.8 KB)\n")
        #expect(contents(sandbox.workDirectory + "/pixabay-102.png") == (try catalogFile("large/debian-logo.png")))
        #expect(sandbox.workFiles() == ["pixabay-101.jpg", "pixabay-102.png"])
    }

    @Test func saveNeverOverwritesWithoutForce() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let target = sandbox.workDirectory + "/pixabay-101.jpg"
        try #require(FileManager.default.createFile(atPath: target, contents: Data("mine".utf8)))

        let refused = try sandbox.run(["save", "101"] + pixabay.options)
        #expect(refused.status == 1)
        #expect(refused.err == "pxview: pixabay-101.jpg already exists (use --force to replace it)\n")
        #expect(contents(target) == Array("mine".utf8))

        // A named --out that exists is refused before anything is downloaded.
        let before = pixabay.server.requests.count
        let named = try sandbox.run(["save", "101", "--out", "pixabay-101.jpg"] + pixabay.options)
        #expect(named.status == 1)
        #expect(pixabay.server.requests.count == before)

        let forced = try sandbox.run(["save", "101", "--force"] + pixabay.options)
        #expect(forced.status == 0)
        #expect(contents(target) == (try catalogFile("web/cat.jpg")))
        #expect(sandbox.workFiles() == ["pixabay-101.jpg"])

        // --force replaces a file, never a device or a FIFO.
        #expect(mkfifo(sandbox.workDirectory + "/fifo", 0o600) == 0)
        let fifo = try sandbox.run(["save", "101", "--force", "--out", "fifo"] + pixabay.options)
        #expect(fifo.status == 1)
        #expect(fifo.err == "pxview: cannot write fifo: not a regular file (a device or a folder is never replaced)\n")
    }

    @Test func saveToANamedFileOrDirectoryOffline() throws {
        let sandbox = try CLISandbox()
        let named = try sandbox.run(["save", "1000013", "--offline", "--size", "preview", "--out", "thumb.jpg"])
        #expect(named.status == 0)
        #expect(named.out == "saved thumb.jpg (4.4 KB)\n")
        #expect(contents(sandbox.workDirectory + "/thumb.jpg") == (try catalogFile("preview/cat.jpg")))

        try FileManager.default.createDirectory(atPath: sandbox.workDirectory + "/photos", withIntermediateDirectories: false)
        let intoDirectory = try sandbox.run(["save", "1000015", "--offline", "-o", "photos"])
        #expect(intoDirectory.status == 0)
        #expect(contents(sandbox.workDirectory + "/photos/pixabay-1000015.png") == (try catalogFile("large/debian-logo.png")))

        let badSize = try sandbox.run(["save", "1000013", "--offline", "--size", "huge"])
        #expect(badSize.status == 2)
        #expect(badSize.errLines.first == #"pxview: --size must be one of: preview, web, large (got "huge")"#)
    }

    /// A name as long as the file system allows (255 bytes) saves: the
    /// temporary file beside it has a short name of its own.
    @Test func saveToTheLongestNameTheFileSystemAllows() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let name = String(repeating: "n", count: 251) + ".jpg"
        try FileManager.default.createDirectory(atPath: sandbox.workDirectory + "/dir", withIntermediateDirectories: false)
        let saved = try sandbox.run(["save", "101", "--out", "dir/" + name] + pixabay.options)
        #expect(saved.err == "")
        #expect(saved.status == 0)
        #expect(contents(sandbox.workDirectory + "/dir/" + name) == (try catalogFile("web/cat.jpg")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.workDirectory + "/dir") == [name])
    }

    /// Each way a download can fail leaves the directory as it was.
    @Test(arguments: ["500", "truncated", "html"])
    func aFailedDownloadLeavesNothingBehind(failure: String) throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let jpeg = try catalogFile("web/cat.jpg")
        pixabay.server.route("/img/cat.jpg") { _ in
            switch failure {
            case "500": return .text("boom", status: 500)
            case "truncated": return TestHTTPServer.Response(body: Array(jpeg.prefix(1000)), declaredLength: jpeg.count)
            default: return TestHTTPServer.Response(body: Array("<!DOCTYPE html><p>sign in</p>".utf8))
            }
        }
        let result = try sandbox.run(["save", "101"] + pixabay.options)
        #expect(result.status == 1)
        #expect(result.errLines.count == 1)
        #expect(result.err.hasPrefix("pxview: "))
        #expect(!result.err.contains(CLIPixabay.key))
        #expect(sandbox.workFiles().isEmpty)
        if failure == "html" {
            #expect(result.err == "pxview: image 101 is not an image: the server sent an HTML page (29 bytes)\n")
        }
    }

    @Test func openReportsUnknownIDsAndNonImages() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        pixabay.server.route("/img/cat.jpg") { _ in TestHTTPServer.Response(body: Array("<html>oops</html>".utf8)) }
        let notImage = try sandbox.run(["open", "101"] + pixabay.options)
        #expect(notImage.status == 1)
        #expect(notImage.err == "pxview: image 101 is not an image: the server sent an HTML page (17 bytes)\n")

        let unknown = try sandbox.run(["open", "999"] + pixabay.options)
        #expect(unknown.status == 1)
        #expect(unknown.err == "pxview: no Pixabay image with id 999\n")

        let badID = try sandbox.run(["open", "cat"])
        #expect(badID.status == 2)
        #expect(badID.errLines.first == "pxview: ID must be a positive whole number, like 195893 (got 'cat')")
    }

    @Test func favouritesRoundTripOffline() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["fav", "list"]).out == "no favourites yet: add one with 'pxview fav add ID'\n")

        let added = try sandbox.run(["fav", "add", "1000013", "--offline"])
        #expect(added.status == 0)
        #expect(added.out == "added 1000013 to favourites\n")
        #expect(try sandbox.run(["fav", "add", "1000013", "--offline"]).out == "1000013 is already a favourite\n")
        #expect(try sandbox.run(["--offline", "fav", "add", "1000001"]).status == 0)

        let list = try sandbox.run(["fav", "list"])
        #expect(list.status == 0)
        #expect(list.outLines.first == "     ID  SIZE       USER                 LIKES  ADDED       TAGS")
        // The same likes the search shows for it (the list once showed none).
        #expect(list.outLines.dropFirst().first?.hasPrefix("1000013  451x300    Stefan van der Walt    731  ") == true)
        #expect(list.outLines.last == "2 favourites")

        let json = try sandbox.run(["fav", "list", "--json"])
        #expect(try PixabayResponse.decode(from: json.stdout).hits.map(\.id) == [1_000_013, 1_000_001])
        #expect(FileManager.default.fileExists(atPath: sandbox.dataDirectory + "/favourites.json"))

        #expect(try sandbox.run(["fav", "rm", "1000013"]).out == "removed 1000013 from favourites\n")
        let again = try sandbox.run(["fav", "rm", "1000013"])
        #expect(again.status == 1)
        #expect(again.err == "pxview: 1000013 is not a favourite\n")
        #expect(try sandbox.run(["fav", "list", "--json"]).out.contains("1000001"))
        #expect(try sandbox.run(["fav", "star", "1"]).status == 2)
        #expect(try sandbox.run(["fav", "add"]).status == 2)
    }
}

@Suite struct ViewerSaveTests {
    /// `s` in the viewer never refuses for a taken name: the next free number.
    @Test func aTakenNameGetsTheNextFreeNumber() throws {
        let directory = try TemporaryDirectory()
        let save = ExplorerSetup.saveAction(in: directory.path)
        let photo = Photo(
            hit: PixabayHit(
                id: 42, pageURL: "", type: "photo", tags: "", previewURL: "", webformatURL: "", largeImageURL: "", imageWidth: 1,
                imageHeight: 1, userID: 0, user: "u"))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        #expect(try save(jpeg, photo, nil).hasPrefix("saved pixabay-42.jpg ("))
        #expect(try save(jpeg, photo, nil).hasPrefix("saved pixabay-42-2.jpg (pixabay-42.jpg exists; "))
        #expect(try save(jpeg, photo, nil).hasPrefix("saved pixabay-42-3.jpg"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["pixabay-42-2.jpg", "pixabay-42-3.jpg", "pixabay-42.jpg"])
    }

    /// A local file of the longest name saves as `pxview-NAME…` cut to fit,
    /// numbered copies too.
    @Test func aLongFileNameIsCutToFit() throws {
        let directory = try TemporaryDirectory()
        let save = ExplorerSetup.saveAction(in: directory.path)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let title = String(repeating: "é", count: 125) + "x.jpeg"  // 256 bytes: é is two
        let photo = Photo(id: 1, file: LocalFile(name: title, byteCount: 7))
        #expect(try save(jpeg, photo, nil).hasPrefix("saved pxview-"))
        #expect(try save(jpeg, photo, nil).contains("-2.jpg ("))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // 247 bytes of stem leave room for "-999.jpg".
        let stem = "pxview-" + String(repeating: "é", count: 120)
        #expect(names == [stem + "-2.jpg", stem + ".jpg"])
    }

    /// A file is saved under its own name, never as a Pixabay photo: not
    /// even one called `pixabay-42.jpg`, 42nd in its folder, which must not
    /// take the place of (or be taken for) Pixabay's photo 42.
    @Test func aLocalFileIsNeverSavedUnderAPixabayName() throws {
        let directory = try TemporaryDirectory()
        let save = ExplorerSetup.saveAction(in: directory.path)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        #expect(
            try save(png, Photo(id: 42, file: LocalFile(name: "pixabay-42.jpg", byteCount: 12)), nil).hasPrefix(
                "saved pxview-pixabay-42.png ("))
        #expect(
            try save(png, Photo(id: 42, file: LocalFile(name: "#42", byteCount: 12)), nil).hasPrefix("saved pxview-#42.png ("))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["pxview-#42.png", "pxview-pixabay-42.png"])
    }
}
