import Foundation
import HTTP
import Testing

@testable import Pixabay

@Suite struct ClientTests {
    static let key = "12345678-0123456789abcdef0123abcd"

    @Test func searchSendsKeyOnlyInKeyParamAndMarksItRedacted() async throws {
        let fetcher = FakeFetcher(
            status: 200, bytes: try pixabayFixture("example-response.json"),
            headers: ["x-ratelimit-limit": "100", "x-ratelimit-remaining": "97", "x-ratelimit-reset": "42"])
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key)
        let page = try await client.search(SearchQuery(q: "blossom", imageType: .photo, page: 2, perPage: 3))
        #expect(page.hits.map(\.id) == [195893])
        #expect(page.page == 2)
        #expect(page.totalPages == 167)  // ceil(500 / 3)
        #expect(page.note == nil)
        let request = try #require(await fetcher.log.requests.first)
        #expect(
            request.url
                == "https://pixabay.com/api/?q=blossom&image_type=photo&page=2&per_page=3&key=\(Self.key)")
        #expect(request.redactedQueryItems == ["key"])
        let keyed = queryPairs(of: request.url).filter { $0.1.contains(Self.key) }
        #expect(keyed.map(\.0) == ["key"])
        #expect(request.headers.values.allSatisfy { !$0.contains(Self.key) })
    }

    @Test func invalidQueryIsRefusedBeforeAnyRequest() async throws {
        let fetcher = FakeFetcher(status: 200, body: "{}")
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key)
        let error = await pixabayError { _ = try await client.search(SearchQuery(perPage: 500)) }
        #expect(error == .invalidQuery("--per-page must be between 3 and 200 (got 500)"))
        #expect(await fetcher.log.requests.isEmpty)
    }

    @Test func status400ShowsPixabaysTextWithTheKeyScrubbed() async {
        let body = "[ERROR 400] Invalid or missing API key (\(Self.key)).\n"
        let client = PixabayClient(fetcher: FakeFetcher(status: 400, body: body), apiKey: Self.key)
        let error = await pixabayError { _ = try await client.search(SearchQuery()) }
        #expect(error == .api(status: 400, message: "[ERROR 400] Invalid or missing API key ([redacted])."))
        #expect(error.map { !$0.description.contains(Self.key) } == true)
    }

    @Test func encodedSpellingOfTheKeyIsScrubbedToo() async throws {
        let key = "k3y/with+chars"
        let body = "bad key k3y%2Fwith%2Bchars or k3y/with+chars"
        let fetcher = FakeFetcher(status: 400, body: body)
        let client = PixabayClient(fetcher: fetcher, apiKey: key)
        let error = await pixabayError { _ = try await client.search(SearchQuery()) }
        #expect(error == .api(status: 400, message: "bad key [redacted] or [redacted]"))
        let request = try #require(await fetcher.log.requests.first)
        #expect(request.url.hasSuffix("&key=k3y%2Fwith%2Bchars"))
    }

    @Test func status400PageOutOfRange() async {
        let client = PixabayClient(
            fetcher: FakeFetcher(status: 400, body: #"[ERROR 400] "page" is out of valid range."#), apiKey: Self.key)
        let error = await pixabayError { _ = try await client.search(SearchQuery(page: 20)) }
        #expect(error == .api(status: 400, message: #"[ERROR 400] "page" is out of valid range."#))
        #expect(error?.description == #"Pixabay refused the request (HTTP 400): [ERROR 400] "page" is out of valid range."#)
    }

    @Test func status429CarriesResetSeconds() async {
        let fetcher = FakeFetcher(
            status: 429, body: "API rate limit exceeded",
            headers: ["x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "37"])
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).search(SearchQuery())
        }
        #expect(error == .rateLimited(resetSeconds: 37))
        #expect(error?.description == "Pixabay rate limit reached (100 requests per minute): try again in 37 s")
    }

    @Test func status429WithoutHeader() async {
        let fetcher = FakeFetcher(status: 429, body: "API rate limit exceeded")
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).search(SearchQuery())
        }
        #expect(error == .rateLimited(resetSeconds: nil))
    }

    @Test(arguments: [500, 502, 503])
    func serverErrors(status: Int) async {
        let fetcher = FakeFetcher(status: status, body: "upstream\tfailed\r\nfor key=\(Self.key)")
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).search(SearchQuery())
        }
        #expect(error == .server(status: status, message: "upstream failed for key=[redacted]"))
    }

    @Test func transportErrorsAreScrubbed() async {
        let fetcher = FakeFetcher { request in throw HTTPError.timedOut(request.url) }
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).search(SearchQuery(q: "x"))
        }
        guard case .network(let detail) = error else {
            Issue.record("expected network error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("key=[redacted]"))
        #expect(!detail.contains(Self.key))
    }

    @Test func cancellationIsReported() async {
        let fetcher = FakeFetcher { _ in throw CancellationError() }
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).hit(id: 1)
        }
        #expect(error == .cancelled)
    }

    @Test func hitLookupByID() async throws {
        let fetcher = FakeFetcher(status: 200, bytes: try pixabayFixture("example-response.json"))
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key, baseURL: "http://127.0.0.1:8080/api/")
        let hit = try await client.hit(id: 195893)
        #expect(hit.user == "Josch13")
        let request = try #require(await fetcher.log.requests.first)
        #expect(request.url == "http://127.0.0.1:8080/api/?id=195893&key=\(Self.key)")
        #expect(request.redactedQueryItems == ["key"])
    }

    @Test func hitLookupWithNoHitsIsNotFound() async throws {
        let fetcher = FakeFetcher(status: 200, bytes: try pixabayFixture("empty-hits.json"))
        let error = await pixabayError {
            _ = try await PixabayClient(fetcher: fetcher, apiKey: Self.key).hit(id: 99)
        }
        #expect(error == .notFound(id: 99))
        #expect(error?.description == "no Pixabay image with id 99")
    }

    @Test func emptyKeySendsNoKeyParam() async throws {
        let fetcher = FakeFetcher(status: 200, bytes: try pixabayFixture("empty-hits.json"))
        _ = try await PixabayClient(fetcher: fetcher, apiKey: "", baseURL: "http://127.0.0.1:9/api/").search(SearchQuery())
        #expect(await fetcher.log.requests.map(\.url) == ["http://127.0.0.1:9/api/?page=1&per_page=20"])
    }

    @Test func imageBytesFallBackToWebformatWhenLargeIsEmpty() async throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
        let fetcher = FakeFetcher { request in
            HTTPResponse(status: 200, body: request.url.hasSuffix("_640.jpg") ? jpeg : [], finalURL: request.url)
        }
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key)
        let hit = PixabayHit(id: 5, previewURL: "https://cdn/x_150.jpg", webformatURL: "https://cdn/x_640.jpg")
        #expect(hit.url(for: .large) == "https://cdn/x_640.jpg")
        #expect(try await client.imageBytes(for: hit, size: .large) == jpeg)
        let preview = await pixabayError { _ = try await client.imageBytes(for: hit, size: .preview) }
        #expect(preview == .imageUnavailable(id: 5, detail: "empty body for the preview image"))
    }

    /// An image past the fetch limit was reached, not unreachable: the
    /// message says which image and what limit (issue 27: an endless body
    /// read "could not reach Pixabay: response … larger than 32 MB").
    @Test func anImageOverTheLimitSaysSo() async {
        let fetcher = FakeFetcher { request in
            throw HTTPError.bodyTooLarge(request.url, limit: request.maxBodyBytes)
        }
        let client = PixabayClient(fetcher: fetcher, apiKey: Self.key)
        let error = await pixabayError {
            _ = try await client.imageBytes(for: PixabayHit(id: 8, webformatURL: "https://cdn/y_640.jpg"), size: .web)
        }
        #expect(
            error?.description
                == "image 8 unavailable: the web image is larger than 32 MB, the most pxview fetches for one image")
        // A search's answer past its limit is still a transport failure.
        let search = await pixabayError { _ = try await client.search(SearchQuery()) }
        guard case .network = search else {
            Issue.record("\(String(describing: search))")
            return
        }
    }

    @Test func imageBytesHTTPErrors() async {
        let client = PixabayClient(fetcher: FakeFetcher(status: 404, body: "gone"), apiKey: Self.key)
        let error = await pixabayError {
            _ = try await client.imageBytes(for: PixabayHit(id: 8, webformatURL: "https://cdn/y_640.jpg"), size: .web)
        }
        #expect(error == .imageUnavailable(id: 8, detail: "HTTP 404 for the web image"))
        let noURL = await pixabayError { _ = try await client.imageBytes(for: PixabayHit(id: 9), size: .web) }
        #expect(noURL == .imageUnavailable(id: 9, detail: "the hit has no image URL"))
    }

    @Test func resetHeaderParsing() {
        #expect(PixabayClient.resetSeconds(" 37 ") == 37)
        #expect(PixabayClient.resetSeconds("2.2") == 3)
        #expect(PixabayClient.resetSeconds(nil) == nil)
        #expect(PixabayClient.resetSeconds("lots") == nil)
        #expect(PixabayClient.resetSeconds("-1") == nil)
    }

    @Test func totalPagesMath() {
        let response = PixabayResponse(total: 0, totalHits: 41, hits: [])
        #expect(SearchPage(response: response, page: 1, perPage: 20).totalPages == 3)
        #expect(SearchPage(response: response, page: 3, perPage: 20).hasNextPage == false)
        #expect(SearchPage(response: PixabayResponse(total: 0, totalHits: 40, hits: []), page: 1, perPage: 20).totalPages == 2)
        #expect(SearchPage(response: PixabayResponse(total: 0, totalHits: 0, hits: []), page: 1, perPage: 20).totalPages == 0)
    }
}
