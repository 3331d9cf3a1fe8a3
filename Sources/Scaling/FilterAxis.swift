/// The precomputed taps of one axis of a separable resample: for each output
/// index, a run of consecutive source indices and their weights (summing to 1).
///
/// Computed once per call so the pixel loops only multiply and add. Each axis
/// picks its own filter, which is what makes mixed scaling (down on one axis,
/// up on the other) work:
/// - downscaling (more than one source pixel per output pixel): area averaging,
///   a box filter whose edge weights are the exact fractional coverage;
/// - otherwise: bilinear, pixel-centre aligned
///   (`src = (dst + 0.5) × step − 0.5 + origin`).
///
/// Source indices are clamped to the image, so a source region reaching past
/// an edge repeats the edge pixels instead of reading outside the buffer.
struct FilterAxis: Sendable {
    /// First source index of each output's run.
    let starts: [Int]
    /// Length of each output's run (at least 1).
    let counts: [Int]
    /// `weights[i * stride + t]` weighs source `starts[i] + t`.
    let weights: [Float]
    let stride: Int
    /// The smallest source index any output reads.
    let lowest: Int
    /// One past the largest source index any output reads.
    let highest: Int

    /// Weights below this fraction of the total are dropped: they come from
    /// floating-point noise at pixel boundaries and would only cost a tap.
    private static let negligibleWeight = 1e-9

    /// - Parameters:
    ///   - sourceLength: pixels along this axis of the image (at least 1).
    ///   - origin: first source coordinate of the region (fractional).
    ///   - length: source length of the region (non-negative).
    ///   - outputs: output pixels along this axis (at least 1).
    init(sourceLength: Int, origin: Double, length: Double, outputs: Int) {
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
                runs.append(Self.bilinearRun(centre: centre, sourceLength: sourceLength))
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
        var first = Int(low.rounded(.down))
        let end = min(Int(high.rounded(.up)), sourceLength)
        var weights: [Double] = []
        weights.reserveCapacity(end - first)
        for pixel in first..<end {
            weights.append(min(high, Double(pixel + 1)) - max(low, Double(pixel)))
        }
        let threshold = (high - low) * negligibleWeight
        while weights.count > 1, let last = weights.last, last <= threshold { weights.removeLast() }
        while weights.count > 1, let head = weights.first, head <= threshold {
            weights.removeFirst()
            first += 1
        }
        return (first, weights)
    }

    /// Linear interpolation between the two source pixels around `centre`,
    /// with edge pixels repeated beyond the image.
    private static func bilinearRun(centre: Double, sourceLength: Int) -> (start: Int, weights: [Double]) {
        let lower = centre.rounded(.down)
        let fraction = centre - lower
        // Far-off centres are pinned before the Int conversion so it cannot trap.
        let left = Int(min(max(lower, -1), Double(sourceLength)))
        if left < 0 { return (0, [1]) }
        if left >= sourceLength - 1 { return (sourceLength - 1, [1]) }
        if fraction <= negligibleWeight { return (left, [1]) }
        if fraction >= 1 - negligibleWeight { return (left + 1, [1]) }
        return (left, [1 - fraction, fraction])
    }
}
