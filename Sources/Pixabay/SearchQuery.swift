import Foundation

/// A closed set of values a CLI flag accepts, parsed case-insensitively with
/// an error that lists what is allowed (so a typo teaches the user the choices).
package protocol FlagValue: RawRepresentable<String>, CaseIterable, Codable, Sendable {}

extension FlagValue {
    /// `text` as a value, or `.invalidQuery("--image-type must be one of: all, photo, … (got \"x\")")`.
    package static func parse(_ text: String, flag: String) throws(PixabayError) -> Self {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let value = allCases.first(where: { $0.rawValue == wanted }) { return value }
        let allowed = allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalidQuery("\(flag) must be one of: \(allowed) (got \"\(text)\")")
    }
}

package enum ImageType: String, FlagValue {
    case all, photo, illustration, vector
}

package enum Orientation: String, FlagValue {
    case all, horizontal, vertical
}

/// Pixabay's 20 categories.
package enum ImageCategory: String, FlagValue {
    case backgrounds, fashion, nature, science, education, feelings, health, people, religion, places
    case animals, industry, computer, food, sports, transportation, travel, buildings, business, music
}

/// Pixabay's 14 colour properties.
package enum ColorFilter: String, FlagValue {
    case grayscale, transparent, red, orange, yellow, green, turquoise, blue, lilac, pink, white, gray
    case black, brown

    /// A comma list such as "red,blue, green"; empty items are skipped, duplicates kept once.
    package static func parseList(_ text: String, flag: String) throws(PixabayError) -> [ColorFilter] {
        var colors: [ColorFilter] = []
        for item in text.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            let color = try parse(String(item), flag: flag)
            if !colors.contains(color) { colors.append(color) }
        }
        return colors
    }
}

package enum ResultOrder: String, FlagValue {
    case popular, latest
}

/// Languages Pixabay understands for `q`.
package enum SearchLanguage: String, FlagValue {
    case cs, da, de, en, es, fr, id, it, hu, nl, no, pl, pt, ro, sk, fi, sv, tr, vi, th, bg, ru, el, ja, ko, zh
}

/// Which of a hit's three renditions to use.
package enum ImageSize: String, FlagValue {
    /// At most 150 px: grid thumbnails.
    case preview
    /// At most 640 px: the normal full-screen view in a terminal.
    case web
    /// At most 1280 px: zoom.
    case large
}

/// One image search, with Pixabay's defaults. Values are checked by `validate()`
/// before any request so the user sees pxview's message, not an HTTP 400.
package struct SearchQuery: Sendable, Equatable {
    package static let maxQueryCharacters = 100
    package static let perPageRange = 3...200
    /// Pixabay refuses pages past its 500th hit.
    package static let maxReachableHits = 500

    /// Free text; empty means "everything".
    package var q: String
    package var lang: SearchLanguage
    package var imageType: ImageType
    package var orientation: Orientation
    package var category: ImageCategory?
    package var colors: [ColorFilter]
    package var minWidth: Int
    package var minHeight: Int
    package var editorsChoice: Bool
    package var safeSearch: Bool
    package var order: ResultOrder
    /// From 1.
    package var page: Int
    /// 3...200.
    package var perPage: Int

    package init(
        q: String = "", lang: SearchLanguage = .en, imageType: ImageType = .all,
        orientation: Orientation = .all, category: ImageCategory? = nil, colors: [ColorFilter] = [],
        minWidth: Int = 0, minHeight: Int = 0, editorsChoice: Bool = false, safeSearch: Bool = false,
        order: ResultOrder = .popular, page: Int = 1, perPage: Int = 20
    ) {
        self.q = q
        self.lang = lang
        self.imageType = imageType
        self.orientation = orientation
        self.category = category
        self.colors = colors
        self.minWidth = minWidth
        self.minHeight = minHeight
        self.editorsChoice = editorsChoice
        self.safeSearch = safeSearch
        self.order = order
        self.page = page
        self.perPage = perPage
    }

    /// The search words, whitespace collapsed: what is counted and sent.
    package var words: [String] {
        q.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Throws the first problem, phrased for the CLI flag that sets it.
    package func validate() throws(PixabayError) {
        let text = words.joined(separator: " ")
        if text.count > Self.maxQueryCharacters {
            throw .invalidQuery(
                "the query must be at most \(Self.maxQueryCharacters) characters (got \(text.count))")
        }
        if !Self.perPageRange.contains(perPage) {
            throw .invalidQuery(
                "--per-page must be between \(Self.perPageRange.lowerBound) and \(Self.perPageRange.upperBound) (got \(perPage))"
            )
        }
        if page < 1 {
            throw .invalidQuery("--page must be 1 or more (got \(page))")
        }
        let lastReachablePage = (Self.maxReachableHits + perPage - 1) / perPage
        if page > lastReachablePage {
            throw .invalidQuery(
                "--page \(page) is past Pixabay's \(Self.maxReachableHits)-result limit (last page at \(perPage) per page is \(lastReachablePage))"
            )
        }
        if minWidth < 0 { throw .invalidQuery("--min-width must be 0 or more (got \(minWidth))") }
        if minHeight < 0 { throw .invalidQuery("--min-height must be 0 or more (got \(minHeight))") }
    }

    /// Pixabay parameters, values already form-encoded (`q` words joined by
    /// '+'), so `name=value` pairs can be joined with '&' as they are.
    /// Defaults are left out (shorter URLs, same answer); `page` and
    /// `per_page` are always sent; `key` comes last and only when given.
    package func queryItems(apiKey: String?) -> [(String, String)] {
        var items: [(String, String)] = []
        let text = words.joined(separator: " ")
        if !text.isEmpty { items.append(("q", FormEncoding.encode(text))) }
        if lang != .en { items.append(("lang", lang.rawValue)) }
        if imageType != .all { items.append(("image_type", imageType.rawValue)) }
        if orientation != .all { items.append(("orientation", orientation.rawValue)) }
        if let category { items.append(("category", category.rawValue)) }
        if !colors.isEmpty { items.append(("colors", colors.map(\.rawValue).joined(separator: ","))) }
        if minWidth > 0 { items.append(("min_width", String(minWidth))) }
        if minHeight > 0 { items.append(("min_height", String(minHeight))) }
        if editorsChoice { items.append(("editors_choice", "true")) }
        if safeSearch { items.append(("safesearch", "true")) }
        if order != .popular { items.append(("order", order.rawValue)) }
        items.append(("page", String(page)))
        items.append(("per_page", String(perPage)))
        return items + Self.keyItem(apiKey)
    }

    /// Parameters for fetching one image by id.
    package static func lookupItems(id: Int, apiKey: String?) -> [(String, String)] {
        [("id", String(id))] + keyItem(apiKey)
    }

    private static func keyItem(_ apiKey: String?) -> [(String, String)] {
        guard let apiKey, !apiKey.isEmpty else { return [] }
        return [("key", FormEncoding.encode(apiKey))]
    }

    /// `base` with `items` appended after '?' (or '&' when `base` already has a query).
    package static func url(base: String, items: [(String, String)]) -> String {
        guard !items.isEmpty else { return base }
        let query = items.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query
    }
}

/// application/x-www-form-urlencoded values: unreserved ASCII kept, space
/// becomes '+', every other UTF-8 byte (including a literal '+') becomes %XX.
enum FormEncoding {
    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
