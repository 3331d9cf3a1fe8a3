import Pixels
import Plumbing

/// Why an image could not be decoded.
///
/// `description` is a short lower-case reason meant to follow a file name,
/// as in `pxview: cannot decode photo.jpg: truncated JPEG data`.
package struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
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
        /// One frame of an animation declares more pixels than the limit,
        /// whatever the canvas it is drawn on (a 65535x65535 frame on a 16x16 GIF).
        case frameTooLarge(width: Int, height: Int, canvas: PixelSize, limit: Int)
        /// Compositing an animation needs `canvases` canvases of its size
        /// at once, more than the limit's pixels (4 bytes each) allow.
        case animationTooLarge(canvas: PixelSize, frames: Int, canvases: Int, limit: Int)
        /// More memory than half this machine's, whatever the limit says.
        case beyondMemory(bytes: Int, machineBytes: Int)
        /// The header declares zero width or height.
        case zeroSize
        /// Valid data using a feature the decoder lacks (lossless JPEG, odd colour spaces, ...).
        case unsupported
        /// The pixel buffer could not be allocated.
        case outOfMemory
        /// The format's shared library (loaded on first use) is missing; `detail` says which.
        case noDecoder
    }

    package var kind: Kind
    /// The format the bytes were sniffed as, nil when unknown.
    package var format: ImageFormat?
    /// The decoder library's own message, "" when there is none.
    package var detail: String

    package init(_ kind: Kind, format: ImageFormat? = nil, detail: String = "") {
        self.kind = kind
        self.format = format
        self.detail = Self.printable(detail)
    }

    /// A library's words made safe to print: control characters (libheif
    /// put a file's bytes 0x00-0x0F into its text) become `?`, whatever
    /// prints them after.
    package static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }

    package var description: String {
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
            // In 64 unsigned bits: two 32-bit sides (a HEIF grid's) overflow Int.
            let pixels = UInt64(max(0, width)) * UInt64(max(0, height))
            return "image is \(width)x\(height) (\(pixels) pixels), over the \(limit)-pixel limit"
        case .frameTooLarge(let width, let height, let canvas, let limit):
            return "a frame of \(width)x\(height) (\(width * height) pixels) on a \(canvas.width)x\(canvas.height) "
                + "\(formatName) is over the \(limit)-pixel limit"
        case .animationTooLarge(let canvas, let frames, let canvases, let limit):
            let needed = canvas.width * canvas.height * canvases * 4
            return "animation canvas \(canvas.width)x\(canvas.height) with \(frames) frames needs "
                + "\(ByteSize.text(needed)) to decode, over the \(ByteSize.text(limit * 4)) the \(limit)-pixel limit allows"
        case .beyondMemory(let bytes, let machineBytes):
            return "decoding needs \(ByteSize.text(bytes)), more than half of this machine's \(ByteSize.text(machineBytes))"
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
