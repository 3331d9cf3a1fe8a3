/// How the mapper spreads quantization error.
///
/// `.ordered` adds a threshold offset to each pixel before the palette
/// lookup, taken from a small tiled matrix at the pixel's position (output
/// position plus the mapper's dither origin), never from its neighbours.
/// So a frame that did not change maps to identical indices, and a small
/// view change does not make the whole picture shimmer the way error
/// diffusion does. `.diffusion` is that error diffusion, for still pictures.
package enum Dither: String, Sendable, CaseIterable {
    case none
    /// Bayer 8x8: cheap, a regular cross-hatch texture.
    case ordered
    /// Floyd–Steinberg error diffusion: each pixel's error goes to its
    /// neighbours, so the average colour of an area is right even between
    /// far-apart palette colours. For still pictures only: it depends on
    /// every pixel before, so a panned view shimmers.
    case diffusion
}

/// A square, power-of-two-sided tile of threshold ranks 0..<side*side.
struct ThresholdMatrix: Sendable {
    let side: Int
    /// Row-major ranks; each of 0..<side*side appears once.
    let ranks: [Int]

    /// Offsets centred on zero, spanning about ±amplitude/2, row-major.
    func offsets(amplitude: Int) -> [Int32] {
        let levels = side * side
        return ranks.map { Int32(((2 * $0 + 1 - levels) * amplitude) / (2 * levels)) }
    }

    static let bayer8 = ThresholdMatrix(
        side: 8,
        ranks: [
            0, 32, 8, 40, 2, 34, 10, 42,
            48, 16, 56, 24, 50, 18, 58, 26,
            12, 44, 4, 36, 14, 46, 6, 38,
            60, 28, 52, 20, 62, 30, 54, 22,
            3, 35, 11, 43, 1, 33, 9, 41,
            51, 19, 59, 27, 49, 17, 57, 25,
            15, 47, 7, 39, 13, 45, 5, 37,
            63, 31, 55, 23, 61, 29, 53, 21,
        ])
}
