import Testing

@testable import Plumbing

@Suite struct ParallelRowsTests {
    @Test func rowRangesCoverEveryRowOnceOnBandBoundaries() {
        for rows in [1, 6, 7, 61, 533] {
            for parts in 1...4 {
                let ranges = (0..<parts).map { ParallelRows.range($0, of: parts, rows: rows, multiple: 6) }
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == rows)
                for (a, b) in zip(ranges, ranges.dropFirst()) {
                    #expect(a.upperBound == b.lowerBound)
                    #expect(a.upperBound % 6 == 0 || a.upperBound == rows)
                }
            }
        }
    }

    /// With `multiple` 1 the split is the resampler's old one: part `p` of
    /// `n` is `p * rows / n ..< (p + 1) * rows / n`.
    @Test func unitRangesAreProportional() {
        for rows in [1, 2, 5, 99, 533] {
            for parts in 1...6 {
                #expect(
                    ParallelRows.ranges(parts: parts, rows: rows)
                        == (0..<parts).map { $0 * rows / parts..<($0 + 1) * rows / parts })
            }
        }
    }

    @Test func runVisitsEveryRowOnce() {
        for parts in [1, 2, 3, 4] {
            var seen = [Int](repeating: 0, count: 101)
            seen.withUnsafeMutableBufferPointer { seen in
                ParallelRows.run(parts: parts, rows: 101) { rows in
                    for row in rows { seen[row] += 1 }
                }
            }
            #expect(seen.allSatisfy { $0 == 1 })
        }
    }

    @Test func mapKeepsTheOrderOfTheRanges() {
        let ranges = [0..<3, 3..<10, 10..<11, 11..<40]
        #expect(ParallelRows.map(ranges) { $0.count } == [3, 7, 1, 29])
        #expect(ParallelRows.map([5..<9]) { $0.lowerBound } == [5])
        #expect(ParallelRows.map(parts: 3, rows: 9) { $0 } == [0..<3, 3..<6, 6..<9])
        #expect(ParallelRows.map(parts: 1, rows: 9) { $0 } == [0..<9])
    }
}
