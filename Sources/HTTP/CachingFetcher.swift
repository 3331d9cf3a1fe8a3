import Foundation

/// Puts a `DiskCache` in front of any fetcher.
///
/// - A GET of an http(s) URL answered 200 whose body passes the request's
///   `check` is stored under `cacheKey(for:)` (secrets removed, query
///   sorted). A body that fails it (truncated JSON, an HTML page, half an
///   image) is returned as it came but never stored, and a stored body that
///   fails it is dropped and fetched again.
/// - The same request within `maxAge` is answered from disk with no network
///   request; the response carries `x-pxview-cache: hit` and `age`.
/// - Older entries are refetched. If that refetch fails with an `HTTPError`
///   (no network, timeout, TLS… but not an HTTP status, which is a real
///   answer), the old copy is returned flagged `x-pxview-stale: 1` so the UI
///   can say "showing cached results".
/// - Caching is best effort: a cache that cannot be written never turns a
///   successful download into a failure.
/// - `file://` URLs pass straight through: caching a local file is pointless.
///
/// Turning the cache off (`--no-cache`) means not wrapping the fetcher.
package struct CachingFetcher: HTTPFetching {
    /// Response header set to `"1"` on a stale copy served because the network failed.
    package static let staleHeader = "x-pxview-stale"
    /// Response header set to `"hit"` or `"stale"` when the body came from disk.
    package static let cacheHeader = "x-pxview-cache"

    package let upstream: any HTTPFetching
    package let cache: DiskCache
    package let maxAge: TimeInterval

    package init(wrapping upstream: any HTTPFetching, cache: DiskCache, maxAge: TimeInterval = 24 * 60 * 60) {
        self.upstream = upstream
        self.cache = cache
        self.maxAge = maxAge
    }

    package func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await fetch(request, progress: nil)
    }

    package func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse {
        guard let scheme = URLText.scheme(of: request.url), scheme == "http" || scheme == "https" else {
            return try await upstream.fetch(request, progress: progress)
        }
        let key = cacheKey(for: request)
        var cached = cache.entry(forKey: key).flatMap { entry in
            CachedResponse(decoding: entry.data).map { (response: $0, storedAt: entry.storedAt) }
        }
        if let entry = cached, !request.check.accepts(entry.response.body) {
            cache.remove(key: key)
            cached = nil
        }
        let now = cache.now()
        if let cached, now.timeIntervalSince(cached.storedAt) <= maxAge {
            return cached.response.httpResponse(for: request, age: now.timeIntervalSince(cached.storedAt), stale: false)
        }
        do {
            let response = try await upstream.fetch(request, progress: progress)
            if response.status == 200, request.check.accepts(response.body) {
                try? cache.put(key: key, data: CachedResponse(response).encoded())
            }
            return response
        } catch let error as HTTPError {
            guard let cached else { throw error }
            return cached.response.httpResponse(for: request, age: now.timeIntervalSince(cached.storedAt), stale: true)
        }
    }
}

extension HTTPResponse {
    /// True for an old cached copy served because the network failed.
    package var isStaleCacheCopy: Bool {
        headers[CachingFetcher.staleHeader] == "1"
    }
}

/// What is kept of a response on disk: the body and its content type.
/// Never the final URL or other headers, which could carry a secret.
struct CachedResponse: Equatable {
    var contentType: String?
    var body: [UInt8]

    private static let magic: [UInt8] = Array("PXR1".utf8)

    init(_ response: HTTPResponse) {
        contentType = response.headers["content-type"]
        body = response.body
    }

    /// Layout: magic, content-type length (UInt32 LE, 0 = none), content-type UTF-8, body.
    func encoded() -> [UInt8] {
        let type = Array((contentType ?? "").utf8)
        let length = UInt32(truncatingIfNeeded: type.count)
        return Self.magic + (0..<4).map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + type + body
    }

    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= 8, Array(bytes[0..<4]) == Self.magic else { return nil }
        let length = (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << ($1 * 8) }
        guard length <= bytes.count - 8 else { return nil }
        contentType = length == 0 ? nil : String(decoding: bytes[8..<(8 + length)], as: UTF8.self)
        body = Array(bytes[(8 + length)...])
    }

    func httpResponse(for request: HTTPRequest, age: TimeInterval, stale: Bool) -> HTTPResponse {
        var headers = [
            CachingFetcher.cacheHeader: stale ? "stale" : "hit",
            "age": String(max(0, Int(age))),
        ]
        if let contentType { headers["content-type"] = contentType }
        if stale { headers[CachingFetcher.staleHeader] = "1" }
        return HTTPResponse(status: 200, headers: headers, body: body, finalURL: request.url)
    }
}
