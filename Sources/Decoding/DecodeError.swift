/// Why an image could not be decoded.
///
/// `description` is a short lower-case reason meant to follow a file name,
/// as in `pxview: cannot decode photo.jpg: truncated JPEG data`.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No bytes at all.
        case empty
        /// No signature of the codec table's formats.
        case unknownFormat
        /// The data stops before the image does.
        case truncated
        /// The decoder library rejected the data; `detail` has its words.
        case corrupt
        /// The header declares more pixels than `DecodeOptions.maxPixels` allows.
        case tooLarge(width: Int, height: Int, limit: Int)
        /// The header declares zero width or height.
        case zeroSize
        /// Valid data using a feature the decoder lacks (lossless JPEG, odd colour spaces, ...).
        case unsupported
        /// The pixel buffer could not be allocated.
        case outOfMemory
        /// The format's shared library (loaded on first use) is missing; `detail` says which.
        case noDecoder
    }

    public var kind: Kind
    /// The format the bytes were sniffed as, nil when unknown.
    public var format: ImageFormat?
    /// The decoder library's own message, "" when there is none.
    public var detail: String

    public init(_ kind: Kind, format: ImageFormat? = nil, detail: String = "") {
        self.kind = kind
        self.format = format
        self.detail = detail
    }

    public var description: String {
        let formatName = format?.displayName ?? "image"
        let suffix = detail.isEmpty ? "" : " (\(lowercasingFirstWord(detail)))"
        switch kind {
        case .empty:
            return "file is empty"
        case .unknownFormat:
            return "not a \(ImageFormat.namesPhrase) image"
        case .truncated:
            return "truncated \(formatName) data"
        case .corrupt:
            return "corrupt \(formatName) data" + suffix
        case .tooLarge(let width, let height, let limit):
            return "image is \(width)x\(height) (\(width * height) pixels), over the \(limit)-pixel limit"
        case .zeroSize:
            return "image has zero width or height"
        case .unsupported:
            return "unsupported \(formatName) image" + suffix
        case .outOfMemory:
            return "not enough memory to decode the image"
        case .noDecoder:
            return "no \(formatName) decoder" + suffix
        }
    }
}

/// Library messages start with a capital ("Bogus marker length"); messages
/// here are lower-case. Acronyms ("JPEG datastream ...") are left alone.
func lowercasingFirstWord(_ text: String) -> String {
    let characters = Array(text)
    guard characters.count >= 2, characters[0].isUppercase, characters[1].isLowercase else { return text }
    return characters[0].lowercased() + String(characters.dropFirst())
}
