import Foundation
import HTTP
import Testing

@testable import Pixabay

/// Tests/Fixtures, found from this file so no SwiftPM resources are needed.
func fixturesDirectory() -> URL {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("Fixtures")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pixabay").path) {
            return candidate
        }
    }
    return URL(fileURLWithPath: "/nonexistent-fixtures")
}

func pixabayFixture(_ name: String) throws -> [UInt8] {
    let url = fixturesDirectory().appendingPathComponent("pixabay").appendingPathComponent(name)
    return [UInt8](try #require(FileManager.default.contents(atPath: url.path), "missing fixture \(name)"))
}

/// Requests seen by a `FakeFetcher`, in order.
actor RequestLog {
    private(set) var requests: [HTTPRequest] = []
    func record(_ request: HTTPRequest) { requests.append(request) }
}

/// An `HTTPFetching` that records every request and answers from a closure,
/// so client behaviour can be tested without a network.
struct FakeFetcher: HTTPFetching {
    let log = RequestLog()
    let respond: @Sendable (HTTPRequest) throws -> HTTPResponse

    init(respond: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        self.respond = respond
    }

    /// Always the same status, body and headers.
    init(status: Int, body: String, headers: [String: String] = [:]) {
        self.init(status: status, bytes: Array(body.utf8), headers: headers)
    }

    init(status: Int, bytes: [UInt8], headers: [String: String] = [:]) {
        self.respond = { request in
            HTTPResponse(status: status, headers: headers, body: bytes, finalURL: request.url)
        }
    }

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        await log.record(request)
        return try respond(request)
    }
}

/// The error thrown by `body`, as a `PixabayError` (nil when nothing was thrown;
/// any other error type is recorded as a test failure).
func pixabayError(_ body: () async throws -> Void) async -> PixabayError? {
    do {
        try await body()
        return nil
    } catch let error as PixabayError {
        return error
    } catch {
        Issue.record("expected a PixabayError, got \(error)")
        return nil
    }
}

/// Query string of a URL split into (name, value) pairs, values left encoded.
func queryPairs(of url: String) -> [(String, String)] {
    guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
    return query.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }
}

/// Pairs flattened to "name=value" strings so `#expect` can compare arrays of them.
func flat(_ items: [(String, String)]) -> [String] {
    items.map { "\($0.0)=\($0.1)" }
}
