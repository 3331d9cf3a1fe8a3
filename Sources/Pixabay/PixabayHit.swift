import Foundation

/// One image from a Pixabay search, in Pixabay's own field names.
///
/// Decoding is tolerant because Pixabay adds keys over time and omits some
/// (`userImageURL` is often "", full-access URLs are usually absent): only
/// `id` is required, unknown keys are ignored, numbers may arrive as whole
/// doubles or numeric strings, and missing strings/counts become ""/0 so the
/// UI never has to unwrap them. A key that is present with a type that makes
/// no sense (an object for `likes`) is still an error: that response is broken.
package struct PixabayHit: Codable, Sendable, Equatable, Identifiable {
    package var id: Int
    package var pageURL: String
    /// "photo", "illustration", "vector/svg", "vector/ai"…
    package var type: String
    /// Comma-separated, as Pixabay sends it; see `tagList`.
    package var tags: String
    package var previewURL: String
    package var previewWidth: Int
    package var previewHeight: Int
    package var webformatURL: String
    package var webformatWidth: Int
    package var webformatHeight: Int
    /// May be "" (some hits, some offline entries): use `imageURL(size:)` for the fallback.
    package var largeImageURL: String
    package var imageWidth: Int
    package var imageHeight: Int
    package var imageSize: Int
    package var views: Int
    package var downloads: Int
    package var collections: Int
    package var likes: Int
    package var comments: Int
    package var userID: Int
    package var user: String
    package var userImageURL: String
    package var userURL: String?
    package var noAiTraining: Bool?
    package var isAiGenerated: Bool?
    package var isGRated: Bool?
    package var isLowQuality: Bool?
    /// Full API access only.
    package var fullHDURL: String?
    package var imageURL: String?
    package var vectorURL: String?

    package init(
        id: Int, pageURL: String = "", type: String = "photo", tags: String = "",
        previewURL: String = "", previewWidth: Int = 0, previewHeight: Int = 0,
        webformatURL: String = "", webformatWidth: Int = 0, webformatHeight: Int = 0,
        largeImageURL: String = "", imageWidth: Int = 0, imageHeight: Int = 0, imageSize: Int = 0,
        views: Int = 0, downloads: Int = 0, collections: Int = 0, likes: Int = 0, comments: Int = 0,
        userID: Int = 0, user: String = "", userImageURL: String = "", userURL: String? = nil,
        noAiTraining: Bool? = nil, isAiGenerated: Bool? = nil, isGRated: Bool? = nil,
        isLowQuality: Bool? = nil, fullHDURL: String? = nil, imageURL: String? = nil,
        vectorURL: String? = nil
    ) {
        self.id = id
        self.pageURL = pageURL
        self.type = type
        self.tags = tags
        self.previewURL = previewURL
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.webformatURL = webformatURL
        self.webformatWidth = webformatWidth
        self.webformatHeight = webformatHeight
        self.largeImageURL = largeImageURL
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.imageSize = imageSize
        self.views = views
        self.downloads = downloads
        self.collections = collections
        self.likes = likes
        self.comments = comments
        self.userID = userID
        self.user = user
        self.userImageURL = userImageURL
        self.userURL = userURL
        self.noAiTraining = noAiTraining
        self.isAiGenerated = isAiGenerated
        self.isGRated = isGRated
        self.isLowQuality = isLowQuality
        self.fullHDURL = fullHDURL
        self.imageURL = imageURL
        self.vectorURL = vectorURL
    }

    /// The tags one by one, trimmed, without empties: "a, b,,c " -> ["a", "b", "c"].
    package var tagList: [String] {
        tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// The URL for `size`, falling back to the next smaller size when a URL is
    /// empty (large -> web -> preview), since some hits lack `largeImageURL`.
    package func url(for size: ImageSize) -> String {
        let candidates: [String]
        switch size {
        case .large: candidates = [largeImageURL, webformatURL, previewURL]
        case .web: candidates = [webformatURL, previewURL]
        case .preview: candidates = [previewURL, webformatURL]
        }
        return candidates.first { !$0.isEmpty } ?? ""
    }

    enum CodingKeys: String, CodingKey {
        case id, pageURL, type, tags, previewURL, previewWidth, previewHeight
        case webformatURL, webformatWidth, webformatHeight, largeImageURL
        case imageWidth, imageHeight, imageSize, views, downloads, collections, likes, comments
        case userID = "user_id"
        case user, userImageURL, userURL, noAiTraining, isAiGenerated, isGRated, isLowQuality
        case fullHDURL, imageURL, vectorURL
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try c.lenientInt(.id) else {
            throw DecodingError.keyNotFound(
                CodingKeys.id, .init(codingPath: c.codingPath, debugDescription: "every hit needs an id"))
        }
        self.init(
            id: id,
            pageURL: try c.lenientString(.pageURL) ?? "",
            type: try c.lenientString(.type) ?? "photo",
            tags: try c.lenientString(.tags) ?? "",
            previewURL: try c.lenientString(.previewURL) ?? "",
            previewWidth: try c.lenientInt(.previewWidth) ?? 0,
            previewHeight: try c.lenientInt(.previewHeight) ?? 0,
            webformatURL: try c.lenientString(.webformatURL) ?? "",
            webformatWidth: try c.lenientInt(.webformatWidth) ?? 0,
            webformatHeight: try c.lenientInt(.webformatHeight) ?? 0,
            largeImageURL: try c.lenientString(.largeImageURL) ?? "",
            imageWidth: try c.lenientInt(.imageWidth) ?? 0,
            imageHeight: try c.lenientInt(.imageHeight) ?? 0,
            imageSize: try c.lenientInt(.imageSize) ?? 0,
            views: try c.lenientInt(.views) ?? 0,
            downloads: try c.lenientInt(.downloads) ?? 0,
            collections: try c.lenientInt(.collections) ?? 0,
            likes: try c.lenientInt(.likes) ?? 0,
            comments: try c.lenientInt(.comments) ?? 0,
            userID: try c.lenientInt(.userID) ?? 0,
            user: try c.lenientString(.user) ?? "",
            userImageURL: try c.lenientString(.userImageURL) ?? "",
            userURL: try c.lenientString(.userURL),
            noAiTraining: try c.lenientBool(.noAiTraining),
            isAiGenerated: try c.lenientBool(.isAiGenerated),
            isGRated: try c.lenientBool(.isGRated),
            isLowQuality: try c.lenientBool(.isLowQuality),
            fullHDURL: try c.lenientString(.fullHDURL),
            imageURL: try c.lenientString(.imageURL),
            vectorURL: try c.lenientString(.vectorURL))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(pageURL, forKey: .pageURL)
        try c.encode(type, forKey: .type)
        try c.encode(tags, forKey: .tags)
        try c.encode(previewURL, forKey: .previewURL)
        try c.encode(previewWidth, forKey: .previewWidth)
        try c.encode(previewHeight, forKey: .previewHeight)
        try c.encode(webformatURL, forKey: .webformatURL)
        try c.encode(webformatWidth, forKey: .webformatWidth)
        try c.encode(webformatHeight, forKey: .webformatHeight)
        try c.encode(largeImageURL, forKey: .largeImageURL)
        try c.encode(imageWidth, forKey: .imageWidth)
        try c.encode(imageHeight, forKey: .imageHeight)
        try c.encode(imageSize, forKey: .imageSize)
        try c.encode(views, forKey: .views)
        try c.encode(downloads, forKey: .downloads)
        try c.encode(collections, forKey: .collections)
        try c.encode(likes, forKey: .likes)
        try c.encode(comments, forKey: .comments)
        try c.encode(userID, forKey: .userID)
        try c.encode(user, forKey: .user)
        try c.encode(userImageURL, forKey: .userImageURL)
        try c.encodeIfPresent(userURL, forKey: .userURL)
        try c.encodeIfPresent(noAiTraining, forKey: .noAiTraining)
        try c.encodeIfPresent(isAiGenerated, forKey: .isAiGenerated)
        try c.encodeIfPresent(isGRated, forKey: .isGRated)
        try c.encodeIfPresent(isLowQuality, forKey: .isLowQuality)
        try c.encodeIfPresent(fullHDURL, forKey: .fullHDURL)
        try c.encodeIfPresent(imageURL, forKey: .imageURL)
        try c.encodeIfPresent(vectorURL, forKey: .vectorURL)
    }
}

/// A whole search answer. `totalHits` (at most 500) is what can be paged through.
package struct PixabayResponse: Codable, Sendable, Equatable {
    package var total: Int
    package var totalHits: Int
    package var hits: [PixabayHit]

    package init(total: Int, totalHits: Int, hits: [PixabayHit]) {
        self.total = total
        self.totalHits = totalHits
        self.hits = hits
    }

    enum CodingKeys: String, CodingKey { case total, totalHits, hits }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let hits = try c.decode([PixabayHit].self, forKey: .hits)
        let totalHits = try c.lenientInt(.totalHits) ?? hits.count
        self.init(total: try c.lenientInt(.total) ?? totalHits, totalHits: totalHits, hits: hits)
    }

    /// Decodes a response body, turning every way it can be broken into
    /// `PixabayError.malformedResponse` with the JSON path of the problem.
    package static func decode(from body: [UInt8]) throws(PixabayError) -> PixabayResponse {
        try decodeJSON(PixabayResponse.self, from: body)
    }
}

/// Shared by API responses and catalog.json: UTF-8 check first (the decoder's
/// own message for bad bytes is vague), then the decoder, whose errors become
/// one-line "path: problem" texts.
func decodeJSON<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(PixabayError) -> T {
    if body.isEmpty { throw .malformedResponse("empty body") }
    guard String(validating: body, as: UTF8.self) != nil else {
        throw .malformedResponse("body is not valid UTF-8")
    }
    do {
        return try JSONDecoder().decode(T.self, from: Data(body))
    } catch let error as DecodingError {
        throw .malformedResponse(describe(error))
    } catch {
        throw .malformedResponse(Redaction.sanitize(String(describing: error), secret: nil))
    }
}

/// "hits[2].likes: expected a whole number" style text for a decoding failure.
func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "top level" : text
    }
    let detail: String
    switch error {
    case .typeMismatch(let type, let context):
        detail = "\(path(context.codingPath)): expected \(type) (\(context.debugDescription))"
    case .valueNotFound(let type, let context):
        detail = "\(path(context.codingPath)): expected \(type), found null"
    case .keyNotFound(let key, let context):
        detail = "\(path(context.codingPath + [key])): missing required key"
    case .dataCorrupted(let context):
        let underlying = context.underlyingError.map { " (\(String(describing: $0)))" } ?? ""
        detail = "\(path(context.codingPath)): \(context.debugDescription)\(underlying)"
    @unknown default:
        detail = String(describing: error)
    }
    return Redaction.sanitize(detail, secret: nil)
}

extension KeyedDecodingContainer {
    /// An integer sent as a JSON integer, a whole double (`4000.0`) or a numeric
    /// string (`"4000"`); nil when missing or null. Out-of-range numbers throw.
    func lenientInt(_ key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(Int.self, forKey: key) { return value }
        if let value = try? decode(Double.self, forKey: key), value.isFinite, value.rounded() == value,
            abs(value) < 9.0e15
        {
            return Int(value)
        }
        if let text = try? decode(String.self, forKey: key),
            let value = Int(text.trimmingCharacters(in: .whitespaces))
        {
            return value
        }
        throw DecodingError.typeMismatch(
            Int.self, .init(codingPath: codingPath + [key], debugDescription: "not a whole number in range"))
    }

    /// A string, or nil when missing or null. Numbers are not strings.
    func lenientString(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decode(String.self, forKey: key)
    }

    /// A JSON boolean, or 0/1; nil when missing or null.
    func lenientBool(_ key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(Bool.self, forKey: key) { return value }
        switch try lenientInt(key) {
        case 0: return false
        case 1: return true
        default:
            throw DecodingError.typeMismatch(
                Bool.self, .init(codingPath: codingPath + [key], debugDescription: "not a boolean"))
        }
    }
}

extension PixabayHit {
    /// The photo's page, for a link (OSC 8): nil unless it is an https URL
    /// of printable ASCII (the JSON is untrusted, and a link's URL goes
    /// into an escape sequence).
    package var pageLink: String? { Self.linkable(pageURL) }

    /// The photographer's Pixabay profile, for a link: the API's `userURL`,
    /// else made as Pixabay makes it (`/users/NAME-ID/`); nil for the
    /// catalog's photographers, who have no Pixabay id.
    package var profileLink: String? {
        guard userID > 0 else { return nil }
        // ASCII only: `.alphanumerics` keeps é as é, and the link is then refused.
        let ascii = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let name = user.addingPercentEncoding(withAllowedCharacters: ascii) ?? ""
        return Self.linkable(userURL ?? "https://pixabay.com/users/\(name)-\(userID)/")
    }

    static func linkable(_ url: String) -> String? {
        url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } && url.hasPrefix("https://") ? url : nil
    }
}
