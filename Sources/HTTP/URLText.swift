import Foundation

/// Plain string surgery on URLs. Done by hand rather than through
/// `URLComponents` so that everything except the touched query items comes
/// out byte-for-byte as it went in (no re-encoding surprises in messages or
/// cache keys).
package enum URLText {
    /// `scheme://authority/path`, the raw query (without `?`) and the fragment (without `#`).
    struct Parts: Equatable {
        var base: String
        var query: String?
        var fragment: String?
    }

    static func split(_ url: String) -> Parts {
        var rest = Substring(url)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        return Parts(base: String(rest), query: query, fragment: fragment)
    }

    /// Query items as raw `name=value` strings, in order, empty ones dropped.
    static func queryItems(_ query: String) -> [Substring] {
        query.split(separator: "&", omittingEmptySubsequences: true)
    }

    /// The item's name, percent-decoded so `%6Bey` still counts as `key`.
    static func itemName(_ item: Substring) -> String {
        let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? item
        let spaced = rawName.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The item's value, percent-decoded, or nil when the item has no `=`.
    static func itemValue(_ item: Substring) -> String? {
        let halves = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let spaced = halves[1].replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// `url` with the value of every query item named in `hidden` replaced by
    /// `REDACTED`, everything else untouched.
    static func redacted(_ url: String, hiding hidden: Set<String>) -> String {
        guard !hidden.isEmpty else { return url }
        let parts = split(url)
        guard let query = parts.query else { return url }
        let items = queryItems(query).map { item -> String in
            let name = itemName(item)
            return hidden.contains(name) ? "\(item.split(separator: "=", maxSplits: 1).first ?? item)=REDACTED" : String(item)
        }
        var result = parts.base + "?" + items.joined(separator: "&")
        if let fragment = parts.fragment { result += "#" + fragment }
        return result
    }

    /// Values of the hidden items, raw and decoded, so they can also be
    /// scrubbed from free text such as libcurl's error messages.
    static func secretValues(in url: String, hiding hidden: Set<String>) -> [String] {
        guard !hidden.isEmpty, let query = split(url).query else { return [] }
        var secrets: [String] = []
        for item in queryItems(query) where hidden.contains(itemName(item)) {
            let halves = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if halves.count == 2, !halves[1].isEmpty { secrets.append(String(halves[1])) }
            if let decoded = itemValue(item), !decoded.isEmpty { secrets.append(decoded) }
        }
        return secrets
    }

    /// `host[:port]` of a URL, without user info; nil for URLs without an authority.
    static func authority(of url: String) -> String? {
        let base = split(url).base
        guard let schemeEnd = base.range(of: "://") else { return nil }
        let afterScheme = base[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" }
        let withoutUser = authority.split(separator: "@").last.map(String.init) ?? ""
        return withoutUser.isEmpty ? nil : withoutUser
    }

    package static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        return scheme.lowercased()
    }

    /// The local path of a `file://` URL, percent-decoded.
    static func filePath(of url: String) -> String {
        var base = split(url).base
        if let range = base.range(of: "://") { base = String(base[range.upperBound...]) }
        // `file://localhost/tmp/x` and `file:///tmp/x` both mean /tmp/x.
        if !base.hasPrefix("/"), let slash = base.firstIndex(of: "/") { base = String(base[slash...]) }
        return base.removingPercentEncoding ?? base
    }
}

extension HTTPRequest {
    /// The URL as it may be shown or logged: redacted query values read `REDACTED`.
    package var redactedURL: String {
        URLText.redacted(url, hiding: redactedQueryItems)
    }

    /// `text` with any redacted query value replaced, for messages that
    /// come from elsewhere (libcurl's error buffer) and might quote the URL.
    func scrubbingSecrets(from text: String) -> String {
        URLText.secretValues(in: url, hiding: redactedQueryItems)
            .sorted { $0.count > $1.count }
            .reduce(text) { $0.replacingOccurrences(of: $1, with: "REDACTED") }
    }
}

/// The cache key of a request: the URL with scheme and host lower-cased,
/// fragment dropped, query items sorted, and every redacted item removed
/// entirely, so the same search made with a different API key hits the same
/// entry and no secret is ever hashed into a file name.
package func cacheKey(for request: HTTPRequest) -> String {
    let parts = URLText.split(request.url)
    var base = parts.base
    if let range = base.range(of: "://") {
        let scheme = base[..<range.lowerBound].lowercased()
        let rest = base[range.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        base = scheme + "://" + authority.lowercased() + rest.dropFirst(authority.count)
    }
    let kept = (parts.query.map(URLText.queryItems) ?? [])
        .filter { !request.redactedQueryItems.contains(URLText.itemName($0)) }
        .map(String.init)
        .sorted()
    return "GET " + base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
}

extension HTTPError: CustomStringConvertible {
    /// One line, safe to print: URLs are already redacted.
    package var description: String {
        switch self {
        case .invalidURL(let url):
            return "invalid or unsupported URL: \(url)"
        case .couldNotResolveHost(let url):
            return "cannot resolve host \(URLText.authority(of: url) ?? url)"
        case .couldNotConnect(let url):
            return "cannot connect to \(URLText.authority(of: url) ?? url)"
        case .timedOut(let url, let seconds):
            guard let seconds else { return "timed out fetching \(url)" }
            return "timed out after \(Self.formatSeconds(seconds)) s fetching \(url)"
        case .bodyTooLarge(let url, let limit):
            return "response from \(url) larger than \(Self.formatSize(limit))"
        case .truncated(let url):
            return "response from \(url) was cut short: the connection closed before the whole body arrived"
        case .tls(let url, let detail):
            return "secure connection to \(URLText.authority(of: url) ?? url) failed: \(detail)"
        case .tooManyRedirects(let url):
            return "too many redirects fetching \(url)"
        case .fileNotFound(let path):
            return "no such file: \(path)"
        case .other(let url, let detail):
            return "fetching \(url) failed: \(detail)"
        }
    }

    /// "10", "0.3": whole seconds without a fraction.
    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%g", seconds)
    }

    /// Limits are usually round binary sizes: "64 MB", "512 KB", "100 bytes".
    static func formatSize(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
