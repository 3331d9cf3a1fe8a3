/// One HTTP(S) or file:// GET. Value type so requests can be logged, cached
/// and compared; the cache key is built from it (never from secrets: see
/// `redactedQueryItems`).
package struct HTTPRequest: Hashable, Sendable {
    package var url: String
    package var headers: [String: String]
    /// Seconds to wait for the connection to be made.
    package var connectTimeout: Double
    /// Seconds for the whole transfer, connection included.
    package var totalTimeout: Double
    /// Bodies larger than this fail with `HTTPError.bodyTooLarge` instead of filling memory.
    package var maxBodyBytes: Int
    /// Query parameter names whose values must never appear in errors, logs,
    /// file names or cache keys (the Pixabay `key`).
    package var redactedQueryItems: Set<String>
    /// `file://` is allowed only for URLs the user typed (`pxview show
    /// file:///…`): a URL that came from the network (an API answer's image
    /// URL) is http(s) only, so a hostile server cannot make pxview read
    /// local files (or hang on a FIFO).
    package var allowsFileURL: Bool
    /// What a 200's body must be before it is believed and cached.
    package var check: ResponseCheck

    package init(
        url: String, headers: [String: String] = [:], connectTimeout: Double = 10,
        totalTimeout: Double = 60, maxBodyBytes: Int = 64 << 20, redactedQueryItems: Set<String> = [],
        allowsFileURL: Bool = false, check: ResponseCheck = .any
    ) {
        self.url = url
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBodyBytes = maxBodyBytes
        self.redactedQueryItems = redactedQueryItems
        self.allowsFileURL = allowsFileURL
        self.check = check
    }
}

/// A test a response body must pass (it parses as the JSON expected, the
/// image is whole). `CachingFetcher` stores only bodies that pass and drops
/// cached ones that do not, so one broken answer cannot stand in for the
/// real one for a day. Named, so requests stay `Hashable`.
package struct ResponseCheck: Hashable, Sendable {
    package let name: String
    private let accepts: @Sendable ([UInt8]) -> Bool

    package init(name: String, accepts: @escaping @Sendable ([UInt8]) -> Bool) {
        self.name = name
        self.accepts = accepts
    }

    /// Anything goes.
    package static let any = ResponseCheck(name: "any") { _ in true }

    package func accepts(_ body: [UInt8]) -> Bool { accepts(body) }

    package static func == (lhs: ResponseCheck, rhs: ResponseCheck) -> Bool { lhs.name == rhs.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A finished transfer. Any status is a response; callers decide what a 4xx means.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    /// Header names lower-cased; the last value wins when a name repeats.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The URL after redirects.
    package var finalURL: String

    package init(status: Int, headers: [String: String] = [:], body: [UInt8], finalURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.finalURL = finalURL
    }
}

/// What can go wrong below HTTP status codes. The `String` payload is always
/// the request URL with redacted parameters replaced (`key=REDACTED`), or the
/// local path for `fileNotFound`: never the secret itself, so errors can be
/// printed and logged as they are.
package enum HTTPError: Error, Equatable, Sendable {
    case invalidURL(String)
    case couldNotResolveHost(String)
    case couldNotConnect(String)
    /// `seconds` is the limit that was hit (connect or total), when known.
    case timedOut(String, seconds: Double? = nil)
    case bodyTooLarge(String, limit: Int)
    case truncated(String)
    case tls(String, detail: String)
    case tooManyRedirects(String)
    case fileNotFound(String)
    case other(String, detail: String)
}

/// Anything that fetches: the libcurl client, or a fake in tests of higher layers.
package protocol HTTPFetching: Sendable {
    /// One request. Never blocks Swift's cooperative threads.
    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse
    /// One request, reporting `(received bytes, total bytes if known)` while
    /// the body arrives so a CLI can show progress for slow downloads.
    func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse
}

extension HTTPFetching {
    /// Fetchers that cannot report progress (test fakes) just fetch.
    package func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse {
        try await fetch(request)
    }
}
