import CCurl
import CShims
import Foundation
import Plumbing

/// One request on its way through libcurl.
///
/// Two kinds of state live here. The easy handle, body and headers are
/// touched only by the engine thread (libcurl calls our callbacks on the
/// thread that drives the multi handle). The continuation and the
/// cancellation flag are shared with the task that awaits the result and are
/// guarded by `lock`, so the continuation is resumed exactly once whoever
/// gets there first (completion, cancellation or engine shutdown).
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    private let userAgent: String
    private let progress: (@Sendable (Int64, Int64?) -> Void)?

    // Engine-thread state.
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body: [UInt8] = []
    private var headers: [String: String] = [:]
    private var exceededBodyLimit = false
    private var lastReported: (received: Int64, total: Int64) = (-1, -1)

    // Shared state.
    private let lock = Lock()
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var cancelled = false
    private var finished = false

    init(request: HTTPRequest, userAgent: String, progress: (@Sendable (Int64, Int64?) -> Void)?) {
        self.request = request
        self.userAgent = userAgent
        self.progress = progress
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    // MARK: Shared state

    /// Stores the continuation; false when the task was cancelled before it
    /// got here, in which case the continuation has already been resumed.
    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        lock.lock()
        if cancelled {
            finished = true
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Marks the transfer cancelled; true when it was already handed to the
    /// engine, which must then be told to drop it.
    func markCancelled() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        return continuation != nil && !finished
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func finish(_ result: Result<HTTPResponse, any Error>) {
        lock.lock()
        guard !finished, let continuation else {
            lock.unlock()
            return
        }
        finished = true
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
    }

    // MARK: Engine thread

    /// Creates and configures the easy handle. Throws `HTTPError` when
    /// libcurl refuses an option (e.g. a libcurl too old for `PROTOCOLS_STR`).
    func makeEasyHandle() throws -> UnsafeMutableRawPointer {
        guard let easy = pxview_curl_easy_init() else {
            throw HTTPError.other(request.redactedURL, detail: "libcurl could not create a transfer")
        }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        let timeoutMilliseconds = { (seconds: Double) -> Int in
            Int(max(1, min(seconds * 1000, Double(Int32.max))).rounded())
        }
        var codes: [CURLcode] = [
            pxview_curl_setopt_string(easy, CURLOPT_URL, request.url),
            pxview_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            pxview_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            pxview_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, request.allowsFileURL ? "http,https,file" : "http,https"),
            pxview_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            pxview_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1),
            pxview_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 5),
            pxview_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds(request.connectTimeout)),
            pxview_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMilliseconds(request.totalTimeout)),
            // Empty string: every encoding libcurl was built with (gzip, deflate…).
            pxview_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            pxview_curl_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            pxview_curl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(0, request.maxBodyBytes))),
            pxview_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
            pxview_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receiveBody(data, byteCount: size * count)
            },
            pxview_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
            pxview_curl_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receiveHeaderLine(data, byteCount: size * count)
            },
        ]
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // "Name;" is libcurl's way of sending a header with an empty value.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            headerList = pxview_curl_slist_append(headerList, line)
        }
        if let headerList {
            codes.append(pxview_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
        }
        if progress != nil {
            codes += [
                pxview_curl_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
                pxview_curl_setopt_pointer(easy, CURLOPT_XFERINFODATA, context),
                pxview_curl_setopt_xferinfo_callback(easy, CURLOPT_XFERINFOFUNCTION) { context, total, now, _, _ in
                    guard let context else { return 0 }
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                    transfer.reportProgress(received: now, total: total)
                    return 0
                },
            ]
        }
        if let failure = codes.first(where: { $0 != CURLE_OK }) {
            throw HTTPError.other(
                request.redactedURL, detail: "libcurl rejected an option: \(String(cString: pxview_curl_easy_strerror(failure)))")
        }
        return easy
    }

    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, byteCount: Int) -> Int {
        guard byteCount > 0, let data else { return byteCount }
        if body.count + byteCount > request.maxBodyBytes {
            // Returning a short count makes libcurl stop with CURLE_WRITE_ERROR.
            exceededBodyLimit = true
            return 0
        }
        if body.isEmpty, let easy {
            var declared: curl_off_t = -1
            if pxview_curl_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == CURLE_OK,
                declared > 0
            {
                body.reserveCapacity(min(Int(declared), request.maxBodyBytes))
            }
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: byteCount))
        return byteCount
    }

    private func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, byteCount: Int) -> Int {
        guard byteCount > 0, let data else { return byteCount }
        let bytes = UnsafeRawBufferPointer(start: data, count: byteCount)
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new status line: a redirect or a 100 Continue came before, and
            // only the final response's headers should be reported.
            headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { headers[name] = value }
        }
        return byteCount
    }

    private func reportProgress(received: curl_off_t, total: curl_off_t) {
        let current = (received: Int64(received), total: Int64(total))
        guard let progress, current != lastReported else { return }
        lastReported = current
        progress(Int64(received), total > 0 ? Int64(total) : nil)
    }

    /// The outcome once libcurl says the transfer is done. Must be called
    /// before `releaseHandle`, since it reads transfer info from the handle.
    func result(for code: CURLcode) -> Result<HTTPResponse, any Error> {
        guard let easy else {
            return .failure(HTTPError.other(request.redactedURL, detail: "transfer has no handle"))
        }
        guard code == CURLE_OK else { return .failure(error(for: code, easy: easy)) }
        var status = 0
        _ = pxview_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        _ = pxview_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let finalURL = effective.map { String(cString: $0) } ?? request.url
        if status == 0, URLText.scheme(of: finalURL) == "file" {
            // file:// has no status line; a read that worked is a 200 so
            // callers need no special case.
            status = 200
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body, finalURL: finalURL))
    }

    private func error(for code: CURLcode, easy: UnsafeMutableRawPointer) -> HTTPError {
        let url = request.redactedURL
        let detail = request.scrubbingSecrets(from: errorText(for: code))
        switch code {
        case CURLE_WRITE_ERROR where exceededBodyLimit, CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(url, limit: request.maxBodyBytes)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(url)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotResolveHost(url)
        case CURLE_COULDNT_CONNECT:
            return .couldNotConnect(url)
        case CURLE_OPERATION_TIMEDOUT:
            var totalMicroseconds: curl_off_t = 0
            _ = pxview_curl_getinfo_off_t(easy, CURLINFO_TOTAL_TIME_T, &totalMicroseconds)
            let limit = Self.timeoutLimit(elapsed: Double(totalMicroseconds) / 1_000_000, request: request)
            return .timedOut(url, seconds: limit)
        case CURLE_PARTIAL_FILE:
            return .truncated(url)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tls(url, detail: detail)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url)
        case CURLE_FILE_COULDNT_READ_FILE:
            return .fileNotFound(URLText.filePath(of: request.url))
        default:
            return .other(url, detail: detail)
        }
    }

    /// Which limit a timed-out transfer hit, in seconds: the one the time
    /// spent reached. A transfer that ran to the total limit timed out on
    /// it whatever its connect time says (a reused connection reports 0, and
    /// a save stalled mid-body after 60 s was once said to time out after
    /// 10 s); one that ended well before it, on the connect limit.
    static func timeoutLimit(elapsed: Double, request: HTTPRequest) -> Double {
        guard request.connectTimeout < request.totalTimeout else { return request.totalTimeout }
        return elapsed < request.totalTimeout * 0.9 ? request.connectTimeout : request.totalTimeout
    }

    /// libcurl's specific message when it left one, else the generic text for the code.
    private func errorText(for code: CURLcode) -> String {
        let specific = String(cString: errorBuffer)
        return specific.isEmpty ? String(cString: pxview_curl_easy_strerror(code)) : specific
    }

    /// Frees the easy handle and header list; safe to call twice.
    func releaseHandle() {
        if let easy {
            pxview_curl_easy_cleanup(easy)
            self.easy = nil
        }
        if let headerList {
            pxview_curl_slist_free_all(headerList)
            self.headerList = nil
        }
    }
}
