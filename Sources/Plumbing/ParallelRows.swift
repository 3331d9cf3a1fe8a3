import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way per-row work is split across cores: the sixel and PNG
/// encoders, the palette mapper, zlib's parallel pieces, the resampler's
/// bands and the sixel viewer's bands all go through here.
///
/// Mapping and encoding a 800x533 view take a few milliseconds each; on two
/// cores two halves nearly halve that. Small images stay on one thread,
/// where the hand-off would cost more than it saves. A single part always
/// runs on the calling thread.
package enum ParallelRows {
    /// Below this many pixels the encoders' work stays serial.
    package static let minimumPixels = 120_000

    /// How many parts to split `rows` rows of `pixels` pixels into (the
    /// encoders' rule; the resampler weighs its own work).
    package static func parts(pixels: Int, rows: Int) -> Int {
        guard pixels >= minimumPixels else { return 1 }
        return max(1, min(4, System.activeProcessorCount, rows / 6))
    }

    /// Runs `body` on `parts` contiguous row ranges covering `0..<rows`,
    /// in parallel when `parts` > 1. Callers write only their own rows.
    package static func run(parts: Int, rows: Int, multiple: Int = 1, _ body: (Range<Int>) -> Void) {
        if parts <= 1 {
            body(0..<rows)
            return
        }
        withoutActuallyEscaping(body) { body in
            // Each part touches only its own rows of the caller's buffers.
            let shared = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                shared.value(range(part, of: parts, rows: rows, multiple: multiple))
            }
        }
    }

    /// `body` of each of `ranges` (the caller's own split, such as the
    /// viewer's bands of whole cell rows), in parallel when there are
    /// several; the results in the order of `ranges`.
    package static func map<T: Sendable>(_ ranges: [Range<Int>], _ body: (Range<Int>) -> T) -> [T] {
        if ranges.count <= 1 { return ranges.map(body) }
        let results = IndexedResults<T>(count: ranges.count)
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
                results.set(index, shared.value(ranges[index]))
            }
        }
        return results.values.map { $0! }
    }

    /// `map` over the `parts` ranges `run` would use.
    package static func map<T: Sendable>(parts: Int, rows: Int, multiple: Int = 1, _ body: (Range<Int>) -> T) -> [T] {
        map(ranges(parts: parts, rows: rows, multiple: multiple), body)
    }

    /// The `parts` ranges covering `0..<rows` that `run` hands out.
    package static func ranges(parts: Int, rows: Int, multiple: Int = 1) -> [Range<Int>] {
        parts <= 1 ? [0..<rows] : (0..<parts).map { range($0, of: parts, rows: rows, multiple: multiple) }
    }

    /// Part `part` of `parts` of `0..<rows`, with boundaries on multiples of
    /// `multiple` (6 for sixel bands). With `multiple` 1 part `p` is
    /// `p * rows / parts ..< (p + 1) * rows / parts`.
    package static func range(_ part: Int, of parts: Int, rows: Int, multiple: Int) -> Range<Int> {
        let units = (rows + multiple - 1) / multiple
        let start = min(rows, part * units / parts * multiple)
        let end = part == parts - 1 ? rows : min(rows, (part + 1) * units / parts * multiple)
        return start..<end
    }
}

/// The core count, without Foundation (Encoding links without it).
package enum System {
    package static var activeProcessorCount: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}

/// Lets a closure over disjoint parts of shared buffers cross into
/// `concurrentPerform`; `ParallelRows` is what makes the parts disjoint.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
