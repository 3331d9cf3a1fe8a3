import Foundation
import TestSupport
import Testing

@testable import HTTP

/// A real server, the real client and a cache in a temporary directory
/// with a hand-moved clock.
private struct CachingSetup {
    let server: TestHTTPServer
    let directory: TemporaryDirectory
    let clock = TestClock()
    let fetcher: CachingFetcher

    init() throws {
        server = try TestHTTPServer()
        directory = try TemporaryDirectory()
        let cache = DiskCache(directory: directory.path, now: clock.function)
        fetcher = CachingFetcher(wrapping: CurlClient(), cache: cache)
        // Echoes the query without the key, as the real API never echoes it.
        server.route("/api/") { request in
            let query = (request.query ?? "").split(separator: "&").filter { !$0.hasPrefix("key=") }
            return .text("{\"query\":\"\(query.joined(separator: "&"))\"}", headers: ["Content-Type": "application/json"])
        }
    }

    func request(secret: String = "secret-one") -> HTTPRequest {
        HTTPRequest(url: server.url("/api/?q=fox&key=\(secret)"), redactedQueryItems: ["key"])
    }
}

@Suite struct CachingFetcherTests {
    @Test func onlyBodiesThatPassTheCheckAreStored() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }
        var request = setup.request()
        request.check = ResponseCheck(name: "ends with brace") { $0.last == UInt8(ascii: "}") }
        let served = setup.server
        served.route("/api/") { _ in .text("{\"cut") }
        let broken = try await setup.fetcher.fetch(request)
        #expect(broken.body == Array("{\"cut".utf8))
        #expect(setup.fetcher.cache.info().entries == 0)
        served.route("/api/") { _ in .text("{}") }
        _ = try await setup.fetcher.fetch(request)
        _ = try await setup.fetcher.fetch(request)
        #expect(served.requestCount(path: "/api/") == 2)
        #expect(setup.fetcher.cache.info().entries == 1)
        // A stored body the check now refuses is dropped and fetched again.
        var stricter = request
        stricter.check = ResponseCheck(name: "never") { _ in false }
        _ = try await setup.fetcher.fetch(stricter)
        #expect(served.requestCount(path: "/api/") == 3)
    }

    @Test func secondRequestWithinADayNeverReachesTheServer() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }

        let first = try await setup.fetcher.fetch(setup.request())
        setup.clock.advance(by: 23 * 3600)
        let second = try await setup.fetcher.fetch(setup.request())

        #expect(setup.server.requestCount(path: "/api/") == 1)
        #expect(second.body == first.body)
        #expect(second.status == 200)
        #expect(second.headers["content-type"] == "application/json")
        #expect(second.headers[CachingFetcher.cacheHeader] == "hit")
        #expect(second.headers["age"] == "82800")
        #expect(!second.isStaleCacheCopy)
        #expect(first.headers[CachingFetcher.cacheHeader] == nil)
    }

    @Test func aDifferentApiKeyHitsTheSameEntryAndNoSecretIsStored() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }

        _ = try await setup.fetcher.fetch(setup.request(secret: "secret-one"))
        _ = try await setup.fetcher.fetch(setup.request(secret: "secret-two"))

        #expect(setup.server.requestCount(path: "/api/") == 1)
        #expect(setup.server.requests.first?.query == "q=fox&key=secret-one")
        for name in try FileManager.default.contentsOfDirectory(atPath: setup.directory.path) {
            let contents = try Data(contentsOf: URL(fileURLWithPath: setup.directory.path + "/" + name))
            #expect(!name.contains("secret"))
            #expect(contents.range(of: Data("secret-one".utf8)) == nil)
        }
    }

    @Test func expiredEntryIsRefetched() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }

        _ = try await setup.fetcher.fetch(setup.request())
        setup.clock.advance(by: 24 * 3600 + 1)
        let refreshed = try await setup.fetcher.fetch(setup.request())
        let cachedAgain = try await setup.fetcher.fetch(setup.request())

        #expect(setup.server.requestCount(path: "/api/") == 2)
        #expect(refreshed.headers[CachingFetcher.cacheHeader] == nil)
        #expect(cachedAgain.headers[CachingFetcher.cacheHeader] == "hit")
    }

    @Test func staleCopyIsServedWhenTheNetworkFails() async throws {
        let setup = try CachingSetup()
        let first = try await setup.fetcher.fetch(setup.request())
        setup.server.stop()
        setup.clock.advance(by: 48 * 3600)

        let stale = try await setup.fetcher.fetch(setup.request())

        #expect(stale.body == first.body)
        #expect(stale.isStaleCacheCopy)
        #expect(stale.headers[CachingFetcher.cacheHeader] == "stale")
        #expect(stale.headers["age"] == "172800")
    }

    @Test func networkFailureWithoutACopyIsThrown() async throws {
        let setup = try CachingSetup()
        setup.server.stop()

        await #expect(throws: HTTPError.couldNotConnect(setup.request().redactedURL)) {
            try await setup.fetcher.fetch(setup.request())
        }
    }

    @Test func errorStatusesAreNotCached() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }
        let request = HTTPRequest(url: setup.server.url("/missing"))

        let first = try await setup.fetcher.fetch(request)
        let second = try await setup.fetcher.fetch(request)

        #expect(first.status == 404)
        #expect(second.status == 404)
        #expect(setup.server.requestCount(path: "/missing") == 2)
        #expect(setup.fetcher.cache.info().entries == 0)
    }

    @Test func concurrentFetchesMixHitsAndMisses() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }
        let requests = (0..<4).map { HTTPRequest(url: setup.server.url("/api/?page=\($0)")) }
        _ = try await setup.fetcher.fetch(requests[1])

        let results = await fetchConcurrently(requests, through: setup.fetcher)

        let bodies = results.map { (try? $0.get()).map { String(decoding: $0.body, as: UTF8.self) } }
        #expect(bodies == (0..<4).map { "{\"query\":\"page=\($0)\"}" })
        #expect(setup.server.requestCount(path: "/api/") == 4)
        #expect((try? results[1].get())?.headers[CachingFetcher.cacheHeader] == "hit")
    }

    @Test func fileURLsBypassTheCache() async throws {
        let setup = try CachingSetup()
        defer { setup.server.stop() }
        let path = setup.directory.path + "/../pxview-http-file-\(UUID().uuidString).bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let response = try await setup.fetcher.fetch(HTTPRequest(url: "file://" + path, allowsFileURL: true))

        #expect(response.body == [1, 2, 3])
        #expect(setup.fetcher.cache.info().entries == 0)
    }

    @Test func cachedResponseFormatRoundTripsAndRejectsGarbage() {
        let response = HTTPResponse(status: 200, headers: ["content-type": "image/jpeg"], body: [1, 2, 3], finalURL: "u")
        let encoded = CachedResponse(response).encoded()

        #expect(CachedResponse(decoding: encoded) == CachedResponse(response))
        #expect(CachedResponse(decoding: Array(encoded.prefix(9))) == nil)
        #expect(CachedResponse(decoding: [0, 1, 2, 3, 4, 5, 6, 7, 8]) == nil)
    }
}
