#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one mutual-exclusion lock: a pthread mutex, after swift-log's `Lock`.
///
/// Here rather than `NSLock` because Encoding links without Foundation; every
/// module that guards state shared between threads (the encoders' parallel
/// parts, the viewer's bands, the curl engine, the explorer's completion
/// queue, the stale-copy log) uses this one. Not recursive: locking it again
/// on the thread that holds it deadlocks.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it. Pair with `unlock()` on every path;
    /// `withLock` does that by itself.
    package func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    package func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }

    /// Runs `body` holding the lock, released however `body` ends.
    @inlinable
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Values set by index from concurrent threads and read back in index
/// order once they are done: parallel parts and bands hand their results
/// through one of these.
package final class IndexedResults<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`: parts finish on different threads.
    private var storage: [Value?]

    /// Room for indices `0..<count`, all unset.
    package init(count: Int) { storage = Array(repeating: nil, count: count) }

    package func set(_ index: Int, _ value: Value) { lock.withLock { storage[index] = value } }

    /// The values in index order; nil where nothing was set.
    package var values: [Value?] { lock.withLock { storage } }
}
