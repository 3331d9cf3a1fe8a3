/// Variance-based median cut over histogram bins.
///
/// Each box is a contiguous range of `bins`. The box with the largest total
/// squared error is split next, on the plane (along any axis, between 5-bit
/// cells) that leaves the smallest summed squared error in the two halves —
/// found with a 32-bucket sweep, then an in-place partition, so one split
/// costs O(bins in the box) and never sorts.
struct MedianCut {
    private var bins: [HistogramBin]
    private var boxes: [Box] = []

    private struct Box {
        var start: Int
        var end: Int
        var weight: Double
        var sumR: Double
        var sumG: Double
        var sumB: Double
        var squaredError: Double
        var splittable: Bool
    }

    /// Per-cell-plane totals used by the split sweep.
    private struct Slab {
        var weight: Double = 0
        var sumR: Double = 0
        var sumG: Double = 0
        var sumB: Double = 0
        var sumSquares: Double = 0

        init() {}

        init(weight: Double, sumR: Double, sumG: Double, sumB: Double, sumSquares: Double) {
            self.weight = weight
            self.sumR = sumR
            self.sumG = sumG
            self.sumB = sumB
            self.sumSquares = sumSquares
        }

        /// One bin's pixels, all at the bin's mean colour.
        init(_ bin: HistogramBin) {
            let w = Double(bin.weight)
            let r = Double(bin.r)
            let g = Double(bin.g)
            let b = Double(bin.b)
            self.init(weight: w, sumR: r * w, sumG: g * w, sumB: b * w, sumSquares: (r * r + g * g + b * b) * w)
        }

        mutating func add(_ other: Slab) {
            weight += other.weight
            sumR += other.sumR
            sumG += other.sumG
            sumB += other.sumB
            sumSquares += other.sumSquares
        }

        func subtracting(_ other: Slab) -> Slab {
            Slab(
                weight: weight - other.weight, sumR: sumR - other.sumR, sumG: sumG - other.sumG,
                sumB: sumB - other.sumB, sumSquares: sumSquares - other.sumSquares)
        }

        /// Squared error of all this slab's pixels around their mean.
        var squaredError: Double {
            guard weight > 0 else { return 0 }
            return max(0, sumSquares - (sumR * sumR + sumG * sumG + sumB * sumB) / weight)
        }
    }

    init(bins: [HistogramBin]) {
        self.bins = bins
        if !bins.isEmpty { boxes.append(makeBox(start: 0, end: bins.count)) }
    }

    private func makeBox(start: Int, end: Int) -> Box {
        var slab = Slab()
        for i in start..<end {
            slab.add(Slab(bins[i]))
        }
        return Box(
            start: start, end: end, weight: slab.weight, sumR: slab.sumR, sumG: slab.sumG, sumB: slab.sumB,
            squaredError: slab.squaredError, splittable: end - start > 1)
    }

    /// Splits boxes until there are `count` of them or no box can be split.
    mutating func split(into count: Int) {
        while boxes.count < count {
            var chosen = -1
            var worst: Double = -1
            for (i, box) in boxes.enumerated() where box.splittable && box.squaredError > worst {
                worst = box.squaredError
                chosen = i
            }
            guard chosen >= 0 else { return }
            if let (low, high) = bestSplit(of: boxes[chosen]) {
                boxes[chosen] = low
                boxes.append(high)
            } else {
                boxes[chosen].splittable = false
            }
        }
    }

    private mutating func bestSplit(of box: Box) -> (Box, Box)? {
        let planes = 1 << ColorHistogram.bitsPerChannel
        var bestAxis = -1
        var bestPlane = 0
        var bestError = Double.infinity
        for axis in 0..<3 {
            var slabs = [Slab](repeating: Slab(), count: planes)
            for i in box.start..<box.end {
                slabs[bins[i].cellValue(axis)].add(Slab(bins[i]))
            }
            let total = slabs.reduce(into: Slab()) { $0.add($1) }
            var below = Slab()
            for plane in 1..<planes {
                below.add(slabs[plane - 1])
                let above = total.subtracting(below)
                guard below.weight > 0, above.weight > 0 else { continue }
                let error = below.squaredError + above.squaredError
                if error < bestError {
                    bestError = error
                    bestAxis = axis
                    bestPlane = plane
                }
            }
        }
        guard bestAxis >= 0 else { return nil }
        // Partition the range: cells below the plane first.
        var low = box.start
        var high = box.end - 1
        while low <= high {
            if bins[low].cellValue(bestAxis) < bestPlane {
                low += 1
            } else {
                bins.swapAt(low, high)
                high -= 1
            }
        }
        guard low > box.start, low < box.end else { return nil }
        return (makeBox(start: box.start, end: low), makeBox(start: low, end: box.end))
    }

    /// Each box's weighted mean colour, rounded.
    func boxMeans() -> [RGB] {
        boxes.map { box in
            RGB(
                r: Self.channel(box.sumR / box.weight), g: Self.channel(box.sumG / box.weight),
                b: Self.channel(box.sumB / box.weight))
        }
    }

    /// One Lloyd (k-means) step over the bins: every colour moves to the
    /// weighted mean of the bins nearest to it. Colours nobody chose stay put.
    func refined(_ colors: [RGB]) -> [RGB] {
        let search = NearestColorSearch(palette: Palette(colors: colors))
        var sums = [Double](repeating: 0, count: colors.count * 4)
        for bin in bins {
            let nearest = Int(
                search.nearest(
                    r: Int32(bin.r + 0.5), g: Int32(bin.g + 0.5), b: Int32(bin.b + 0.5)))
            let slab = Slab(bin)
            sums[nearest * 4] += slab.sumR
            sums[nearest * 4 + 1] += slab.sumG
            sums[nearest * 4 + 2] += slab.sumB
            sums[nearest * 4 + 3] += slab.weight
        }
        return colors.indices.map { i in
            let weight = sums[i * 4 + 3]
            guard weight > 0 else { return colors[i] }
            return RGB(
                r: Self.channel(sums[i * 4] / weight), g: Self.channel(sums[i * 4 + 1] / weight),
                b: Self.channel(sums[i * 4 + 2] / weight))
        }
    }

    private static func channel(_ value: Double) -> UInt8 {
        // Adding a half and truncating rounds these non-negative means
        // without libm's round(), which plain executables do not link.
        UInt8(min(255, max(0, value) + 0.5))
    }
}
