import Pixels

/// What a downloaded body really is, judged by its first bytes.
///
/// Pixabay serves JPEG and PNG; a CDN error page, a captive portal or a
/// misconfigured stand-in server can answer 200 with HTML instead. Saving or
/// drawing such a body as a photo would only fail later, and naming a file
/// after a URL's extension would lie, so callers sniff first.
public enum ImageFileType: String, Sendable, Equatable, CaseIterable {
    case jpeg
    case png

    /// The file extension pxview gives a download of this type.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }

    /// JPEG starts with FF D8 FF (SOI and the first marker), PNG with its
    /// eight-byte signature; anything else is not an image pxview can keep.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: ImageSignature.jpeg) {
            self = .jpeg
        } else if bytes.starts(with: ImageSignature.png) {
            self = .png
        } else {
            return nil
        }
    }

    /// A short guess at what a non-image body is, for error messages:
    /// "an HTML page", "JSON", "text" or "unrecognised data".
    public static func describeNonImage(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty body" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
            .drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
            || head.hasPrefix("<body")
        {
            return "an HTML page"
        }
        if head.hasPrefix("{") || head.hasPrefix("[") { return "JSON" }
        let printable = bytes.prefix(512).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || $0 >= 32 }
        return printable ? "text" : "unrecognised data"
    }
}
