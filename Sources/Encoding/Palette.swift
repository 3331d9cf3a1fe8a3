import Pixels

/// One opaque 8-bit colour: a palette entry. Alpha lives elsewhere
/// (`IndexedImage.transparent`) because sixel has no per-register alpha.
package struct RGB: Hashable, Sendable, CustomStringConvertible {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8

    package init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    package var description: String { "rgb(\(r),\(g),\(b))" }
}

/// The colours an indexed image refers to by position. Sixel has at most 256
/// colour registers and `IndexedImage` stores one byte per pixel, so a
/// palette never holds more than `Palette.maxColors` entries: extra entries
/// given to `init` are dropped.
package struct Palette: Sendable, Equatable {
    /// The most colours one palette (and one sixel image) can have.
    package static let maxColors = 256

    /// The entries; anything past the first `Palette.maxColors` is dropped on assignment.
    package var colors: [RGB] {
        didSet {
            if colors.count > Palette.maxColors { colors = Array(colors.prefix(Palette.maxColors)) }
        }
    }

    package init(colors: [RGB]) {
        self.colors = Array(colors.prefix(Palette.maxColors))
    }

    package var count: Int { colors.count }
    package var isEmpty: Bool { colors.isEmpty }
}

extension Palette {
    /// Each colour as a sixel terminal shows it (registers hold whole
    /// percents: 101 levels a channel), duplicates dropped. Dithering
    /// against these colours rather than the exact ones lets the dither
    /// account for the terminal's rounding; otherwise a smooth sky rounded
    /// by the terminal shows 2.55-level steps no dither was told about.
    package var sixelShown: Palette {
        var seen = Set<RGB>()
        var shown: [RGB] = []
        for color in colors {
            let snapped = RGB(r: SixelEncoder.shown(color.r), g: SixelEncoder.shown(color.g), b: SixelEncoder.shown(color.b))
            if seen.insert(snapped).inserted { shown.append(snapped) }
        }
        return Palette(colors: shown)
    }
}
