/// The precomputed taps of one axis of a separable resample: for each output
/// index, a run of consecutive source indices and their weights (summing to 1).
///
/// Computed once per call so the pixel loops only multiply and add. Each axis
/// picks its own filter, which is what makes mixed scaling (down on one axis,
/// up on the other) work:
/// - downscaling (more than one source pixel per output pixel): area averaging,
///   a box filter whose edge weights are the exact fractional coverage;
/// - otherwise: interpolation (bilinear or Catmull-Rom), pixel-centre
///   aligned (`src = (dst + 0.5) × step − 0.5 + origin`).
///
/// Source indices are clamped to the image, so a source region reaching past
/// an edge repeats the edge pixels instead of reading outside the buffer.
struct FilterAxis: Sendable {
    /// First source index of each output's run.
    let starts: [Int]
    /// Length of each output's run (at least 1).
    let counts: [Int]
    /// `weights[i * stride + t]` weighs source `starts[i] + t` (0 past the run's count).
    let weights: [Float]
    /// The same weights each repeated in the four lanes of a vector, for
    /// the horizontal pass's vector multiply-adds.
    let vectorWeights: [SIMD4<Float>]
    let stride: Int
    /// The smallest source index any output reads.
    let lowest: Int
    /// One past the largest source index any output reads.
    let highest: Int

    /// The tap tables as buffer pointers, for the pixel loops (no bounds
    /// checks or array retains per pixel).
    struct Taps {
        let starts: UnsafeBufferPointer<Int>
        let counts: UnsafeBufferPointer<Int>
        let weights: UnsafeBufferPointer<Float>
        let vectorWeights: UnsafePointer<SIMD4<Float>>
        let stride: Int
    }

    func withTaps<Result>(_ body: (Taps) -> Result) -> Result {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in
                    vectorWeights.withUnsafeBufferPointer { vectorWeights in
                        body(
                            Taps(
                                starts: starts, counts: counts, weights: weights, vectorWeights: vectorWeights.baseAddress!,
                                stride: stride))
                    }
                }
            }
        }
    }

    /// Weights below this fraction of the total are dropped: they come from
    /// floating-point noise at pixel boundaries and would only cost a tap.
    private static let negligibleWeight = 1e-9

    /// - Parameters:
    ///   - sourceLength: pixels along this axis of the image (at least 1).
    ///   - origin: first source coordinate of the region (fractional).
    ///   - length: source length of the region (non-negative).
    ///   - outputs: output pixels along this axis (at least 1).
    ///   - upscaling: the interpolation used when not shrinking.
    init(sourceLength: Int, origin: Double, length: Double, outputs: Int, upscaling: UpscaleFilter) {
        var runs: [(start: Int, weights: [Double])] = []
        runs.reserveCapacity(outputs)
        let step = length / Double(outputs)
        for index in 0..<outputs {
            if step > 1 {
                // Multiplying before dividing keeps integer boundaries exact.
                let low = origin + Double(index) * length / Double(outputs)
                let high = origin + Double(index + 1) * length / Double(outputs)
                runs.append(Self.boxRun(low: low, high: high, sourceLength: sourceLength))
            } else {
                let centre = origin + (Double(index) + 0.5) * step - 0.5
                runs.append(Self.interpolatingRun(centre: centre, filter: upscaling, sourceLength: sourceLength))
            }
        }
        let stride = runs.map(\.weights.count).max() ?? 1
        var weights = [Float](repeating: 0, count: outputs * stride)
        for (index, run) in runs.enumerated() {
            let total = run.weights.reduce(0, +)
            for (tap, weight) in run.weights.enumerated() {
                weights[index * stride + tap] = Float(weight / total)
            }
        }
        self.starts = runs.map(\.start)
        self.counts = runs.map(\.weights.count)
        self.weights = weights
        vectorWeights = weights.map { SIMD4(repeating: $0) }
        self.stride = stride
        self.lowest = runs.map(\.start).min() ?? 0
        self.highest = runs.map { $0.start + $0.weights.count }.max() ?? 1
    }

    /// Area average of the source interval `[low, high)`: each source pixel
    /// `[j, j+1)` weighs its overlap with the interval.
    private static func boxRun(low: Double, high: Double, sourceLength: Int) -> (start: Int, weights: [Double]) {
        let limit = Double(sourceLength)
        let low = min(max(low, 0), limit)
        let high = min(max(high, 0), limit)
        guard high - low > negligibleWeight else {
            // The interval lies outside the image (or is empty): use the nearest pixel.
            return (min(max(Int(low.rounded(.down)), 0), sourceLength - 1), [1])
        }
        let first = Int(low.rounded(.down))
        let end = min(Int(high.rounded(.up)), sourceLength)
        let weights = (first..<end).map { pixel in min(high, Double(pixel + 1)) - max(low, Double(pixel)) }
        return trimmed(start: first, weights: weights, threshold: (high - low) * negligibleWeight)
    }

    /// Interpolation between the source pixels around `centre`, with edge
    /// pixels repeated beyond the image (their weights merge into the edge).
    private static func interpolatingRun(centre: Double, filter: UpscaleFilter, sourceLength: Int) -> (
        start: Int, weights: [Double]
    ) {
        // Pinned so the Int conversion cannot trap; this far out every tap
        // lands on the edge pixel anyway.
        let pinned = min(max(centre, -3), Double(sourceLength) + 2)
        let base = pinned.rounded(.down)
        let t = pinned - base
        let taps: [(offset: Int, weight: Double)]
        switch filter {
        case .bilinear:
            taps = [(0, 1 - t), (1, t)]
        case .catmullRom:
            let t2 = t * t
            let t3 = t2 * t
            taps = [
                (-1, (-t3 + 2 * t2 - t) / 2),
                (0, (3 * t3 - 5 * t2 + 2) / 2),
                (1, (-3 * t3 + 4 * t2 + t) / 2),
                (2, (t3 - t2) / 2),
            ]
        }
        var start = 0
        var weights: [Double] = []
        for (offset, weight) in taps {
            // Clamping is monotonic, so clamped indices stay consecutive or repeat.
            let index = min(max(Int(base) + offset, 0), sourceLength - 1)
            if weights.isEmpty {
                start = index
                weights.append(weight)
            } else if index == start + weights.count - 1 {
                weights[weights.count - 1] += weight
            } else {
                weights.append(weight)
            }
        }
        return trimmed(start: start, weights: weights, threshold: negligibleWeight)
    }

    /// Drops near-zero weights at either end of a run (keeping at least one).
    private static func trimmed(start: Int, weights: [Double], threshold: Double) -> (start: Int, weights: [Double]) {
        var start = start
        var weights = weights
        while weights.count > 1, let last = weights.last, abs(last) <= threshold { weights.removeLast() }
        while weights.count > 1, let head = weights.first, abs(head) <= threshold {
            weights.removeFirst()
            start += 1
        }
        return (start, weights)
    }
}
