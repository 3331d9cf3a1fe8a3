/// How the mapper spreads quantization error.
///
/// `ordered` adds a Bayer 8x8 threshold to each pixel before the palette
/// lookup. The threshold depends only on the pixel's position (output
/// position plus the mapper's `ditherOrigin`), never on its neighbours, so a
/// frame that did not change maps to identical indices and a small view
/// change does not make the whole picture shimmer the way error diffusion
/// does.
public enum Dither: String, Sendable, CaseIterable {
    case none
    case ordered
}

/// The 8x8 Bayer matrix as signed offsets in units of 1/64 of the amplitude.
enum BayerMatrix {
    /// Threshold ranks 0...63, row-major.
    static let ranks: [Int] = [
        0, 32, 8, 40, 2, 34, 10, 42,
        48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38,
        60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41,
        51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37,
        63, 31, 55, 23, 61, 29, 53, 21,
    ]

    /// Offsets centred on zero, spanning about ±amplitude/2.
    static func offsets(amplitude: Int) -> [Int32] {
        ranks.map { Int32(((2 * $0 + 1 - 64) * amplitude) / 128) }
    }
}
