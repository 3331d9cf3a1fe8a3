import Decoding
import Foundation
import HTTP

/// The online `PixabaySource`: Pixabay's REST API through any `HTTPFetching`.
///
/// The key only ever travels in the `key` query parameter, which every
/// request marks as redacted so the HTTP layer keeps it out of logs and cache
/// keys; texts that come back (error bodies, transport errors) are scrubbed
/// here as a second line of defence.
package struct PixabayClient: PixabaySource {
    package static let defaultBaseURL = "https://pixabay.com/api/"
    /// Search answers are small; anything bigger than this is not Pixabay.
    package static let maxResponseBytes = 8 << 20
    /// Large renditions are at most 1280 px; a generous cap against a runaway body.
    package static let maxImageBytes = 32 << 20

    package let fetcher: any HTTPFetching
    package let apiKey: String
    package let baseURL: String
    /// What a downloaded image must pass (whole, not cut short) before it
    /// is used, saved or cached; the command layer gives the decoder's.
    package let imageCheck: ResponseCheck

    /// `apiKey` may be empty when `baseURL` points at a stand-in server; then no `key` is sent.
    package init(
        fetcher: any HTTPFetching, apiKey: String, baseURL: String = PixabayClient.defaultBaseURL,
        imageCheck: ResponseCheck = .any
    ) {
        self.fetcher = fetcher
        self.apiKey = apiKey
        self.baseURL = baseURL
        self.imageCheck = imageCheck
    }

    /// An API answer is believed (and cached) only when it parses.
    package static let responseCheck = ResponseCheck(name: "Pixabay JSON") { body in
        (try? PixabayResponse.decode(from: body)) != nil
    }

    package var isOffline: Bool { false }

    /// The GET for a search (not validated: `search` does that).
    package func request(for query: SearchQuery) -> HTTPRequest {
        apiRequest(SearchQuery.url(base: baseURL, items: query.queryItems(apiKey: apiKey)))
    }

    /// The GET for one image by id.
    package func lookupRequest(id: Int) -> HTTPRequest {
        apiRequest(SearchQuery.url(base: baseURL, items: SearchQuery.lookupItems(id: id, apiKey: apiKey)))
    }

    private func apiRequest(_ url: String) -> HTTPRequest {
        HTTPRequest(
            url: url, headers: ["Accept": "application/json"], maxBodyBytes: Self.maxResponseBytes,
            redactedQueryItems: ["key"], check: Self.responseCheck)
    }

    package func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage {
        try query.validate()
        let response = try await send(request(for: query))
        let decoded = try PixabayResponse.decode(from: try checked(response))
        // A cached copy served because the network failed says so here, so
        // every caller (the CLI footer, the explorer's status line) can show it.
        let note =
            response.isStaleCacheCopy
            ? StaleCopyLog.note(age: response.headers["age"].flatMap(TimeInterval.init) ?? 0) : nil
        return SearchPage(response: decoded, page: query.page, perPage: query.perPage, note: note)
    }

    package func hit(id: Int) async throws(PixabayError) -> PixabayHit {
        let response = try await send(lookupRequest(id: id))
        let decoded = try PixabayResponse.decode(from: try checked(response))
        guard let hit = decoded.hits.first(where: { $0.id == id }) else { throw .notFound(id: id) }
        return hit
    }

    package func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8] {
        let url = hit.url(for: size)
        guard !url.isEmpty else { throw .imageUnavailable(id: hit.id, detail: "the hit has no image URL") }
        // The URL came from the network: http(s) only (see `HTTPRequest.allowsFileURL`).
        guard let scheme = URLText.scheme(of: url), scheme == "http" || scheme == "https" else {
            throw .imageUnavailable(id: hit.id, detail: "the \(size.rawValue) image URL is not http(s)")
        }
        let request = HTTPRequest(url: url, maxBodyBytes: Self.maxImageBytes, redactedQueryItems: ["key"], check: imageCheck)
        let response = try await send(request, image: (id: hit.id, size: size.rawValue))
        guard response.status == 200 else {
            throw .imageUnavailable(id: hit.id, detail: "HTTP \(response.status) for the \(size.rawValue) image")
        }
        guard !response.body.isEmpty else {
            throw .imageUnavailable(id: hit.id, detail: "empty body for the \(size.rawValue) image")
        }
        // Not an image at all is the command's to describe; an image cut short is refused here.
        guard imageCheck.accepts(response.body) || ImageFormat(sniffing: response.body) == nil else {
            throw .imageUnavailable(
                id: hit.id, detail: "the \(size.rawValue) image is incomplete (\(response.body.count) bytes arrived)")
        }
        return response.body
    }

    /// One fetch with transport errors turned into scrubbed `PixabayError`s.
    private func send(_ request: HTTPRequest, image: (id: Int, size: String)? = nil) async throws(PixabayError)
        -> HTTPResponse
    {
        do {
            return try await fetcher.fetch(request)
        } catch is CancellationError {
            throw .cancelled
        } catch HTTPError.bodyTooLarge(_, let limit) where image != nil {
            // Pixabay was reached: the image itself is past the limit (an endless body was "could not reach Pixabay").
            throw .imageUnavailable(
                id: image?.id ?? 0,
                detail: "the \(image?.size ?? "") image is larger than \(limit >> 20) MB, the most pxview fetches for one image")
        } catch {
            throw .network(Redaction.sanitize(String(describing: error), secret: apiKey))
        }
    }

    /// The body of a 200, or the error its status stands for.
    func checked(_ response: HTTPResponse) throws(PixabayError) -> [UInt8] {
        switch response.status {
        case 200:
            return response.body
        case 429:
            throw .rateLimited(resetSeconds: Self.resetSeconds(response.headers["x-ratelimit-reset"]))
        case 400..<500:
            throw .api(status: response.status, message: Redaction.bodyText(response.body, secret: apiKey))
        default:
            throw .server(status: response.status, message: Redaction.bodyText(response.body, secret: apiKey))
        }
    }

    /// `X-RateLimit-Reset` as a non-negative whole number of seconds;
    /// fractions round up (waiting a little longer than needed beats being
    /// refused again). Nil when missing or not a number.
    static func resetSeconds(_ value: String?) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let whole = Int(text), whole >= 0 { return whole }
        if let fraction = Double(text), fraction.isFinite, fraction >= 0, fraction < 1e9 {
            return Int(fraction.rounded(.up))
        }
        return nil
    }
}
