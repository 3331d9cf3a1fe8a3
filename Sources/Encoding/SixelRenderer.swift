import Pixels

/// RGBA image to sixel bytes in one call: quantize, map, encode.
///
/// With `Options.palette` set, every frame is mapped to that fixed palette
/// (its lookup cube is built once, in `init`), which keeps colours stable
/// while panning and skips the quantizer. Without it each frame gets its own
/// palette; an image with no more colours than registers gets its exact
/// colours and is never dithered.
public struct SixelRenderer: Sendable {
    public struct Options: Sendable, Equatable {
        /// Colour registers to use, 1...256 (clamped).
        public var colorRegisters: Int
        public var dither: Dither
        /// A palette to reuse across frames instead of quantizing each one.
        public var palette: Palette?

        public init(colorRegisters: Int = 256, dither: Dither = .ordered, palette: Palette? = nil) {
            self.colorRegisters = min(max(1, colorRegisters), Palette.maxColors)
            self.dither = dither
            self.palette = palette.map { Palette(colors: Array($0.colors.prefix(min(max(1, colorRegisters), 256)))) }
        }
    }

    /// One rendered image and the pieces that made it, for callers that
    /// want to reuse the palette for the next frames.
    public struct Frame: Sendable {
        public var bytes: [UInt8]
        public var palette: Palette
        public var indexed: IndexedImage
    }

    public let options: Options
    private let fixedMapper: PaletteMapper?

    public init(options: Options = Options()) {
        self.options = options
        fixedMapper = options.palette.map { PaletteMapper(palette: $0, dither: options.dither) }
    }

    /// Sixel bytes for `image`. The dither origin is passed to
    /// `PaletteMapper.map`: the offset of this view inside the full image
    /// keeps the pattern attached to the picture while panning.
    public func render(_ image: RGBAImage, ditherOriginX: Int = 0, ditherOriginY: Int = 0) -> [UInt8] {
        renderFrame(image, ditherOriginX: ditherOriginX, ditherOriginY: ditherOriginY).bytes
    }

    public func renderFrame(_ image: RGBAImage, ditherOriginX: Int = 0, ditherOriginY: Int = 0) -> Frame {
        let mapper: PaletteMapper
        if let fixedMapper {
            mapper = fixedMapper
        } else {
            let (palette, isExact) = PaletteBuilder(maxColors: options.colorRegisters)
                .buildReportingExactness(from: image)
            mapper = PaletteMapper(palette: palette, dither: isExact ? .none : options.dither)
        }
        let indexed = mapper.map(image, ditherOriginX: ditherOriginX, ditherOriginY: ditherOriginY)
        let bytes = SixelEncoder().encode(indexed, palette: mapper.palette)
        return Frame(bytes: bytes, palette: mapper.palette, indexed: indexed)
    }
}
