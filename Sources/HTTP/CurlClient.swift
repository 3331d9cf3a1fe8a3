import CCurl
import CShims
import Foundation
import Plumbing

/// The libcurl-backed fetcher.
///
/// Transfers never run on Swift's cooperative thread pool: each client owns
/// one background thread driving a curl multi handle, fed through a
/// lock-protected queue and woken with `curl_multi_wakeup`. `fetch` suspends
/// on a continuation until that thread finishes the transfer, so many
/// requests (a page of thumbnails) download in parallel over one thread.
///
/// TLS verification stays at libcurl's defaults (on). Redirects are followed
/// (at most 5, to http/https only); only http, https and file URLs are
/// accepted; gzip/deflate bodies are decoded.
package final class CurlClient: HTTPFetching {
    /// Sent as the User-Agent header, e.g. `pxview/1.0`.
    package let userAgent: String
    /// Made on the first fetch: loading libcurl (and its TLS libraries) and
    /// starting the transfer thread cost milliseconds that a command which
    /// never fetches (an offline search) should not pay.
    private let engine = LazyEngine()

    /// - Parameter userAgent: the whole User-Agent value, e.g. `"pxview/1.2"`.
    package init(userAgent: String = "pxview") {
        self.userAgent = userAgent
    }

    deinit {
        engine.existing?.shutdown()
    }

    package func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await fetch(request, progress: nil)
    }

    /// - Parameter progress: called on the transfer thread with
    ///   `(received bytes, total bytes if the server declared them)` whenever
    ///   either changes; keep it cheap.
    package func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse {
        let transfer = CurlTransfer(request: request, userAgent: userAgent, progress: progress)
        let engine = self.engine.get()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if transfer.attach(continuation) {
                    engine.submit(transfer)
                }
            }
        } onCancel: {
            if transfer.markCancelled() {
                engine.cancel(transfer)
            }
        }
    }
}

/// Creates the engine once, on first use, from any thread.
private final class LazyEngine: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`.
    private var engine: CurlMultiEngine?

    func get() -> CurlMultiEngine {
        lock.withLock {
            if let engine { return engine }
            let made = CurlMultiEngine()
            engine = made
            return made
        }
    }

    var existing: CurlMultiEngine? { lock.withLock { engine } }
}

/// The background thread and its curl multi handle. Everything libcurl
/// touches stays on that thread; other threads only append to the queues
/// under `lock` and call `curl_multi_wakeup`, which libcurl documents as
/// callable from any thread.
final class CurlMultiEngine: @unchecked Sendable {
    /// Why libcurl cannot be used (`CurlProcess.start`), nil when it can.
    private let problem: String?
    private let lock = Lock()
    private let multi: UnsafeMutableRawPointer?
    private var incoming: [CurlTransfer] = []
    private var cancellations: [CurlTransfer] = []
    private var stopping = false
    /// Set (under `lock`) just before the multi handle is freed, so late
    /// wakeups never touch freed memory.
    private var closed = false

    init() {
        problem = CurlProcess.start()
        multi = problem == nil ? pxview_curl_multi_init() : nil
        guard let multi, CurlProcess.register(self) else {
            if let multi { pxview_curl_multi_cleanup(multi) }
            closed = true
            return
        }
        // Parallel enough for a page of thumbnails, polite to one host.
        _ = pxview_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 8)
        _ = pxview_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 16)
        let thread = Thread { [self] in run() }
        thread.name = "pxview-curl"
        thread.start()
    }

    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        guard !closed, !stopping else {
            lock.unlock()
            transfer.finish(
                .failure(
                    HTTPError.other(
                        transfer.request.redactedURL, detail: problem ?? "HTTP client unavailable")))
            return
        }
        incoming.append(transfer)
        wakeLocked()
        lock.unlock()
    }

    func cancel(_ transfer: CurlTransfer) {
        lock.lock()
        cancellations.append(transfer)
        wakeLocked()
        lock.unlock()
    }

    func shutdown() {
        lock.lock()
        stopping = true
        wakeLocked()
        lock.unlock()
    }

    private func wakeLocked() {
        if !closed, let multi { _ = pxview_curl_multi_wakeup(multi) }
    }

    private func run() {
        guard let multi else { return }
        var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            lock.lock()
            let started = incoming
            let dropped = cancellations
            let stop = stopping
            incoming.removeAll()
            cancellations.removeAll()
            lock.unlock()

            for transfer in started {
                if transfer.isCancelled {
                    transfer.finish(.failure(CancellationError()))
                    continue
                }
                do {
                    let easy = try transfer.makeEasyHandle()
                    let added = pxview_curl_multi_add_handle(multi, easy)
                    guard added == CURLM_OK else {
                        throw HTTPError.other(
                            transfer.request.redactedURL,
                            detail: "libcurl could not start the transfer: \(String(cString: pxview_curl_multi_strerror(added)))")
                    }
                    active[easy] = transfer
                } catch {
                    transfer.releaseHandle()
                    transfer.finish(.failure(error))
                }
            }
            for transfer in dropped {
                guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { continue }
                remove(transfer, easy: easy, from: multi, result: .failure(CancellationError()))
            }
            if stop {
                for (easy, transfer) in active {
                    remove(
                        transfer, easy: easy, from: multi,
                        result: .failure(HTTPError.other(transfer.request.redactedURL, detail: "HTTP client shut down")))
                }
                break
            }

            var running: Int32 = 0
            _ = pxview_curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = pxview_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let result = transfer.result(for: message.pointee.data.result)
                remove(transfer, easy: easy, from: multi, result: result)
            }
            // Returns on socket activity, libcurl's own timers, or a wakeup.
            _ = pxview_curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        lock.lock()
        closed = true
        pxview_curl_multi_cleanup(multi)
        lock.unlock()
        CurlProcess.unregister(self)
    }

    private func remove(
        _ transfer: CurlTransfer, easy: UnsafeMutableRawPointer, from multi: UnsafeMutableRawPointer,
        result: Result<HTTPResponse, any Error>
    ) {
        _ = pxview_curl_multi_remove_handle(multi, easy)
        transfer.releaseHandle()
        transfer.finish(result)
    }
}
