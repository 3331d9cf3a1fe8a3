import Foundation
import TestSupport
import Testing

@testable import HTTP

/// Runs `request` expecting a thrown `HTTPError`, returned for inspection.
private func fetchError(_ client: CurlClient, _ request: HTTPRequest) async -> HTTPError? {
    do {
        let response = try await client.fetch(request)
        Issue.record("expected an error, got status \(response.status)")
        return nil
    } catch let error as HTTPError {
        return error
    } catch {
        Issue.record("expected HTTPError, got \(error)")
        return nil
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

@Suite struct CurlClientTests {
    @Test func okResponseCarriesBodyAndLowerCasedHeaders() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/hello") { _ in .text("hello world", headers: ["X-Custom-Thing": "yes"]) }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/hello?a=1")))

        #expect(response.status == 200)
        #expect(response.body == Array("hello world".utf8))
        #expect(response.headers["x-custom-thing"] == "yes")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.headers["content-length"] == "11")
        #expect(response.finalURL == server.url("/hello?a=1"))
        #expect(server.requests.map(\.target) == ["/hello?a=1"])
    }

    @Test(arguments: [404, 400, 500])
    func errorStatusIsAResponseNotAnError(status: Int) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api/") { _ in .text("[ERROR \(status)] Invalid or missing API key", status: status) }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/api/")))

        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == "[ERROR \(status)] Invalid or missing API key")
    }

    @Test func rateLimitHeadersAreExposed() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api/") { _ in
            .text("API rate limit exceeded", status: 429, headers: ["X-RateLimit-Reset": "42", "X-RateLimit-Remaining": "0"])
        }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/api/")))

        #expect(response.status == 429)
        #expect(response.headers["x-ratelimit-reset"] == "42")
        #expect(response.headers["x-ratelimit-remaining"] == "0")
    }

    @Test func redirectsAreFollowedAndOnlyFinalHeadersKept() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/old") { _ in
            var response = TestHTTPServer.Response.redirect(to: "/middle", status: 301)
            response.headers["X-Hop"] = "old"
            return response
        }
        server.route("/middle") { _ in .redirect(to: "/new") }
        server.route("/new") { _ in .text("arrived") }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/old")))

        #expect(response.status == 200)
        #expect(response.body == Array("arrived".utf8))
        #expect(response.finalURL == server.url("/new"))
        #expect(response.headers["x-hop"] == nil)
        #expect(server.requests.map(\.path) == ["/old", "/middle", "/new"])
    }

    @Test func moreThanFiveRedirectsFail() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/loop") { request in
            let hop = Int(request.query?.dropFirst("n=".count) ?? "") ?? 0
            return .redirect(to: "/loop?n=\(hop + 1)")
        }
        let url = server.url("/loop?n=0")

        let error = await fetchError(CurlClient(), HTTPRequest(url: url))

        #expect(error == .tooManyRedirects(url))
        // The original request plus the five redirects allowed.
        #expect(server.requestCount(path: "/loop") == 6)
    }

    @Test func closedPortCannotConnect() async throws {
        let port = try TestHTTPServer.closedPort()
        let url = "http://127.0.0.1:\(port)/x"

        let error = await fetchError(CurlClient(), HTTPRequest(url: url))

        #expect(error == .couldNotConnect(url))
        #expect(error?.description == "cannot connect to 127.0.0.1:\(port)")
    }

    @Test func slowServerTimesOutQuickly() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/slow") { _ in
            var response = TestHTTPServer.Response.text("late")
            response.delay = 10
            return response
        }
        let url = server.url("/slow")

        let error = await fetchError(CurlClient(), HTTPRequest(url: url, totalTimeout: 0.3))

        #expect(error == .timedOut(url, seconds: 0.3))
        #expect(error?.description == "timed out after 0.3 s fetching \(url)")
        // The server holds its answer 10 s: had the limit not fired, the fetch
        // would have succeeded instead. (No wall-clock bound here: a test
        // runner busy with other suites can delay this task's resumption.)
    }

    /// A body that stalls half way names the total limit, the one it hit,
    /// not the connect limit (a reused connection's connect time is 0).
    @Test func aStallMidBodyNamesTheTotalLimit() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/stall") { _ in
            TestHTTPServer.Response(body: [UInt8](repeating: 7, count: 2000), dripBytes: 1000, dripInterval: 2)
        }
        let url = server.url("/stall")

        let error = await fetchError(CurlClient(), HTTPRequest(url: url, connectTimeout: 0.2, totalTimeout: 0.8))

        #expect(error == .timedOut(url, seconds: 0.8))
    }

    @Test func theLimitNamedIsTheOneTheTimeReached() {
        let request = HTTPRequest(url: "http://127.0.0.1/x", connectTimeout: 10, totalTimeout: 60)
        #expect(CurlTransfer.timeoutLimit(elapsed: 10.0, request: request) == 10)
        #expect(CurlTransfer.timeoutLimit(elapsed: 60.0, request: request) == 60)
        #expect(CurlTransfer.timeoutLimit(elapsed: 59.2, request: request) == 60)
        let short = HTTPRequest(url: "http://127.0.0.1/x", connectTimeout: 10, totalTimeout: 0.3)
        #expect(CurlTransfer.timeoutLimit(elapsed: 0.3, request: short) == 0.3)
    }

    @Test func bodyShorterThanContentLengthIsTruncated() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/cut") { _ in
            TestHTTPServer.Response(body: [UInt8](repeating: 7, count: 100), declaredLength: 1000)
        }
        let url = server.url("/cut")

        let error = await fetchError(CurlClient(), HTTPRequest(url: url))

        #expect(error == .truncated(url))
    }

    /// With a Content-Length libcurl refuses up front (MAXFILESIZE); when
    /// chunked, the write callback's cap is what stops it.
    @Test(arguments: [false, true])
    func bodyOverTheCapIsRefused(chunked: Bool) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/big") { _ in
            TestHTTPServer.Response(body: [UInt8](repeating: 1, count: 20_000), chunked: chunked, dripBytes: 4096)
        }
        let url = server.url("/big")

        let error = await fetchError(CurlClient(), HTTPRequest(url: url, maxBodyBytes: 1024))

        #expect(error == .bodyTooLarge(url, limit: 1024))
        #expect(error?.description == "response from \(url) larger than 1 KB")
    }

    @Test func bodyExactlyAtTheCapIsAccepted() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/exact") { _ in TestHTTPServer.Response(body: [UInt8](repeating: 9, count: 1024), chunked: true) }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/exact"), maxBodyBytes: 1024))

        #expect(response.body.count == 1024)
    }

    @Test func gzipBodyIsDecoded() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let original = Array(String(repeating: "{\"tags\":\"cat, kitten\"}", count: 50).utf8)
        server.route("/gz") { _ in TestHTTPServer.Response(body: original, gzip: true) }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/gz")))

        #expect(response.headers["content-encoding"] == "gzip")
        #expect(response.body == original)
        #expect(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func chunkedBodyIsReassembled() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let original = (0..<3000).map { UInt8($0 % 251) }
        server.route("/chunks") { _ in TestHTTPServer.Response(body: original, chunked: true, dripBytes: 700) }

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/chunks")))

        #expect(response.body == original)
    }

    @Test func userAgentAndRequestHeadersAreSent() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/ua") { _ in .text("ok") }

        _ = try await CurlClient(userAgent: "pxview/9.9")
            .fetch(HTTPRequest(url: server.url("/ua"), headers: ["Accept": "application/json"]))

        let received = try #require(server.requests.first)
        #expect(received.method == "GET")
        #expect(received.headers["user-agent"] == "pxview/9.9")
        #expect(received.headers["accept"] == "application/json")
    }

    @Test func concurrentFetchesRunInParallel() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/thumb") { request in
            var response = TestHTTPServer.Response.text("thumb \(request.query ?? "")")
            response.delay = 3
            return response
        }
        let requests = (0..<8).map { HTTPRequest(url: server.url("/thumb?i=\($0)")) }
        let results = await fetchConcurrently(requests, through: CurlClient())

        // Each response is held 3 s: a serial client (or one blocking the
        // 2-thread cooperative pool) cannot send its later requests until
        // earlier answers arrive, so the server would see them spread over
        // 9 s or more. In parallel all 8 arrive within a fraction of the
        // delay, even on a busy machine.
        // (Measured at the server: the test's own clock also counts time the
        // test runner, busy with other suites, takes to resume this task.)
        let arrivals = server.requests.map(\.receivedAt)
        #expect(arrivals.count == 8)
        if let first = arrivals.min(), let last = arrivals.max() {
            #expect(seconds(last - first) < 2.5, "requests arrived over \(seconds(last - first)) s: not parallel")
        }
        let bodies = results.map { result in (try? result.get()).map { String(decoding: $0.body, as: UTF8.self) } }
        #expect(bodies == (0..<8).map { "thumb i=\($0)" })
    }

    @Test func fileURLIsReadAndMissingFileReported() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/photo data.bin"
        let bytes = (0..<500).map { UInt8($0 % 256) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let client = CurlClient()

        let response = try await client.fetch(
            HTTPRequest(url: "file://" + directory.path + "/photo%20data.bin", allowsFileURL: true))
        let missing = await fetchError(client, HTTPRequest(url: "file://" + directory.path + "/nope.jpg", allowsFileURL: true))

        #expect(response.status == 200)
        #expect(response.body == bytes)
        #expect(missing == .fileNotFound(directory.path + "/nope.jpg"))
        #expect(missing?.description == "no such file: \(directory.path)/nope.jpg")
    }

    @Test func disallowedProtocolIsAnInvalidURL() async throws {
        let error = await fetchError(CurlClient(), HTTPRequest(url: "ftp://127.0.0.1/file"))

        #expect(error == .invalidURL("ftp://127.0.0.1/file"))
    }

    /// Only a request that allows it may read a file: a URL from the network may not.
    @Test func fileURLsAreRefusedUnlessAllowed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/secret.bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let error = await fetchError(CurlClient(), HTTPRequest(url: "file://" + path))
        #expect(error == .invalidURL("file://" + path))
    }

    @Test func secretQueryValueNeverAppearsInErrors() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/slow") { _ in
            var response = TestHTTPServer.Response.text("late")
            response.delay = 2
            return response
        }
        server.route("/cut") { _ in TestHTTPServer.Response(body: [1, 2, 3], declaredLength: 50) }
        server.route("/big") { _ in TestHTTPServer.Response(body: [UInt8](repeating: 0, count: 5000)) }
        let closed = try TestHTTPServer.closedPort()
        let secret = "s3cr3tK3y-1234567"
        let query = "?q=red+fox&key=\(secret)&page=2"
        let requests = [
            HTTPRequest(url: server.url("/slow" + query), totalTimeout: 0.3, redactedQueryItems: ["key"]),
            HTTPRequest(url: server.url("/cut" + query), redactedQueryItems: ["key"]),
            HTTPRequest(url: server.url("/big" + query), maxBodyBytes: 100, redactedQueryItems: ["key"]),
            HTTPRequest(url: "http://127.0.0.1:\(closed)/api/" + query, redactedQueryItems: ["key"]),
        ]

        let results = await fetchConcurrently(requests, through: CurlClient())

        let errors = results.compactMap { result -> HTTPError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(errors.count == requests.count)
        for error in errors {
            #expect(!error.description.contains(secret))
            #expect(!String(reflecting: error).contains(secret))
        }
        #expect(
            errors.first?.description == "timed out after 0.3 s fetching \(server.url("/slow?q=red+fox&key=REDACTED&page=2"))")
    }

    @Test func progressReportsGrowingCountsUpToTheTotal() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/drip") { _ in
            TestHTTPServer.Response(body: [UInt8](repeating: 5, count: 8000), dripBytes: 1000, dripInterval: 0.02)
        }
        let recorder = ProgressRecorder()

        let response = try await CurlClient().fetch(HTTPRequest(url: server.url("/drip"))) { received, total in
            recorder.record(received, total)
        }

        let updates = recorder.updates
        #expect(response.body.count == 8000)
        #expect(updates.count >= 2)
        #expect(updates.map(\.received) == updates.map(\.received).sorted())
        #expect(updates.last?.received == 8000)
        #expect(updates.last?.total == 8000)
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/slow") { _ in
            var response = TestHTTPServer.Response.text("late")
            response.delay = 10
            return response
        }
        let client = CurlClient()
        let url = server.url("/slow")
        let task = Task { try await client.fetch(HTTPRequest(url: url)) }
        try await Task.sleep(for: .milliseconds(100))

        task.cancel()
        let result = await task.result

        // Had cancellation waited for the server, the fetch would have
        // succeeded ("late") after 10 s instead of throwing.
        #expect(throws: CancellationError.self) { try result.get() }
    }
}

/// Collects progress callbacks, which arrive on the transfer thread.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(received: Int64, total: Int64?)] = []

    func record(_ received: Int64, _ total: Int64?) {
        lock.lock()
        recorded.append((received, total))
        lock.unlock()
    }

    var updates: [(received: Int64, total: Int64?)] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
