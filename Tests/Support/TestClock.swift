import Foundation

/// A clock tests move by hand, for code that takes `now: @Sendable () -> Date`
/// (cache ages, progress delays) so time-dependent behaviour is tested without sleeping.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = start
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    /// Pass this wherever a `now` closure is injected.
    public var function: @Sendable () -> Date { { [self] in now } }
}
