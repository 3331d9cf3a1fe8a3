import Testing

@testable import Rendering

/// The grid's tiles kitty holds: evicted least recently placed first,
/// never one on screen, their bytes counted.
@Suite struct SharedUploadsTests {
    @Test func theOldestTileNotOnScreenGoesFirst() {
        var shared = SharedUploads()
        for id in 1...3 { shared.add(PictureKey(id: id), id: UInt32(100 + id), bytes: 10) }
        #expect(shared.bytes == 30)
        shared.touch(PictureKey(id: 1))
        // Order now 2, 3, 1; 2 is on screen, so 3 goes first, then 1.
        #expect(shared.evictOldest(keeping: [102]) == 103)
        #expect(shared.evictOldest(keeping: [102]) == 101)
        #expect(shared.evictOldest(keeping: [102]) == nil)
        #expect(shared.bytes == 10 && shared.holds(PictureKey(id: 2)))
    }

    @Test func aNewVersionReplacesTheOldAndTeardownFreesAll() {
        var shared = SharedUploads()
        shared.add(PictureKey(id: 7), id: 107, bytes: 40)
        shared.removeVersions(of: 7)
        #expect(!shared.holds(PictureKey(id: 7)) && shared.bytes == 0)
        shared.add(PictureKey(id: 7, version: 1), id: 107, bytes: 90)
        shared.add(PictureKey(id: 8), id: 108, bytes: 10)
        #expect(shared.removeAll().sorted() == [107, 108])
        #expect(shared.bytes == 0 && shared.evictOldest(keeping: []) == nil)
    }
}
