import Foundation
import TestSupport
import Testing

@testable import pxview

/// Files read whole, at their size in one go, the same bytes at every size.
@Suite struct RawFileTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 200_003])
    func readsExactlyTheFile(size: Int) throws {
        let sandbox = try CLISandbox()
        let path = sandbox.workDirectory + "/file-\(size)"
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try RawFile.read(Array(path.utf8), limit: 1 << 20) == bytes)
    }

    @Test func aFileOverTheLimitIsRefused() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.workDirectory + "/big"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(count: 5000)))
        #expect(throws: RawFile.Failure.self) { try RawFile.read(Array(path.utf8), limit: 4096) }
    }
}
