import Foundation

/// Where photos come from: Pixabay itself (`PixabayClient`) or the bundled
/// `OfflineCatalog`. The UI talks to this and never needs to know which.
public protocol PhotoSource: Sendable {
    /// One page of results for a validated query.
    func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage
    /// One image by id; `.notFound(id:)` when there is none.
    func hit(id: Int) async throws(PixabayError) -> PixabayHit
    /// The encoded bytes (JPEG or PNG: sniff, don't trust extensions) of one rendition.
    func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8]
    /// True for the bundled catalog, so the UI can say the photos are not from Pixabay.
    var isOffline: Bool { get }
}

/// Pixabay's `X-RateLimit-*` headers: 100 requests per 60 s per key.
public struct RateLimitStatus: Sendable, Equatable {
    public var limit: Int
    public var remaining: Int
    /// Seconds until the window resets.
    public var resetSeconds: Int

    public init(limit: Int, remaining: Int, resetSeconds: Int) {
        self.limit = limit
        self.remaining = remaining
        self.resetSeconds = resetSeconds
    }

    /// From lower-cased response headers; nil unless all three are present and numeric.
    public init?(headers: [String: String]) {
        guard let limit = Self.seconds(headers["x-ratelimit-limit"]),
            let remaining = Self.seconds(headers["x-ratelimit-remaining"]),
            let reset = Self.seconds(headers["x-ratelimit-reset"])
        else { return nil }
        self.init(limit: limit, remaining: remaining, resetSeconds: reset)
    }

    /// A non-negative whole number from a header value; fractions round up
    /// (waiting a little longer than needed beats being refused again).
    static func seconds(_ value: String?) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let whole = Int(text), whole >= 0 { return whole }
        if let fraction = Double(text), fraction.isFinite, fraction >= 0, fraction < 1e9 {
            return Int(fraction.rounded(.up))
        }
        return nil
    }
}

/// A response plus where it sits in the result list.
public struct SearchPage: Sendable, Equatable {
    public var response: PixabayResponse
    /// 1-based.
    public var page: Int
    public var perPage: Int
    /// Shown above results: "offline catalog…", "cached…". Nil for a fresh Pixabay answer.
    public var note: String?
    /// Nil offline and when the server sent no rate limit headers.
    public var rateLimit: RateLimitStatus?

    public init(
        response: PixabayResponse, page: Int, perPage: Int, note: String? = nil,
        rateLimit: RateLimitStatus? = nil
    ) {
        self.response = response
        self.page = page
        self.perPage = perPage
        self.note = note
        self.rateLimit = rateLimit
    }

    public var hits: [PixabayHit] { response.hits }

    /// ceil(totalHits / perPage); 0 when nothing matched.
    public var totalPages: Int {
        Self.pageCount(hits: response.totalHits, perPage: perPage)
    }

    public var hasNextPage: Bool { page < totalPages }

    static func pageCount(hits: Int, perPage: Int) -> Int {
        guard perPage > 0, hits > 0 else { return 0 }
        return (hits + perPage - 1) / perPage
    }
}
