/// How the mapper spreads quantization error.
///
/// Both kinds add a threshold offset to each pixel before the palette
/// lookup, taken from a small tiled matrix at the pixel's position (output
/// position plus the mapper's dither origin), never from its neighbours.
/// So a frame that did not change maps to identical indices, and a small
/// view change does not make the whole picture shimmer the way error
/// diffusion does.
public enum Dither: String, Sendable, CaseIterable {
    case none
    /// Bayer 8x8: cheapest, regular cross-hatch texture.
    case ordered
    /// A 32x32 void-and-cluster blue-noise matrix: the same per-pixel cost,
    /// a grainier but pattern-free texture.
    case blueNoise
    /// Floyd–Steinberg error diffusion: each pixel's error goes to its
    /// neighbours, so the average colour of an area is right even between
    /// far-apart palette colours. For still pictures only: it depends on
    /// every pixel before, so a panned view shimmers.
    case diffusion

    /// The threshold matrix, nil for `.none`.
    var matrix: ThresholdMatrix? {
        switch self {
        case .none: return nil
        case .ordered: return .bayer8
        case .blueNoise: return .blueNoise32
        case .diffusion: return nil
        }
    }
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

    static let bayer8 = ThresholdMatrix(side: 8, ranks: [
        0, 32, 8, 40, 2, 34, 10, 42,
        48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38,
        60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41,
        51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37,
        63, 31, 55, 23, 61, 29, 53, 21,
    ])

    /// Computed once per process (a few milliseconds in release builds).
    static let blueNoise32 = ThresholdMatrix(side: 32, ranks: VoidAndCluster.ranks(side: 32))
}

/// Ulichney's void-and-cluster method for a toroidal blue-noise rank matrix.
///
/// Each pixel's "energy" is a Gaussian-weighted count of set pixels around
/// it (wrapping at the edges, so the tile repeats seamlessly). Starting from
/// a sparse pseudo-random pattern relaxed until no set pixel can move from
/// its tightest cluster to the largest void, set pixels are removed from the
/// tightest clusters (ranks counting down), then pixels are added into the
/// largest voids (ranks counting up) until the tile is full. Past half full,
/// "largest void" equals the standard phase-3 "tightest cluster of zeros",
/// since a pixel's zero-energy is a constant minus its energy. Ties go to the
/// lowest index, and the start pattern comes from a fixed-seed LCG, so the
/// matrix is the same on every run.
enum VoidAndCluster {
    static func ranks(side: Int) -> [Int] {
        let count = side * side
        let kernel = gaussianKernel(side: side)
        var state = PatternState(side: side, kernel: kernel)
        // A sparse start pattern: about a tenth of the pixels.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let initialCount = max(1, count / 10)
        while state.setCount < initialCount {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pixel = Int(seed >> 33) % count
            if !state.isSet[pixel] { state.toggle(pixel) }
        }
        // Relax: move the tightest cluster's pixel into the largest void until stable.
        for _ in 0..<(count * 4) {
            let cluster = state.tightestCluster()
            state.toggle(cluster)
            let void = state.largestVoid()
            state.toggle(void)
            if void == cluster { break }
        }
        var ranks = [Int](repeating: 0, count: count)
        var removing = state
        for rank in stride(from: initialCount - 1, through: 0, by: -1) {
            let cluster = removing.tightestCluster()
            removing.toggle(cluster)
            ranks[cluster] = rank
        }
        for rank in initialCount..<count {
            let void = state.largestVoid()
            state.toggle(void)
            ranks[void] = rank
        }
        return ranks
    }

    /// exp(-d²/(2σ²)) for σ = 1.5 at every toroidal offset, as powers of
    /// exp(-1/4.5) so no libm call is needed.
    private static func gaussianKernel(side: Int) -> [Double] {
        let base = 0.800_737_402_916_808  // exp(-1 / (2 * 1.5 * 1.5))
        var kernel = [Double](repeating: 0, count: side * side)
        for dy in 0..<side {
            for dx in 0..<side {
                let wrappedY = min(dy, side - dy), wrappedX = min(dx, side - dx)
                let squared = wrappedX * wrappedX + wrappedY * wrappedY
                var value = 1.0
                for _ in 0..<squared { value *= base }
                kernel[dy * side + dx] = value
            }
        }
        return kernel
    }

    /// A binary pattern with each pixel's energy kept up to date.
    private struct PatternState {
        let side: Int
        let kernel: [Double]
        var isSet: [Bool]
        var energy: [Double]
        var setCount = 0

        init(side: Int, kernel: [Double]) {
            self.side = side
            self.kernel = kernel
            isSet = [Bool](repeating: false, count: side * side)
            energy = [Double](repeating: 0, count: side * side)
        }

        mutating func toggle(_ pixel: Int) {
            let sign = isSet[pixel] ? -1.0 : 1.0
            isSet[pixel].toggle()
            setCount += isSet[pixel] ? 1 : -1
            let px = pixel % side, py = pixel / side
            let mask = side - 1
            for y in 0..<side {
                let row = ((y - py) & mask) * side
                for x in 0..<side {
                    energy[y * side + x] += sign * kernel[row + ((x - px) & mask)]
                }
            }
        }

        func tightestCluster() -> Int {
            var best = -1
            for i in energy.indices where isSet[i] && (best < 0 || energy[i] > energy[best]) { best = i }
            return best
        }

        func largestVoid() -> Int {
            var best = -1
            for i in energy.indices where !isSet[i] && (best < 0 || energy[i] < energy[best]) { best = i }
            return best
        }
    }
}
