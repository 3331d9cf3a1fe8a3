import Foundation
import Testing

@testable import Plumbing

@Suite struct AtomicWriteTests {
    let directory = NSTemporaryDirectory() + "pxview-plumbing-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) }
    }

    private func write(
        _ bytes: [UInt8], to name: String, placement: AtomicWrite.Placement = .replacing, synced: Bool = true
    ) throws(SystemError) {
        try AtomicWrite.write(
            bytes, to: Array((directory + "/" + name).utf8), temporary: Array((directory + "/.tmp-" + name).utf8),
            synced: synced, placement: placement)
    }

    @Test func replacesTheFileAndLeavesNoTemporary() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write([1, 2, 3], to: "a")
        try write([4, 5], to: "a", synced: false)
        #expect(contents("a") == [4, 5])
        #expect(names() == ["a"])
    }

    /// A device, FIFO or folder in the way is never renamed over (as root,
    /// `--out /dev/null --force` once left a regular file as /dev/null).
    @Test func neverReplacesWhatIsNotARegularFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/pipe", 0o600) == 0)
        #expect(throws: AtomicWrite.notARegularFile) { try write([1], to: "pipe") }
        var info = stat()
        #expect(lstat(directory + "/pipe", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(names() == ["pipe"])
    }

    @Test func refusesAnExistingFileAndKeepsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write([1], to: "a", placement: .refusingExisting)
        #expect(throws: AtomicWrite.alreadyExists) { try write([2], to: "a", placement: .refusingExisting) }
        #expect(contents("a") == [1])
        #expect(names() == ["a"])
    }

    @Test func aFailedMoveRemovesTheTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/d/inner", withIntermediateDirectories: true)
        // rename(2) of a file over a non-empty directory fails.
        #expect(throws: SystemError.self) { try write([1], to: "d") }
        #expect(names() == ["d"])
    }

    @Test func anExistingTemporaryNameIsNeverReused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/.tmp-a", contents: Data([9]))
        #expect(throws: SystemError(call: .open, code: EEXIST)) { try write([1], to: "a") }
        #expect(contents(".tmp-a") == [9], "a name this write did not create is not its to remove")
    }

    @Test func exactPermissionsAndTheHookBeforeTheMove() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/a"
        var existedBeforeMove: Bool?
        try AtomicWrite.write(
            [7], to: Array(path.utf8), temporary: Array((directory + "/.tmp").utf8), permissions: 0o666,
            exactPermissions: true, beforeMove: { existedBeforeMove = FileManager.default.fileExists(atPath: path) })
        #expect(existedBeforeMove == false)
        var info = stat()
        try #require(stat(path, &info) == 0)
        // 0o666 survives only through the exact-mode fchmod: open(2) applies the umask (022 here).
        #expect(info.st_mode & 0o777 == 0o666)
    }
}
