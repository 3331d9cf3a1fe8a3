import Decoding
import Foundation
import HTTP
import TestSupport
import Testing

@testable import Pixabay

/// `FakePixabayServer` serving the bundled catalog's hits (URLs rewritten
/// to point back at it), with `/img/...` serving the catalog's real JPEG and
/// PNG files. Tests can replace any route to produce a failure.
final class FakePixabay: Sendable {
    static let key = "live-5e3ret-0123456789abcdef"

    let fake: FakePixabayServer
    let hits: [PixabayHit]
    /// The bytes served for each hit's large rendition, by id.
    let largeBytes: [Int: [UInt8]]

    var server: TestHTTPServer { fake.server }

    init() throws {
        let catalog = try OfflineCatalog(directory: catalogSourceDirectory())
        var hits: [PixabayHit] = []
        var largeBytes: [Int: [UInt8]] = [:]
        fake = try FakePixabayServer { server in
            for entry in catalog.entries {
                var hit = entry.hit
                for size in [ImageSize.preview, .web, .large] {
                    let fileURL = try #require(URL(string: hit.url(for: size)))
                    let relative = "\(size.rawValue)/\(fileURL.lastPathComponent)"
                    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: fileURL.path)))
                    server.route("/img/\(relative)") { _ in
                        TestHTTPServer.Response(headers: ["Content-Type": "image/jpeg"], body: bytes)
                    }
                    let url = server.url("/img/\(relative)")
                    switch size {
                    case .preview: hit.previewURL = url
                    case .web: hit.webformatURL = url
                    case .large:
                        hit.largeImageURL = url
                        largeBytes[hit.id] = bytes
                    }
                }
                hits.append(hit)
            }
            return hits.map(Self.served)
        }
        self.hits = hits
        self.largeBytes = largeBytes
    }

    var apiURL: String { fake.apiURL }

    static func served(_ hit: PixabayHit) -> FakePixabayServer.Hit {
        FakePixabayServer.Hit(id: hit.id, json: [UInt8]((try? JSONEncoder().encode(hit)) ?? Data()))
    }

    /// The JSON the server sends for `hits`.
    static func encode(_ hits: [PixabayHit], total: Int) -> [UInt8] {
        FakePixabayServer.body(hits.map(served), total: total)
    }

    /// A client going through the real libcurl client, optionally behind a cache.
    func client(cache: DiskCache? = nil, timeout: Double? = nil) -> PixabayClient {
        var fetcher: any HTTPFetching = CurlClient(userAgent: "pxview-tests")
        if let cache { fetcher = CachingFetcher(wrapping: fetcher, cache: cache) }
        if let timeout { fetcher = TimeoutOverride(upstream: fetcher, seconds: timeout) }
        return PixabayClient(fetcher: fetcher, apiKey: Self.key, baseURL: apiURL)
    }
}

/// Sources/Pixabay/Catalog in the source tree: real photos to serve.
func catalogSourceDirectory() -> URL {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("Sources/Pixabay/Catalog")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("catalog.json").path) {
            return candidate
        }
    }
    return URL(fileURLWithPath: "/nonexistent-catalog")
}

/// Shortens every request's time limit, so a slow-server test takes a
/// fraction of a second instead of PixabayClient's 60 s default.
struct TimeoutOverride: HTTPFetching {
    let upstream: any HTTPFetching
    let seconds: Double

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        var shortened = request
        shortened.totalTimeout = seconds
        return try await upstream.fetch(shortened)
    }
}

@Suite struct LiveServerTests {
    static let key = FakePixabay.key

    @Test func searchReturnsThePageTheServerSent() async throws {
        let pixabay = try FakePixabay()
        let page = try await pixabay.client().search(SearchQuery(q: "red flower", perPage: 5))
        #expect(page.hits.map(\.id) == pixabay.hits.prefix(5).map(\.id))
        #expect(page.response.totalHits == pixabay.hits.count)
        #expect(page.totalPages == 3)
        let request = try #require(pixabay.server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/api/?q=red+flower&page=1&per_page=5&key=\(Self.key)")
        #expect(request.headers["user-agent"] == "pxview-tests")
    }

    @Test func pagingWalksThroughEveryHit() async throws {
        let pixabay = try FakePixabay()
        let client = pixabay.client()
        var seen: [Int] = []
        var query = SearchQuery(perPage: 4)
        while true {
            let page = try await client.search(query)
            seen += page.hits.map(\.id)
            guard page.hasNextPage else { break }
            query.page += 1
        }
        #expect(seen == pixabay.hits.map(\.id))
        #expect(query.page == 4)  // 15 hits at 4 per page
        #expect(pixabay.server.requests.map { queryDictionary($0.target)["page"] } == ["1", "2", "3", "4"])
    }

    @Test func everyFilterReachesTheServer() async throws {
        let pixabay = try FakePixabay()
        let query = SearchQuery(
            q: "ünïcode & more+", lang: .de, imageType: .vector, orientation: .vertical, category: .animals,
            colors: [.red, .turquoise], minWidth: 640, minHeight: 480, editorsChoice: true, safeSearch: true,
            order: .latest, page: 2, perPage: 3)
        _ = try await pixabay.client().search(query)
        let request = try #require(pixabay.server.requests.first)
        #expect(
            queryDictionary(request.target) == [
                "q": "ünïcode & more+", "lang": "de", "image_type": "vector", "orientation": "vertical",
                "category": "animals", "colors": "red,turquoise", "min_width": "640", "min_height": "480",
                "editors_choice": "true", "safesearch": "true", "order": "latest", "page": "2", "per_page": "3",
                "key": Self.key,
            ])
    }

    @Test func idLookupAndUnknownID() async throws {
        let pixabay = try FakePixabay()
        let client = pixabay.client()
        let wanted = pixabay.hits[3]
        #expect(try await client.hit(id: wanted.id) == wanted)
        #expect(pixabay.server.requests.first?.target == "/api/?id=\(wanted.id)&key=\(Self.key)")
        let error = await pixabayError { _ = try await client.hit(id: 42) }
        #expect(error == .notFound(id: 42))
    }

    @Test func imagesAreTheRealFilesAndSniffAsImages() async throws {
        let pixabay = try FakePixabay()
        let client = pixabay.client()
        for hit in pixabay.hits.prefix(3) + pixabay.hits.filter({ $0.largeImageURL.hasSuffix(".png") }) {
            let bytes = try await client.imageBytes(for: hit, size: .large)
            #expect(bytes == pixabay.largeBytes[hit.id])
            let expected: ImageFormat = hit.largeImageURL.hasSuffix(".png") ? .png : .jpeg
            #expect(ImageFormat(sniffing: bytes) == expected)
        }
    }

    @Test func aHitWhoseImageIsHTMLComesBackAsBytesThatAreNotAnImage() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/img/html") { _ in
            TestHTTPServer.Response(
                headers: ["Content-Type": "text/html"], body: Array("<!DOCTYPE html><title>Login</title>".utf8))
        }
        let hit = PixabayHit(id: 77, largeImageURL: pixabay.server.url("/img/html"))
        let bytes = try await pixabay.client().imageBytes(for: hit, size: .large)
        #expect(ImageFormat(sniffing: bytes) == nil)
        #expect(ImageFormat.describeNonImage(bytes) == "an HTML page")
    }

    @Test func status400ShowsThePlainTextBodyWithoutTheKey() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { request in
            .text("[ERROR 400] Invalid or missing API key (\(queryDictionary(request.target)["key"] ?? ""))", status: 400)
        }
        let error = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        #expect(error == .api(status: 400, message: "[ERROR 400] Invalid or missing API key ([redacted])"))
        #expect(error?.description.contains(Self.key) == false)
    }

    @Test func status429ShowsWhenToRetry() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { _ in
            .text(
                "API rate limit exceeded", status: 429,
                headers: ["X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "37"])
        }
        let error = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        #expect(error == .rateLimited(resetSeconds: 37))
        #expect(error?.description == "Pixabay rate limit reached (100 requests per minute): try again in 37 s")
    }

    @Test func status500IsAServerError() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { _ in .text("<h1>Internal\nError</h1>", status: 500) }
        let error = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        #expect(error == .server(status: 500, message: "<h1>Internal Error</h1>"))
    }

    @Test func aSlowServerHitsTheTimeout() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { _ in TestHTTPServer.Response(body: Array("{}".utf8), delay: 10) }
        let error = await pixabayError { _ = try await pixabay.client(timeout: 0.3).search(SearchQuery()) }
        guard case .network(let detail) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("timed out"))
        #expect(detail.contains("key=REDACTED"))
        #expect(!detail.contains(Self.key))
    }

    @Test func aTruncatedBodyIsANetworkError() async throws {
        let pixabay = try FakePixabay()
        let full = FakePixabay.encode(pixabay.hits, total: pixabay.hits.count)
        pixabay.server.route("/api/") { _ in
            TestHTTPServer.Response(body: Array(full.prefix(200)), declaredLength: full.count)
        }
        let error = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        guard case .network(let detail) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("cut short"))
        #expect(!detail.contains(Self.key))
    }

    @Test func malformedJSONSaysWhere() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { _ in .text(#"{"total": 3, "totalHits": 3, "hits": [{"id": "#) }
        let error = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        guard case .malformedResponse = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        pixabay.server.route("/api/") { _ in .text(#"{"hits": [{"id": 1, "likes": {"many": true}}]}"#) }
        let typed = await pixabayError { _ = try await pixabay.client().search(SearchQuery()) }
        #expect(typed?.description.hasPrefix("Pixabay sent a response pxview cannot read: hits[0].likes:") == true)
    }

    @Test func unknownFieldsAreIgnoredAndMissingOptionalFieldsDefault() async throws {
        let pixabay = try FakePixabay()
        pixabay.server.route("/api/") { _ in
            .text(
                #"""
                {"total": 2, "totalHits": 2, "brandNew": {"nested": [1, 2]}, "hits": [
                  {"id": 11, "tags": "a, b", "futureField": "x", "likes": 5, "aiScore": 0.3},
                  {"id": 12}
                ]}
                """#)
        }
        let page = try await pixabay.client().search(SearchQuery())
        #expect(page.hits.map(\.id) == [11, 12])
        #expect(page.hits[0].tagList == ["a", "b"])
        #expect(page.hits[0].likes == 5)
        #expect(page.hits[1] == PixabayHit(id: 12))
    }

    @Test func answersAreCachedFor24HoursThenRefetched() async throws {
        let pixabay = try FakePixabay()
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let client = pixabay.client(cache: DiskCache(directory: directory.path, now: clock.function))
        let query = SearchQuery(q: "cat")
        let first = try await client.search(query)
        clock.advance(by: 23 * 3600)
        let second = try await client.search(query)
        #expect(second.response == first.response)
        #expect(pixabay.server.requestCount(path: "/api/") == 1)
        clock.advance(by: 2 * 3600)
        _ = try await client.search(query)
        #expect(pixabay.server.requestCount(path: "/api/") == 2)
        // A different page is a different answer.
        _ = try await client.search(SearchQuery(q: "cat", page: 2, perPage: 3))
        #expect(pixabay.server.requestCount(path: "/api/") == 3)
    }

    @Test func theKeyOnlyEverTravelsInTheKeyParameter() async throws {
        let pixabay = try FakePixabay()
        let directory = try TemporaryDirectory()
        let client = pixabay.client(cache: DiskCache(directory: directory.path))
        let page = try await client.search(SearchQuery(q: "flower", colors: [.red]))
        _ = try await client.hit(id: page.hits[0].id)
        _ = try await client.imageBytes(for: page.hits[0], size: .web)
        let requests = pixabay.server.requests
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.headers.allSatisfy { !$0.key.contains(Self.key) && !$0.value.contains(Self.key) })
            let items = queryDictionary(request.target)
            #expect(items.filter { $0.value.contains(Self.key) }.map(\.key) == (request.path == "/api/" ? ["key"] : []))
            #expect(request.path.contains(Self.key) == false)
        }
        // Nothing on disk names or holds the key.
        let names = directory.names()
        #expect(!names.isEmpty)
        for name in names {
            #expect(!name.contains(Self.key))
            let contents = try #require(FileManager.default.contents(atPath: directory.file(name)))
            #expect(contents.range(of: Data(Self.key.utf8)) == nil)
        }
    }

    @Test func sourceStackServesStaleCopiesWhenTheNetworkIsGoneAndSaysSo() async throws {
        let pixabay = try FakePixabay()
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let settings = SourceSettings(
            apiKey: Self.key, apiURL: pixabay.apiURL, offline: false, useCache: true, cacheDirectory: directory.path)
        let stack = try SourceStack(
            settings: settings, userAgent: "pxview-tests", cacheClock: clock.function, catalogDirectory: nil)
        #expect(stack.hint == nil)
        #expect(stack.offlineCatalogSize == nil)
        let fresh = try await stack.source.search(SearchQuery(q: "sea"))
        #expect(stack.staleCopies.oldestStaleAge == nil)

        pixabay.server.stop()
        clock.advance(by: 25 * 3600)
        let stale = try await stack.source.search(SearchQuery(q: "sea"))
        #expect(stale.response == fresh.response)
        let age = try #require(stack.staleCopies.oldestStaleAge)
        #expect(StaleCopyLog.note(age: age) == "network unavailable: showing cached results from 25 hours ago")
        // The page itself carries the note, for the explorer's status line.
        #expect(stale.note == "network unavailable: showing cached results from 25 hours ago")
        #expect(fresh.note == nil)
    }

    @Test func progressIsReportedPerDownloadUnderTheFileName() async throws {
        let pixabay = try FakePixabay()
        let recorder = ProgressEvents()
        let fetcher = ProgressReportingFetcher(wrapping: CurlClient()) { label in
            recorder.started(label)
            return ({ received, _ in recorder.updated(received) }, { recorder.finished() })
        }
        let hit = try #require(pixabay.hits.first)
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key, baseURL: pixabay.apiURL)
        let bytes = try await client.imageBytes(for: hit, size: .large)
        let events = recorder.snapshot
        #expect(events.labels == [URL(string: hit.largeImageURL)?.lastPathComponent ?? "?"])
        #expect(events.lastReceived == Int64(bytes.count))
        #expect(events.finished == 1)
    }
}

/// Progress callbacks arrive on the transfer thread.
final class ProgressEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var labels: [String] = []
    private var lastReceived: Int64 = -1
    private var finishedCount = 0

    func started(_ label: String) { locked { labels.append(label) } }
    func updated(_ received: Int64) { locked { lastReceived = max(lastReceived, received) } }
    func finished() { locked { finishedCount += 1 } }

    var snapshot: (labels: [String], lastReceived: Int64, finished: Int) {
        locked { (labels, lastReceived, finishedCount) }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
