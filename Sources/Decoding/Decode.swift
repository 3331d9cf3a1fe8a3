import Pixels

/// How to decode: safety limits and the size the image is headed for.
package struct DecodeOptions: Sendable {
    /// The default pixel-count limit (`--max-pixels`): 100 megapixels.
    package static let defaultMaxPixels = 100_000_000

    /// Images whose header declares more pixels are refused before any pixel
    /// memory is allocated, so a 100-byte decompression bomb costs nothing.
    /// An animation's frames, at the size they are kept, share this budget.
    package var maxPixels: Int
    /// The box (in display orientation) the image will be fitted into. JPEGs
    /// then decode at 1/2, 1/4 or 1/8 scale straight from the DCT when that
    /// still covers the fitted size: much faster, and less to resample.
    package var targetSize: PixelSize?
    /// At most this many frames of an animation are decoded (nil: all of
    /// them): a grid tile shows the first, a completeness check needs none kept.
    package var maxFrames: Int?
    /// The colour step's transforms, kept across decodes (nil: each decode
    /// builds the one it needs).
    package var colourTransforms: ColourTransforms?
    /// False where only the decode's success counts (a completeness
    /// check): no colour transform is built (a CMYK profile's takes 23 ms).
    var convertsColour = true

    package init(
        maxPixels: Int = DecodeOptions.defaultMaxPixels, targetSize: PixelSize? = nil, maxFrames: Int? = nil,
        colourTransforms: ColourTransforms? = nil
    ) {
        self.maxPixels = maxPixels
        self.targetSize = targetSize
        self.maxFrames = maxFrames
        self.colourTransforms = colourTransforms
    }
}

/// One picture of an image: a still image is one frame, an animation many.
package struct Frame: Sendable, Equatable {
    package var image: RGBAImage
    /// How long the file says the frame shows, in milliseconds (0 for a still).
    package var delayMs: Int

    package init(image: RGBAImage, delayMs: Int = 0) {
        self.image = image
        self.delayMs = delayMs
    }

    /// Delays this short are taken as 100 ms, as browsers do: old GIF
    /// tools wrote 0 or 1 cs meaning "as fast as you can", and every
    /// browser plays those at 10 frames a second (Chrome, Firefox, Safari).
    package static let shortestDelayMs = 10
    package static let shortDelayStandInMs = 100

    /// How long the viewer shows the frame.
    package var playbackDelayMs: Int { delayMs <= Self.shortestDelayMs ? Self.shortDelayStandInMs : delayMs }
}

/// A decoded picture, upright and ready to scale: its frames (one for a
/// still image), each at the same size.
package struct DecodedImage: Sendable {
    /// Never empty. The pixels have the format's orientation (EXIF, `irot`)
    /// already applied, and any scaling done while decoding.
    package var frames: [Frame]
    /// The image's full size after orientation, before any scaling.
    package var fullSize: PixelSize
    package var format: ImageFormat
    /// Problems the decoder recovered from, e.g. "premature end of JPEG file".
    package var warnings: [String]
    /// How many times the animation plays in all; 0: for ever. 1 for a still.
    package var loopCount: Int
    /// Frames in the file: more than `frames.count` when `DecodeOptions.maxFrames` stopped early.
    package var frameCount: Int
    /// What the colour step converted from (nil: sRGB or untagged, as decoded).
    package var colour: ColourConversion?
    /// A colour description that was there but could not be used: the image
    /// is shown untagged, and this is a `PXVIEW_DEBUG` line.
    package var colourProblem: String?
    /// What the camera wrote (EXIF): date, camera, lens, exposure.
    package var details: PhotoDetails?
    /// The pixels' ICC profile when the library says what it decoded to
    /// (JPEG XL), for the colour step.
    var libraryProfile: [UInt8]?
    /// The file's own profile when the library converted from it (JPEG XL's
    /// XYB images, decoded to sRGB): only named.
    var libraryConvertedFrom: [UInt8]?

    package init(
        frames: [Frame], fullSize: PixelSize, format: ImageFormat, warnings: [String] = [], loopCount: Int = 1,
        frameCount: Int? = nil
    ) {
        precondition(!frames.isEmpty, "a decoded image has at least one frame")
        self.frames = frames
        self.fullSize = fullSize
        self.format = format
        self.warnings = warnings
        self.loopCount = loopCount
        self.frameCount = max(frameCount ?? frames.count, frames.count)
    }

    /// A still image: one frame.
    package init(image: RGBAImage, fullSize: PixelSize, format: ImageFormat, warnings: [String] = []) {
        self.init(frames: [Frame(image: image)], fullSize: fullSize, format: format, warnings: warnings)
    }

    /// The first frame's pixels: the still image, or what a grid tile and
    /// `show --once` show of an animation.
    package var image: RGBAImage {
        get { frames[0].image }
        set { frames[0].image = newValue }
    }

    /// More than one frame in the file.
    package var isAnimated: Bool { frameCount > 1 }

    /// One pass through the decoded frames as the viewer plays them, in ms
    /// (0 for a still image).
    package var durationMs: Int { frames.count > 1 ? frames.reduce(0) { $0 + $1.playbackDelayMs } : 0 }

    /// Every frame's pixels through `transform` (a background composited under each).
    package func mapImages(_ transform: (RGBAImage) -> RGBAImage) -> DecodedImage {
        var copy = self
        copy.frames = frames.map { Frame(image: transform($0.image), delayMs: $0.delayMs) }
        return copy
    }
}

/// Decodes an image of any format in the codec table (recognised by its
/// magic bytes) to upright RGBA, through that format's row.
package func decodeImage(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
    if bytes.isEmpty { throw DecodeError(.empty) }
    guard let format = ImageFormat(sniffing: bytes) else { throw DecodeError(.unknownFormat) }
    var decoded = try format.codec.decode(bytes, options)
    ColourStep.apply(&decoded, bytes: bytes, transforms: options.colourTransforms)
    decoded.details = PhotoDetails.read(bytes, format: format)
    return decoded
}

/// Refuses sizes the caller cannot afford or that hold no pixels. Called
/// with header dimensions, before the pixel buffer exists.
func checkHeaderSize(width: Int, height: Int, format: ImageFormat, options: DecodeOptions) throws(DecodeError) {
    if width <= 0 || height <= 0 { throw DecodeError(.zeroSize, format: format) }
    // Two unsigned 32-bit sides (a HEIF grid's) can overflow Int.
    let (area, overflow) = width.multipliedReportingOverflow(by: height)
    if overflow || area > options.maxPixels {
        throw DecodeError(.tooLarge(width: width, height: height, limit: options.maxPixels), format: format)
    }
}
