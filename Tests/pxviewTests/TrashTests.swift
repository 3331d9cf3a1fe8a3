import Foundation
import TestSupport
import Testing

@testable import pxview

/// `D` `y` in the viewer (issue 29): the freedesktop.org trash, as file
/// managers fill it. Never an unlink: the file is renamed into `files/`
/// after its `.trashinfo` claimed the name in `info/`.
@Suite struct TrashTests {
    /// The `.trashinfo` text, golden: the path percent-encoded (`/` kept),
    /// the local time to the second.
    @Test func theInfoFileIsAsTheSpecWritesIt() {
        let date = Date(timeIntervalSince1970: 1_714_588_927)  // 2024-05-01 18:42:07 UTC
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        #expect(
            Trash.info(path: Array("/home/u/Photos/b c%ü.jpg".utf8), date: date)
                == "[Trash Info]\nPath=/home/u/Photos/b%20c%25%C3%BC.jpg\nDeletionDate=\(local.string(from: date))\n")
    }

    /// Into `$XDG_DATA_HOME/Trash` (made when missing), a second file of the
    /// same name as `name.2.ext`, each with its info naming the old path.
    @Test func filesGoToTheHomeTrashUnderNamesOfTheirOwn() throws {
        let directory = try TemporaryDirectory()
        let photos = directory.file("photos")
        try FileManager.default.createDirectory(atPath: photos + "/sub", withIntermediateDirectories: true)
        let first = photos + "/a.jpg"
        let second = photos + "/sub/a.jpg"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: first))
        try Data([4, 5]).write(to: URL(fileURLWithPath: second))
        let trash = Trash(environment: ["XDG_DATA_HOME": directory.file("data"), "HOME": directory.path])
        #expect(try trash.move(Array(first.utf8)) == Array("a.jpg".utf8))
        #expect(try trash.move(Array(second.utf8)) == Array("a.2.jpg".utf8))
        let home = directory.file("data/Trash")
        #expect(!FileManager.default.fileExists(atPath: first) && !FileManager.default.fileExists(atPath: second))
        #expect(FileManager.default.contents(atPath: home + "/files/a.jpg") == Data([1, 2, 3]))
        #expect(FileManager.default.contents(atPath: home + "/files/a.2.jpg") == Data([4, 5]))
        let info = try String(contentsOfFile: home + "/info/a.2.jpg.trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(second)\nDeletionDate="))
        #expect(throws: Trash.Failure.self) { try trash.move(Array(first.utf8)) }
        #expect(throws: Trash.Failure.self) { try trash.move(Array("relative.jpg".utf8)) }
    }

    /// A file on another device than the home trash's (a tmpfs here) goes
    /// to that device's own trash, `TOP/.Trash-UID` (no shared `.Trash`
    /// there), its info naming the path from the top folder, as the spec
    /// asks: renamed within its device, never copied and unlinked.
    @Test(.enabled(if: TrashTests.otherDevice != nil, "needs /dev/shm on a device of its own"))
    func aFileOnAnotherDeviceGoesToThatDevicesTrash() throws {
        let top = try #require(Self.otherDevice)
        let directory = try TemporaryDirectory()
        let folder = top + "/pxview-trash-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/far.jpg"
        try Data([9, 8, 7]).write(to: URL(fileURLWithPath: photo))
        let trash = Trash(environment: ["XDG_DATA_HOME": directory.file("data"), "HOME": directory.path])
        let own = top + "/.Trash-\(getuid())"
        let madeHere = !FileManager.default.fileExists(atPath: own)
        let stored = try trash.move(Array(photo.utf8))
        let name = String(decoding: stored, as: UTF8.self)
        defer {
            try? FileManager.default.removeItem(atPath: own + "/files/" + name)
            try? FileManager.default.removeItem(atPath: own + "/info/" + name + ".trashinfo")
            if madeHere { try? FileManager.default.removeItem(atPath: own) }
        }
        #expect(!FileManager.default.fileExists(atPath: photo))
        #expect(FileManager.default.contents(atPath: own + "/files/" + name) == Data([9, 8, 7]))
        let info = try String(contentsOfFile: own + "/info/" + name + ".trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=pxview-trash-test-\(getpid())/far.jpg\nDeletionDate="), "\(info)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("data/Trash/files/far.jpg")))
    }

    /// `/dev/shm` when it is a mount of its own (a device other than the
    /// temporary folder's) with no shared `.Trash` in it, else nil.
    static var otherDevice: String? {
        var shm = stat()
        var temporary = stat()
        guard stat("/dev/shm", &shm) == 0, stat(NSTemporaryDirectory(), &temporary) == 0, shm.st_dev != temporary.st_dev,
            access("/dev/shm", W_OK) == 0, !FileManager.default.fileExists(atPath: "/dev/shm/.Trash")
        else { return nil }
        return "/dev/shm"
    }
}
