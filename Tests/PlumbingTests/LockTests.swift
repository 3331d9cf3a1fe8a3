import Dispatch
import Testing

@testable import Plumbing

@Suite struct LockTests {
    /// Eight threads each adding 10 000 times: no increment is lost.
    @Test func withLockMakesIncrementsAtomic() {
        final class Counter: @unchecked Sendable {
            let lock = Lock()
            var value = 0
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
        }
        #expect(counter.lock.withLock { counter.value } == 80_000)
    }

    @Test func withLockReleasesWhenTheBodyThrows() {
        struct Failure: Error {}
        let lock = Lock()
        #expect(throws: Failure.self) { try lock.withLock { () throws(Failure) in throw Failure() } }
        // Taken again at once: the throw released it.
        #expect(lock.withLock { 42 } == 42)
    }

    @Test func indexedResultsComeBackInIndexOrder() {
        let results = IndexedResults<Int>(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if index != 5 { results.set(index, index * index) }
        }
        let values = results.values
        #expect(values.count == 64)
        #expect(values[5] == nil)
        #expect(values[7] == 49)
        #expect(values.compactMap { $0 }.count == 63)
    }
}
