import Foundation
import HTTP
import Pixabay
import TestSupport
import Testing

/// Nothing broken stands in for the real thing: against a real server on
/// 127.0.0.1, a broken answer is never cached, a cut-short image is never
/// saved, and an image URL from the network cannot be a local file.
@Suite struct IntegrityTests {
    @Test func aBrokenAnswerIsNotCachedAndTheNextSearchAsksAgain() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let good = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options).out
        _ = try sandbox.run(["cache", "clear"])
        // A 200 with truncated JSON, then (the server recovered) the real answer.
        let served = ServedCount()
        pixabay.server.route("/api/") { _ in
            served.increment() == 1
                ? TestHTTPServer.Response(
                    headers: ["Content-Type": "application/json"], body: Array(#"{"total":2,"totalHits":2,"hits":[{"id":1"#.utf8))
                : TestHTTPServer.Response(headers: ["Content-Type": "application/json"], body: pixabay.searchBody)
        }
        let broken = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options)
        #expect(broken.status == 1)
        #expect(broken.errLines.count == 1)
        let recovered = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options)
        #expect(recovered.status == 0)
        #expect(recovered.out == good)
        #expect(served.value == 2, "the broken answer must not have been served from the cache")
    }

    /// A cache written before answers were checked may hold a broken one:
    /// it is dropped and fetched again, not served for a day.
    @Test func aCachedEntryThatDoesNotParseIsFetchedAgain() async throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let broken = Array("<html>gateway timeout</html>".utf8)
        pixabay.server.route("/api/") { _ in TestHTTPServer.Response(body: broken) }
        // Stored the way an unchecked cache would have stored it.
        let client = PixabayClient(fetcher: CurlClient(), apiKey: CLIPixabay.key, baseURL: pixabay.server.url("/api/"))
        var request = client.request(for: SearchQuery(q: "cat"))
        request.check = .any
        let cache = DiskCache(directory: sandbox.cacheDirectory)
        _ = try await CachingFetcher(wrapping: CurlClient(), cache: cache).fetch(request)
        #expect(cache.info().entries == 1)
        let good = pixabay.searchBody
        pixabay.server.route("/api/") { _ in TestHTTPServer.Response(headers: ["Content-Type": "application/json"], body: good) }
        let before = pixabay.apiRequests.count
        let again = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options)
        #expect(again.status == 0)
        #expect(pixabay.apiRequests.count == before + 1)
        #expect(again.outLines.last == "page 1 of 1, 2 hits · Images from Pixabay")
    }

    @Test func aCutShortImageIsNeitherSavedNorCached() throws {
        let sandbox = try CLISandbox()
        let jpeg = try catalogFile("web/cat.jpg")
        let png = try catalogFile("large/debian-logo.png")
        let pixabay = try CLIPixabay { server in
            // The bodies end early, and Content-Length says so: only the
            // image itself can tell they are incomplete.
            server.route("/img/cut.jpg") { _ in TestHTTPServer.Response(body: Array(jpeg.prefix(jpeg.count * 2 / 3))) }
            server.route("/img/cut.png") { _ in TestHTTPServer.Response(body: Array(png.prefix(png.count - 20))) }
            return [
                CLIPixabay.hit(id: 201, tags: "cut", user: "A", likes: 1, large: server.url("/img/cut.jpg")),
                CLIPixabay.hit(id: 202, tags: "cut", user: "B", likes: 1, large: server.url("/img/cut.png")),
            ]
        }
        for id in ["201", "202"] {
            let saved = try sandbox.run(["save", id] + pixabay.options)
            #expect(saved.status == 1, "\(id)")
            #expect(saved.errLines.count == 1)
            #expect(saved.err.contains("incomplete"), "\(saved.err)")
            #expect(!sandbox.workFiles().contains { $0.contains(id) }, "nothing saved for \(id)")
        }
        // Nothing of the images was cached: saving again asks the server again.
        _ = try sandbox.run(["save", "201"] + pixabay.options)
        #expect(pixabay.server.requestCount(path: "/img/cut.jpg") == 2)
    }

    @Test func anImageURLFromTheNetworkCannotBeALocalFile() throws {
        let sandbox = try CLISandbox()
        let local = packageRoot().appendingPathComponent("Sources/Pixabay/Catalog/web/cat.jpg").path
        let pixabay = try CLIPixabay { _ in
            [CLIPixabay.hit(id: 301, tags: "local", user: "Mallory", likes: 1, large: "file://" + local)]
        }
        let saved = try sandbox.run(["save", "301"] + pixabay.options)
        #expect(saved.status == 1)
        #expect(saved.errLines == ["pxview: image 301 unavailable: the large image URL is not http(s)"])
        #expect(sandbox.workFiles().isEmpty)
        // A file:// URL the user types is theirs to read.
        let typed = try sandbox.run(["show", "--protocol", "sixel", "--size", "40x40", "file://" + local])
        #expect(typed.status == 0)
    }
}

/// A counter a server handler (another thread) bumps.
final class ServedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count after this one.
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

/// The search strip decodes previews as thumbnails: one 4-megapixel cap,
/// the same as the explorer's, whatever the user's --max-pixels.
@Suite struct StripBudgetTests {
    @Test func anOversizedPreviewIsRefusedNotDecoded() throws {
        let sandbox = try CLISandbox()
        let huge = [UInt8](
            try Data(contentsOf: packageRoot().appendingPathComponent("Tests/Fixtures/images/p05_infinitesea_4096x4096.jpg")))
        let small = try catalogFile("preview/cat.jpg")
        let pixabay = try CLIPixabay { server in
            server.route("/img/huge.jpg") { _ in TestHTTPServer.Response(body: huge) }
            server.route("/img/small.jpg") { _ in TestHTTPServer.Response(body: small) }
            return [
                CLIPixabay.hit(id: 501, tags: "huge", user: "H", likes: 1, large: server.url("/img/huge.jpg")),
                CLIPixabay.hit(id: 502, tags: "small", user: "S", likes: 1, large: server.url("/img/small.jpg")),
            ]
        }
        let result = try sandbox.run(["search", "--protocol", "sixel"] + pixabay.options)
        #expect(result.status == 0)
        #expect(result.out.contains("501 (no image)"))
        #expect(!result.out.contains("502 (no image)"))
    }
}
