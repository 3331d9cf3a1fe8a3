import Foundation

/// Tests that set or read the process's signal dispositions take turns:
/// every test target runs in one process, suites concurrently, and a
/// disposition is the whole process's. (`Subprocess.run` ignores SIGINT and
/// SIGQUIT while its child runs; `ProcessSignalsTests` checks the handlers
/// it installed stay: run at once, the one could restore over the other.)
public enum SignalDispositions {
    private static let lock = NSLock()

    /// `body`, with no other such test running.
    public static func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
