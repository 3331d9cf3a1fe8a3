import Pixels

/// How to decode: safety limits and the size the image is headed for.
public struct DecodeOptions: Sendable {
    /// The default pixel-count limit (`--max-pixels`): 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// Images whose header declares more pixels are refused before any pixel
    /// memory is allocated, so a 100-byte decompression bomb costs nothing.
    public var maxPixels: Int
    /// The box (in display orientation) the image will be fitted into. JPEGs
    /// then decode at 1/2, 1/4 or 1/8 scale straight from the DCT when that
    /// still covers the fitted size: much faster, and less to resample.
    public var targetSize: PixelSize?

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, targetSize: PixelSize? = nil) {
        self.maxPixels = maxPixels
        self.targetSize = targetSize
    }
}

/// A decoded picture, upright and ready to scale.
public struct DecodedImage: Sendable {
    /// The pixels, with EXIF orientation already applied (and DCT scaling, if any).
    public var image: RGBAImage
    /// The image's full size after EXIF orientation, before any DCT scaling.
    public var fullSize: PixelSize
    public var format: ImageFormat
    /// Problems the decoder recovered from, e.g. "premature end of JPEG file".
    public var warnings: [String]

    public init(image: RGBAImage, fullSize: PixelSize, format: ImageFormat, warnings: [String] = []) {
        self.image = image
        self.fullSize = fullSize
        self.format = format
        self.warnings = warnings
    }
}

/// Decodes an image of any format in the codec table (recognised by its
/// magic bytes) to upright RGBA, through that format's row.
public func decodeImage(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
    if bytes.isEmpty { throw DecodeError(.empty) }
    guard let format = ImageFormat(sniffing: bytes) else { throw DecodeError(.unknownFormat) }
    return try format.codec.decode(bytes, options)
}

/// Refuses sizes the caller cannot afford or that hold no pixels. Called
/// with header dimensions, before the pixel buffer exists.
func checkHeaderSize(width: Int, height: Int, format: ImageFormat, options: DecodeOptions) throws(DecodeError) {
    if width <= 0 || height <= 0 { throw DecodeError(.zeroSize, format: format) }
    // Each side fits in 32 bits, so the product cannot overflow Int.
    if width * height > options.maxPixels {
        throw DecodeError(.tooLarge(width: width, height: height, limit: options.maxPixels), format: format)
    }
}
