import Pixels

/// One row of the codec table: everything pxview knows about one image
/// format, in one place (the way chafa keeps one loader table). Sniffing,
/// `decodeImage`, `isCompleteImage`, the folder listing's extensions, error
/// wording, `--help` and `scripts/ensure-deps.sh` (which reads the
/// `packages:` lines of this file) all read it; adding a format is its
/// decoder, its C module, its `Package.swift` entry and one row here.
package struct Codec: Sendable {
    package let format: ImageFormat
    /// In messages, help and the README: "JPEG", "PNG".
    package let name: String
    /// How a file of this format starts.
    let signature: Signature
    /// File extensions a folder listing takes, lower case; the first is the
    /// one pxview writes (`save`, the viewer's `s`).
    package let fileExtensions: [String]
    /// The IANA media type, for the clipboard (`Y`): `image/jpeg`.
    package let mimeType: String
    /// The Debian packages the decoder builds against.
    package let packages: [String]
    /// Size, orientation and frames from the header, no pixels decoded.
    let readInfo: @Sendable (_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo
    /// Pixels, straight to the size `options` ask for where the library can scale.
    let decode: @Sendable (_ bytes: [UInt8], _ options: DecodeOptions) throws(DecodeError) -> DecodedImage
    /// True when the bytes are the whole file, not one cut short.
    let isComplete: @Sendable (_ bytes: [UInt8], _ maxPixels: Int) -> Bool

    /// The rows, in the order sniffing tries them: AVIF before HEIC, since
    /// AVIF files carry HEIF's `mif1` brand too.
    package static let table: [Codec] = [
        Codec(
            format: .jpeg, name: "JPEG", signature: .prefix([ImageSignature.jpeg]),
            fileExtensions: ["jpg", "jpeg", "jpe"],
            mimeType: "image/jpeg", packages: ["libturbojpeg0-dev", "libjpeg62-turbo-dev"],
            readInfo: readJPEGInfo, decode: decodeJPEG, isComplete: jpegIsComplete),
        Codec(
            format: .png, name: "PNG", signature: .prefix([ImageSignature.png]), fileExtensions: ["png"],
            mimeType: "image/png", packages: ["libpng-dev"],
            readInfo: readPNGInfo, decode: decodePNG, isComplete: { bytes, _ in pngReachesEnd(bytes) }),
        Codec(
            format: .gif, name: "GIF", signature: .prefix([Array("GIF87a".utf8), Array("GIF89a".utf8)]),
            fileExtensions: ["gif"],
            mimeType: "image/gif", packages: ["libgif-dev"],
            readInfo: readGIFInfo, decode: decodeGIF, isComplete: { bytes, _ in GIFStructure(scanning: bytes).isComplete }),
        Codec(
            format: .webp, name: "WebP", signature: .riff("WEBP"), fileExtensions: ["webp"],
            mimeType: "image/webp", packages: ["libwebp-dev"],
            readInfo: LibraryCodec.webp.readInfo, decode: LibraryCodec.webp.decode,
            isComplete: { bytes, _ in riffIsComplete(bytes) }),
        Codec(
            format: .avif, name: "AVIF", signature: .ftyp(["avif", "avis"]), fileExtensions: ["avif"],
            mimeType: "image/avif", packages: ["libavif-dev"],
            readInfo: LibraryCodec.avif.readInfo, decode: LibraryCodec.avif.decodeBoxed,
            isComplete: { bytes, _ in boxesAreComplete(bytes, requiring: "mdat") ?? true }),
        Codec(
            format: .heic, name: "HEIC",
            signature: .ftyp(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]),
            fileExtensions: ["heic", "heif", "hif"],
            mimeType: "image/heic", packages: ["libheif-dev"],
            readInfo: LibraryCodec.heif.readInfo, decode: LibraryCodec.heif.decodeBoxed,
            isComplete: { bytes, _ in boxesAreComplete(bytes, requiring: "mdat") ?? true }),
        Codec(
            format: .jxl, name: "JPEG XL", signature: .prefix([jxlCodestream, jxlContainer]), fileExtensions: ["jxl"],
            mimeType: "image/jxl", packages: ["libjxl-dev"],
            readInfo: LibraryCodec.jxl.readInfo, decode: LibraryCodec.jxl.decode,
            isComplete: jxlIsComplete),
    ]

    /// The row of `format`.
    static func row(_ format: ImageFormat) -> Codec {
        // Every case has exactly one row (CodecTableTests checks it).
        table.first { $0.format == format }!
    }
}

/// What a header says, before any pixel is decoded.
package struct ImageInfo: Sendable, Equatable {
    package var format: ImageFormat
    /// The size shown: after EXIF (or the format's own) orientation.
    package var size: PixelSize
    /// Frames in the file: 1 for a still image.
    package var frameCount: Int

    package init(format: ImageFormat, size: PixelSize, frameCount: Int = 1) {
        self.format = format
        self.size = size
        self.frameCount = frameCount
    }
}

/// The header of `bytes`: format, size, frames. Throws as `decodeImage`
/// does for what is not an image or whose header is broken or too large.
package func readImageInfo(_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo {
    if bytes.isEmpty { throw DecodeError(.empty) }
    guard let format = ImageFormat(sniffing: bytes) else { throw DecodeError(.unknownFormat) }
    return try format.codec.readInfo(bytes)
}
