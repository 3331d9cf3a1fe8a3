import Dispatch
import Glibc

/// Splitting per-row work across cores for the sixel path. Mapping and
/// encoding a 800x533 view take a few milliseconds each; on two cores two
/// halves nearly halve that. Small images stay on one thread, where the
/// hand-off would cost more than it saves.
enum ParallelRows {
    /// Below this many pixels the work stays serial.
    static let minimumPixels = 120_000

    /// How many parts to split `rows` rows of `pixels` pixels into.
    static func parts(pixels: Int, rows: Int) -> Int {
        guard pixels >= minimumPixels else { return 1 }
        return max(1, min(4, System.activeProcessorCount, rows / 6))
    }

    /// Runs `body` on `parts` contiguous row ranges covering `0..<rows`,
    /// in parallel when `parts` > 1. Callers write only their own rows.
    static func run(parts: Int, rows: Int, multiple: Int = 1, _ body: (Range<Int>) -> Void) {
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

    /// Part `part` of `parts` of `0..<rows`, with boundaries on multiples of
    /// `multiple` (6 for sixel bands).
    static func range(_ part: Int, of parts: Int, rows: Int, multiple: Int) -> Range<Int> {
        let units = (rows + multiple - 1) / multiple
        let start = min(rows, part * units / parts * multiple)
        let end = part == parts - 1 ? rows : min(rows, (part + 1) * units / parts * multiple)
        return start..<end
    }
}

/// The core count, without Foundation (Encoding links without it).
enum System {
    static var activeProcessorCount: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}

/// Lets a closure over disjoint parts of shared buffers cross into
/// `concurrentPerform`; `ParallelRows.run` is what makes the parts disjoint.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
