import Foundation

/// The one Pixabay stand-in for tests, on 127.0.0.1: `/api/` answers an
/// `id=` lookup with that hit (or none) and any other request with page
/// `page` of `per_page` hits (1 and 20 unless asked), as JSON, with the
/// rate-limit headers Pixabay always sends. Hits are JSON objects given as
/// bytes, so a test can serve anything, hostile text included; images, and
/// failures, are routes a test adds to `server` or replaces.
public final class FakePixabayServer: Sendable {
    /// One hit as served: its id (for `id=` lookups) and its JSON object.
    public struct Hit: Sendable {
        public var id: Int
        public var json: [UInt8]

        public init(id: Int, json: [UInt8]) {
            self.id = id
            self.json = json
        }
    }

    public let server: TestHTTPServer
    public let hits: [Hit]

    /// `makeHits` gets the server first, so the hits can point at images it serves.
    public init(hits makeHits: (TestHTTPServer) throws -> [Hit]) throws {
        server = try TestHTTPServer()
        hits = try makeHits(server)
        let served = hits
        server.route("/api/") { request in Self.answer(request, hits: served) }
    }

    public var apiURL: String { server.url("/api/") }

    public var apiRequests: [TestHTTPServer.Request] { server.requests.filter { $0.path == "/api/" } }

    /// Every hit in one answer: what a search gets when they fit on a page.
    public var searchBody: [UInt8] { Self.body(hits, total: hits.count) }

    public static let headers = [
        "Content-Type": "application/json", "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99",
        "X-RateLimit-Reset": "60",
    ]

    /// Pixabay's behaviour in miniature: `id` looks one up, otherwise a page
    /// of every hit (filters are the real server's business; tests check
    /// that they arrive).
    public static func answer(_ request: TestHTTPServer.Request, hits: [Hit]) -> TestHTTPServer.Response {
        let items = queryDictionary(request.target)
        if let id = items["id"].flatMap(Int.init) {
            let found = hits.filter { $0.id == id }
            return TestHTTPServer.Response(headers: headers, body: body(found, total: found.count))
        }
        let page = items["page"].flatMap(Int.init) ?? 1
        let perPage = items["per_page"].flatMap(Int.init) ?? 20
        let start = min(hits.count, max(0, (page - 1) * perPage))
        let slice = Array(hits[start..<min(hits.count, start + max(0, perPage))])
        return TestHTTPServer.Response(headers: headers, body: body(slice, total: hits.count))
    }

    /// `{"total":N,"totalHits":N,"hits":[…]}`.
    public static func body(_ hits: [Hit], total: Int) -> [UInt8] {
        Array("{\"total\":\(total),\"totalHits\":\(total),\"hits\":[".utf8)
            + Array(hits.map(\.json).joined(separator: [UInt8(ascii: ",")])) + Array("]}".utf8)
    }
}

/// Query items of a request target, percent-decoded, last one wins.
public func queryDictionary(_ target: String) -> [String: String] {
    var items: [String: String] = [:]
    guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return items }
    for pair in query.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
        items[String(parts[0])] = value.removingPercentEncoding ?? value
    }
    return items
}
