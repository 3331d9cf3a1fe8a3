import Foundation

/// Everything that can go wrong between a search box and a photo on screen.
///
/// Messages are one line, name the bad value, and never contain the API key:
/// every text that came from a server or a transport error is scrubbed with
/// `Redaction` before it is stored here.
package enum PixabayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A query or flag value Pixabay would refuse; the message names the flag and the value.
    case invalidQuery(String)
    /// The body was not the JSON Pixabay documents (wrong types, not UTF-8, nesting bombs…).
    case malformedResponse(String)
    /// Pixabay refused the request (4xx other than 429); `message` is its sanitized plain-text body.
    case api(status: Int, message: String)
    /// HTTP 429: over 100 requests a minute. `resetSeconds` comes from `X-RateLimit-Reset`.
    case rateLimited(resetSeconds: Int?)
    /// HTTP 5xx (or another status pxview cannot act on).
    case server(status: Int, message: String)
    /// An id lookup that returned no hit.
    case notFound(id: Int)
    /// The offline catalog has fewer pages than asked for (Pixabay answers 400 here).
    case pageOutOfRange(page: Int, lastPage: Int)
    /// The request never produced a response (DNS, TLS, timeout…); text already scrubbed.
    case network(String)
    /// The task was cancelled while waiting for the network.
    case cancelled
    /// The offline catalog folder is missing or its catalog.json is unusable.
    case catalog(String)
    /// A photo's bytes could not be fetched or read.
    case imageUnavailable(id: Int, detail: String)
    /// favourites.json could not be parsed; it was renamed to `movedTo` so nothing is lost.
    case corruptFavourites(path: String, movedTo: String)
    /// favourites.json could not be read or written (permissions, disk full…).
    case favourites(String)

    package var description: String {
        switch self {
        case .invalidQuery(let message):
            return message
        case .malformedResponse(let detail):
            return "Pixabay sent a response pxview cannot read: \(detail)"
        case .api(let status, let message):
            return "Pixabay refused the request (HTTP \(status)): \(message)"
        case .rateLimited(let resetSeconds):
            let wait = resetSeconds.map { "try again in \($0) s" } ?? "try again in a minute"
            return "Pixabay rate limit reached (100 requests per minute): \(wait)"
        case .server(let status, let message):
            return message.isEmpty
                ? "Pixabay server error (HTTP \(status))"
                : "Pixabay server error (HTTP \(status)): \(message)"
        case .notFound(let id):
            return "no Pixabay image with id \(id)"
        case .pageOutOfRange(let page, let lastPage):
            return "page \(page) is past the last page of results (\(lastPage))"
        case .network(let detail):
            return "could not reach Pixabay: \(detail)"
        case .cancelled:
            return "cancelled"
        case .catalog(let detail):
            return "offline catalog unusable: \(detail)"
        case .imageUnavailable(let id, let detail):
            return "image \(id) unavailable: \(detail)"
        case .corruptFavourites(let path, let movedTo):
            return "favourites file \(path) is corrupt: moved it to \(movedTo); run the command again to start a new list"
        case .favourites(let detail):
            return "favourites: \(detail)"
        }
    }
}

/// Keeps secrets and control characters out of text pxview shows.
///
/// Pixabay's error for a bad key quotes the key back; curl errors quote the
/// URL. Both end up in messages, logs and terminals, so anything that came
/// from outside is flattened to one printable line and the key is replaced.
enum Redaction {
    static let placeholder = "[redacted]"
    /// Longest message kept from a server body: enough for Pixabay's one-line errors.
    static let maxMessageCharacters = 300

    /// One printable line with every spelling of `secret` replaced.
    static func sanitize(_ text: String, secret: String?) -> String {
        var line = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            if isSpace {
                if !lastWasSpace && !line.isEmpty { line.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                line.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        while line.last == " " { line.removeLast() }
        line = scrub(line, secret: secret)
        if line.count > maxMessageCharacters {
            line = String(line.prefix(maxMessageCharacters)) + "…"
        }
        return line
    }

    /// `text` with the raw and URL-encoded forms of `secret` replaced.
    static func scrub(_ text: String, secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return text }
        var result = text
        for spelling in Set([secret, FormEncoding.encode(secret)]) {
            result = result.replacingOccurrences(of: spelling, with: placeholder)
        }
        return result
    }

    /// Text of an untrusted body: invalid UTF-8 is replaced rather than refused,
    /// since an error page is only shown, never parsed.
    static func bodyText(_ body: [UInt8], secret: String?) -> String {
        sanitize(String(decoding: body.prefix(4096), as: UTF8.self), secret: secret)
    }
}
