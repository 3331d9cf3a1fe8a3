import Decoding
import Pixels
import Plumbing
import Scaling

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A still picture, decoded: every format pxview reads (JPEG, PNG, GIF,
/// WebP, AVIF, HEIC, JPEG XL; an animation's first frame), converted to
/// sRGB from the file's colour description, its EXIF orientation applied.
/// A value: pictures pass between threads freely.
public struct Picture: Sendable {
    package var image: RGBAImage
    /// "JPEG", "PNG"…, as the codec table names the format.
    public let format: String

    /// The largest picture decoded unless asked otherwise: 100 megapixels
    /// (a 100 MP PNG decodes in about 2 s here); larger headers are refused
    /// before any pixel memory exists.
    public static let defaultMaxPixels = DecodeOptions.defaultMaxPixels

    /// Decodes `bytes`, refusing a picture of more than `maxPixels`.
    public init(bytes: [UInt8], maxPixels: Int = Picture.defaultMaxPixels) throws(PictureError) {
        let decoded: DecodedImage
        do {
            decoded = try decodeImage(bytes, options: DecodeOptions(maxPixels: maxPixels, maxFrames: 1))
        } catch {
            throw PictureError.notDecoded(String(describing: error))
        }
        guard let first = decoded.frames.first else { throw PictureError.notDecoded("no frame") }
        image = first.image
        format = decoded.format.displayName
    }

    /// Reads and decodes the file at `path` (a regular file: a FIFO or a
    /// device is refused at once, never waited on).
    public init(contentsOfFile path: String, maxPixels: Int = Picture.defaultMaxPixels) throws(PictureError) {
        try self.init(bytes: try Self.read(path), maxPixels: maxPixels)
    }

    /// What a picture's header says (format, size as shown, frames), read
    /// with no pixel decoded: to lay out before loading, or to refuse a
    /// picture too large before it costs anything.
    public static func header(of bytes: [UInt8]) throws(PictureError) -> PictureHeader {
        do {
            let info = try readImageInfo(bytes)
            return PictureHeader(
                format: info.format.displayName, width: info.size.width, height: info.size.height, frames: info.frameCount)
        } catch {
            throw PictureError.notDecoded(String(describing: error))
        }
    }

    package init(image: RGBAImage, format: String) {
        self.image = image
        self.format = format
    }

    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }
    /// The pixels: 8-bit sRGB red, green, blue and alpha, row by row from
    /// the top-left, `width * 4` bytes a row.
    public var rgba: [UInt8] { image.pixels }

    /// The picture resampled to `width` x `height` pixels by pxview's
    /// resampler: area averages shrinking, Catmull-Rom enlarging.
    public func resized(width: Int, height: Int) -> Picture {
        let size = PixelSize(width: max(1, width), height: max(1, height))
        return Picture(image: Resampler().resize(image, to: size), format: format)
    }

    /// The largest file read, as `pxview show` reads one: 256 MB is far
    /// past any photo a 100 MP limit lets through.
    static let maxFileBytes = 256 << 20

    static func read(_ path: String) throws(PictureError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw PictureError.unreadable(path: path, reason: SystemError.lastReason) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PictureError.unreadable(path: path, reason: SystemError.lastReason) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw PictureError.unreadable(path: path, reason: "not a regular file")
        }
        // Checked before any memory: a sparse 50 GB file is no photo.
        guard info.st_size <= Self.maxFileBytes else {
            throw PictureError.unreadable(path: path, reason: "larger than \(Self.maxFileBytes >> 20) MB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Descriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            guard count > 0 else {
                if count < 0 { throw PictureError.unreadable(path: path, reason: SystemError.lastReason) }
                break
            }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }
}

/// A picture's header: what it is before any pixel is decoded.
public struct PictureHeader: Equatable, Sendable {
    /// "JPEG", "PNG"…
    public var format: String
    /// Width in pixels, as shown (EXIF orientation applied).
    public var width: Int
    /// Height in pixels, as shown.
    public var height: Int
    /// Frames: more than one for an animation.
    public var frames: Int
}

/// Why a picture could not be had.
public enum PictureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read: its path and why.
    case unreadable(path: String, reason: String)
    /// The bytes are no picture pxview decodes, or a broken one, or too large.
    case notDecoded(String)

    /// One line, as pxview prints it.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .notDecoded(let reason): return "cannot decode: \(reason)"
        }
    }
}

/// How a picture fills its box: fitted whole, covering it, or at its own
/// pixels; zoomed about a point.
public struct Framing: Equatable, Sendable {
    /// The picture in its box.
    public enum Fit: Sendable {
        /// Whole, as large as the box allows, its aspect kept.
        case contain
        /// Filling the box, cropped to it.
        case cover
        /// One picture pixel to one screen pixel.
        case actual
    }

    /// How the picture meets the box.
    public var fit: Fit
    /// 1 is the fit; 2 twice its scale (the box then shows a crop).
    public var zoom: Double
    /// The picture point (0...1 across) at the box's middle when zoomed.
    public var centerX: Double
    /// The picture point (0...1 down) at the box's middle when zoomed.
    public var centerY: Double

    /// Fitted whole and centred, unless told otherwise.
    public init(fit: Fit = .contain, zoom: Double = 1, centerX: Double = 0.5, centerY: Double = 0.5) {
        self.fit = fit
        self.zoom = zoom
        self.centerX = centerX
        self.centerY = centerY
    }
}
