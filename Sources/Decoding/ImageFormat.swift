import Pixels

/// The image formats pxview decodes: one case per row of the codec table
/// (`Codec.table`), which holds everything else about each.
package enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, avif, heic, jxl

    /// This format's row of the codec table.
    package var codec: Codec { Codec.row(self) }

    /// The name used in messages and help: "JPEG", "WebP", "JPEG XL".
    package var displayName: String { codec.name }

    /// The format of `bytes`, judged only by their first bytes (magic numbers).
    ///
    /// File names and URLs lie (a PNG saved as `photo.jpg` is common), so the
    /// content is the only thing trusted. Returns nil for anything else.
    package init?(sniffing bytes: some Collection<UInt8>) {
        guard let row = Codec.table.first(where: { $0.signature.matches(bytes) }) else { return nil }
        self = row.format
    }

    /// The file extension pxview gives a file of this format (`save`, `s`).
    package var fileExtension: String { codec.fileExtensions[0] }

    /// Every format's name in table order, as a phrase: "JPEG or PNG".
    package static var namesPhrase: String {
        let names = Codec.table.map(\.name)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// Every file extension a folder listing takes for an image (lower case).
    package static var fileExtensions: Set<String> { Set(Codec.table.flatMap(\.fileExtensions)) }

    /// A short guess at what a non-image body is, for error messages:
    /// "an HTML page", "JSON", "text" or "unrecognised data".
    package static func describeNonImage(_ bytes: [UInt8]) -> String {
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

/// The format of `bytes` by their magic numbers (`ImageFormat(sniffing:)`).
package func sniffImageFormat(_ bytes: some Collection<UInt8>) -> ImageFormat? {
    ImageFormat(sniffing: bytes)
}
