import Pixels

/// RGBA image to sixel bytes in one call: quantize, map, encode.
///
/// Each image gets its own palette and is diffused (`stillMapper`); an
/// image whose colours all fit the registers and the terminal's percent
/// grid is sent exactly, undithered. Callers that keep a palette across
/// frames (the viewer, while panning) map with their own `mapper`.
package struct SixelRenderer: Sendable {
    package struct Options: Sendable, Equatable {
        /// Colour registers to use, 1...256 (clamped).
        package var colorRegisters: Int

        package init(colorRegisters: Int = 256) {
            self.colorRegisters = min(max(1, colorRegisters), Palette.maxColors)
        }
    }

    /// One rendered image and the pieces that made it, for callers that
    /// encode it again in parts (in bands, inside tmux).
    package struct Frame: Sendable {
        package var bytes: [UInt8]
        package var palette: Palette
        package var indexed: IndexedImage
    }

    /// Half the full-step amplitude. Measured on ten 800x533-ish photos:
    /// full strength 5.32 MB in all, half 4.86 MB (-9 %), none 4.68 MB; a
    /// 256-colour photo palette is dense enough that half-strength ordered
    /// dither still breaks up the banding in smooth skies (checked by eye on
    /// the storm photo), while every extra dot costs sixel bytes.
    package static let defaultDitherStrength = 0.5

    package let options: Options

    package init(options: Options = Options()) {
        self.options = options
    }

    /// Sixel bytes for `image`.
    package func render(_ image: RGBAImage) -> [UInt8] {
        renderFrame(image).bytes
    }

    package func renderFrame(_ image: RGBAImage) -> Frame {
        let (palette, isExact) = PaletteBuilder(maxColors: options.colorRegisters).buildReportingExactness(from: image)
        let mapper = Self.stillMapper(palette, isExact: isExact)
        let indexed = mapper.map(image)
        let bytes = SixelEncoder().encode(indexed, palette: mapper.palette)
        return Frame(bytes: bytes, palette: mapper.palette, indexed: indexed)
    }

    /// Sixteenths of the error a still picture's diffusion passes on.
    /// Measured with pxbench (`--gradient`, 17 photos into 800x600; banding
    /// index, PSNR, bytes): 16/16 sky 0.17 but 37.0 dB and 230 KB, photos
    /// 1.06 at 32.2 dB (the lookup cube's 8-level cells make full diffusion
    /// noisy); 12/16 sky 0.38, 42.5 dB, 161 KB, photos 0.97, 35.2 dB, 379 KB;
    /// 8/16 sky 0.66, photos 1.15. Before (exact colours or half-strength
    /// Bayer): sky 1.08, photos 1.43, 35.9 dB, 336 KB. chafa: 0.67 and 1.61
    /// at 42.7 and 33.8 dB; img2sixel's photos 394 KB. A leak below 16/16
    /// also bounds the error a flat area of an off-grid colour builds up
    /// (to 4x its offset), so a logo stays flat.
    package static let diffusionWeight = 12

    /// The mapper for a picture shown once (`show`, grid tiles): the palette
    /// as the terminal will show it (`Palette.sixelShown`) with error
    /// diffusion, or the exact colours undithered when every one is already
    /// shown exactly (few colours, each on the percent grid).
    package static func stillMapper(_ palette: Palette, isExact: Bool) -> PaletteMapper {
        let shown = palette.sixelShown
        if isExact && shown == palette { return PaletteMapper(palette: palette, dither: .none) }
        return PaletteMapper(palette: shown, dither: .diffusion, diffusionWeight: diffusionWeight)
    }

    /// A mapper whose dither amplitude is `strength` times the default.
    package static func mapper(
        _ palette: Palette, dither: Dither, strength: Double = defaultDitherStrength
    ) -> PaletteMapper {
        guard strength != 1 else { return PaletteMapper(palette: palette, dither: dither) }
        let amplitude = Double(PaletteMapper.meanNeighbourStep(palette)) * strength
        return PaletteMapper(palette: palette, dither: dither, ditherAmplitude: Int(amplitude.rounded()))
    }
}
