import CCurl
import CShims
import Foundation
import Plumbing

/// libcurl's process-wide side, in one place: loading it and
/// `curl_global_init` once, and closing every transfer thread before the
/// process exits.
///
/// Why exit needs it: `exit(3)` runs OpenSSL's `atexit` cleanup. A viewer
/// quit with `q` while its first photo was on its way once met a transfer
/// thread inside `curl_global_init` (OpenSSL half initialised) and died
/// with a SEGV in `OPENSSL_LH_insert` (2 of 60 ASan runs under load).
/// libcurl's global state is the process's, so this is too: the one
/// static in HTTP, guarded by its lock.
package enum CurlProcess {
    private static let state = State()

    private final class State: @unchecked Sendable {
        let lock = Lock()
        // Guarded by `lock`.
        var started: String??
        var closed = false
        var engines: [ObjectIdentifier: CurlMultiEngine] = [:]
    }

    /// Loads libcurl and runs `curl_global_init`, once; nil on success,
    /// else why not (also once the process is ending). Held under the
    /// lock, so `closeForExit` waits for a start in progress.
    static func start() -> String? {
        state.lock.withLock {
            if state.closed { return "the program is ending" }
            if let started = state.started { return started }
            var message = [CChar](repeating: 0, count: 256)
            let problem: String?
            if pxview_curl_load(&message, message.count) != 0 {
                problem = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            } else {
                let code = pxview_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
                problem = code == CURLE_OK ? nil : "libcurl could not start: \(String(cString: pxview_curl_easy_strerror(code)))"
            }
            state.started = .some(problem)
            return problem
        }
    }

    /// A transfer thread started; false (and nothing kept) when the process is ending.
    static func register(_ engine: CurlMultiEngine) -> Bool {
        state.lock.withLock {
            guard !state.closed else { return false }
            state.engines[ObjectIdentifier(engine)] = engine
            return true
        }
    }

    /// A transfer thread ended.
    static func unregister(_ engine: CurlMultiEngine) {
        state.lock.withLock { _ = state.engines.removeValue(forKey: ObjectIdentifier(engine)) }
    }

    /// Before `exit`: no libcurl start from now on (one in progress is
    /// waited for), and every transfer thread told to stop and given up
    /// to `waitMs` to end (their transfers fail as cancelled), so
    /// OpenSSL's cleanup meets no thread inside it.
    ///
    /// 500 ms: a stopping thread ends at its next wakeup, in about a
    /// millisecond here; a DNS lookup in libcurl's resolver thread can
    /// take longer, and exit is not held for it.
    package static func closeForExit(waitMs: Int = 500) {
        let engines = state.lock.withLock {
            state.closed = true
            return Array(state.engines.values)
        }
        for engine in engines { engine.shutdown() }
        let deadline = MonotonicClock.milliseconds() + waitMs
        while MonotonicClock.milliseconds() < deadline, state.lock.withLock({ !state.engines.isEmpty }) {
            usleep(1000)
        }
    }
}
