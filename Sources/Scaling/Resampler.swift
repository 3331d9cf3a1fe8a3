import CShims
import Foundation
import Pixels
import Plumbing

/// How a `Resampler` enlarges (and interpolates at one-to-one scale).
package enum UpscaleFilter: String, Sendable, CaseIterable {
    /// Linear between the two nearest pixels: soft, never overshoots.
    case bilinear
    /// Cubic through four pixels (Keys, a = −0.5): sharper; reproduces
    /// linear ramps exactly but rings slightly (a level or two) at hard edges.
    case catmullRom
}

/// Resamples RGBA images: area averaging when shrinking, interpolation
/// (Catmull-Rom by default) when enlarging, chosen per axis.
///
/// Colour is filtered premultiplied by alpha, so fully transparent pixels
/// never bleed their (meaningless) RGB into visible neighbours; the result is
/// un-premultiplied back to straight alpha. A band of output rows whose
/// source block is all opaque skips the premultiply work (one transparent
/// pixel in the block sends the whole band down the premultiplied path).
///
/// The passes run vertical first, one output row at a time: the source rows
/// an output row needs are combined into a single float row (contiguous
/// multiply-adds the compiler vectorises), which is then filtered
/// horizontally. The temporary row is small and private to each band of
/// output rows, so bands run in parallel without sharing anything.
package struct Resampler: Sendable {
    /// How many bands of output rows large jobs are split into, run at once.
    package let threads: Int
    /// The interpolation used along axes that are not shrunk.
    package let upscaling: UpscaleFilter

    /// Below this many estimated multiply-adds a job runs on the calling
    /// thread: dispatching costs more than it saves.
    let parallelThreshold: Int

    package init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, upscaling: UpscaleFilter = .catmullRom) {
        self.init(threads: threads, upscaling: upscaling, parallelThreshold: 1 << 20)
    }

    /// Tests lower the threshold to run small images through the parallel path.
    init(threads: Int, upscaling: UpscaleFilter = .catmullRom, parallelThreshold: Int) {
        self.threads = max(1, threads)
        self.upscaling = upscaling
        self.parallelThreshold = max(0, parallelThreshold)
    }

    /// The whole image at exactly `size` pixels.
    package func resize(_ image: RGBAImage, to size: PixelSize) -> RGBAImage {
        resample(image, from: SourceRect(covering: image.size), to: size)
    }

    /// Resamples the fractional `source` region of `image` to exactly `size`
    /// pixels.
    ///
    /// A region with a non-finite value or a negative width or height stands
    /// for the whole image; parts of a region outside the image (a negative
    /// x or y included) repeat the edge pixels. An
    /// empty image gives a transparent result; an empty size an empty one.
    package func resample(_ image: RGBAImage, from source: SourceRect, to size: PixelSize) -> RGBAImage {
        guard !size.isEmpty, !image.size.isEmpty else {
            return RGBAImage(width: size.width, height: size.height)
        }
        let region = Self.usable(source, in: image.size)
        if let crop = Self.exactCrop(region, size: size, imageSize: image.size) {
            return image.cropped(to: crop)
        }
        let (horizontal, vertical) = axes(image, region: region, size: size)
        let columnsRead = horizontal.highest - horizontal.lowest
        let estimatedWork = size.height * (vertical.stride * columnsRead + size.width * horizontal.stride) * 4
        let bands = estimatedWork < parallelThreshold ? 1 : min(threads, size.height)

        let byteCount = size.area * RGBAImage.bytesPerPixel
        let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            image.pixels.withUnsafeBufferPointer { sourceBytes in
                guard let sourceBase = sourceBytes.baseAddress, let outputBase = buffer.baseAddress else { return }
                let pass = SeparablePass(
                    source: sourceBase, sourceWidth: image.width, output: outputBase, firstRow: 0, outputWidth: size.width,
                    horizontal: horizontal, vertical: vertical)
                ParallelRows.run(parts: bands, rows: size.height) { rows in pass.run(rows: rows) }
            }
            initialized = byteCount
        }
        return RGBAImage(width: size.width, height: size.height, pixels: output)
    }

    /// The same resample, its rows made when asked (`PixelRows`), a band
    /// at a time by the thread that wants them: the kitty encoder resamples
    /// each block of rows just before it encodes them. A row comes out as
    /// `resample` makes it when its band is all opaque or all takes the
    /// premultiplied path; where a band mixes, the two paths may round a
    /// level apart (`ResamplerPathTests`). `opaque` when every source pixel
    /// read is.
    package func rows(_ image: RGBAImage, from source: SourceRect, to size: PixelSize) -> PixelRows {
        guard !size.isEmpty, !image.size.isEmpty else {
            return PixelRows(RGBAImage(width: size.width, height: size.height))
        }
        let region = Self.usable(source, in: image.size)
        if let crop = Self.exactCrop(region, size: size, imageSize: image.size) {
            // Read in place: a cropped copy only to test it was the whole
            // output again (14.7 MB at 2560x1440), which `rows` exists to avoid.
            let opaque = image.pixels.withUnsafeBufferPointer {
                SeparablePass.isOpaque(
                    $0.baseAddress!, sourceWidth: image.width, rows: crop.y..<(crop.y + crop.height),
                    columns: crop.x..<(crop.x + crop.width))
            }
            return PixelRows(size: size, opaque: opaque) { rows, destination in
                image.pixels.withUnsafeBufferPointer { pixels in
                    for (offset, y) in rows.enumerated() {
                        (destination + offset * size.width * 4).update(
                            from: pixels.baseAddress! + ((crop.y + y) * image.width + crop.x) * 4, count: size.width * 4)
                    }
                }
            }
        }
        let (horizontal, vertical) = axes(image, region: region, size: size)
        let opaque = image.pixels.withUnsafeBufferPointer { sourceBytes in
            SeparablePass.readsOnlyOpaque(
                sourceBytes.baseAddress!, sourceWidth: image.width, horizontal: horizontal, vertical: vertical,
                rows: 0..<size.height)
        }
        return PixelRows(size: size, opaque: opaque) { rows, destination in
            image.pixels.withUnsafeBufferPointer { sourceBytes in
                // Known opaque as a whole: no block need scan its rows again.
                SeparablePass(
                    source: sourceBytes.baseAddress!, sourceWidth: image.width, output: destination, firstRow: rows.lowerBound,
                    outputWidth: size.width, horizontal: horizontal, vertical: vertical, knownOpaque: opaque
                ).run(rows: rows)
            }
        }
    }

    /// Both axes' taps for `region` of `image` at `size`.
    private func axes(_ image: RGBAImage, region: SourceRect, size: PixelSize) -> (FilterAxis, FilterAxis) {
        (
            FilterAxis(
                sourceLength: image.width, origin: region.x, length: region.width, outputs: size.width, upscaling: upscaling),
            FilterAxis(
                sourceLength: image.height, origin: region.y, length: region.height, outputs: size.height,
                upscaling: upscaling)
        )
    }

    /// The region to use: the given one, or the whole image when it is not a
    /// real rectangle (NaN, infinite, negative size).
    private static func usable(_ source: SourceRect, in imageSize: PixelSize) -> SourceRect {
        let values = [source.x, source.y, source.width, source.height]
        guard values.allSatisfy(\.isFinite), source.width >= 0, source.height >= 0 else {
            return SourceRect(covering: imageSize)
        }
        return source
    }

    /// The integer crop equivalent to `region` when it is whole pixels inside
    /// the image at exactly one source pixel per output pixel: copying is
    /// then both exact and far cheaper than filtering.
    private static func exactCrop(_ region: SourceRect, size: PixelSize, imageSize: PixelSize) -> PixelRect? {
        guard region.width == Double(size.width), region.height == Double(size.height),
            region.x == region.x.rounded(), region.y == region.y.rounded(),
            region.x >= 0, region.y >= 0,
            region.x + region.width <= Double(imageSize.width),
            region.y + region.height <= Double(imageSize.height)
        else { return nil }
        return PixelRect(x: Int(region.x), y: Int(region.y), width: size.width, height: size.height)
    }
}

/// One resample's pointers and taps, shared read-only by the bands that
/// write disjoint output rows.
///
/// `@unchecked Sendable`: it holds raw pointers, valid while the builder's
/// `withUnsafeBufferPointer` lasts (`Resampler.resample`, and each block a
/// `rows` picture fills), and written only at rows the calling band owns.
private struct SeparablePass: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let sourceWidth: Int
    /// Where output row `firstRow` goes; the rows after it follow.
    let output: UnsafeMutablePointer<UInt8>
    let firstRow: Int
    let outputWidth: Int
    let horizontal: FilterAxis
    let vertical: FilterAxis
    /// True when the caller already knows every pixel read is opaque.
    var knownOpaque = false

    /// True when every source pixel output rows `rows` read is opaque.
    static func readsOnlyOpaque(
        _ source: UnsafePointer<UInt8>, sourceWidth: Int, horizontal: FilterAxis, vertical: FilterAxis, rows: Range<Int>
    ) -> Bool {
        guard !rows.isEmpty else { return true }
        // Starts never decrease down the image, so the first row reads the lowest source row.
        let sourceRows =
            vertical.starts[rows.lowerBound]..<(rows.lazy.map { vertical.starts[$0] + vertical.counts[$0] }.max() ?? 0)
        return isOpaque(source, sourceWidth: sourceWidth, rows: sourceRows, columns: horizontal.lowest..<horizontal.highest)
    }

    /// Filters output rows `rows`, choosing the opaque fast path when every
    /// source pixel these rows read is opaque.
    func run(rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let firstColumn = horizontal.lowest
        let columns = horizontal.highest - firstColumn
        // Past the columns, a tap stride of zeros: `filterRow` reads a whole
        // stride of taps from any run's start (its missing weights are 0).
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns + horizontal.stride)
        (row + columns).initialize(repeating: .zero, count: horizontal.stride)
        defer { row.deallocate() }
        let opaque =
            knownOpaque
            || Self.readsOnlyOpaque(source, sourceWidth: sourceWidth, horizontal: horizontal, vertical: vertical, rows: rows)

        vertical.withTaps { verticalTaps in
            horizontal.withTaps { horizontalTaps in
                for y in rows {
                    let start = verticalTaps.starts[y]
                    let weightBase = y * verticalTaps.stride
                    let lines = (0..<verticalTaps.counts[y]).map { tap in
                        (source + ((start + tap) * sourceWidth + firstColumn) * 4, verticalTaps.weights[weightBase + tap])
                    }
                    if opaque {
                        accumulateOpaque(lines, into: row, count: columns)
                    } else {
                        for (tap, (line, weight)) in lines.enumerated() {
                            accumulatePremultiplied(line, weight: weight, into: row, count: columns, first: tap == 0)
                        }
                    }
                    filterRow(
                        row, firstColumn: firstColumn, taps: horizontalTaps, into: output + (y - firstRow) * outputWidth * 4,
                        opaque: opaque)
                }
            }
        }
    }

    /// True when every pixel in the block has alpha 255. ANDs whole pixels
    /// per row (no early exit inside a row) so the loop vectorises.
    static func isOpaque(
        _ source: UnsafePointer<UInt8>, sourceWidth: Int, rows: Range<Int>, columns: Range<Int>
    ) -> Bool {
        let alphaMask = UInt32(littleEndian: 0xFF00_0000)
        for y in rows {
            let line = UnsafeRawPointer(source + (y * sourceWidth + columns.lowerBound) * 4)
            var all = UInt32.max
            for x in 0..<columns.count {
                all &= line.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            }
            if all & alphaMask != alphaMask { return false }
        }
        return true
    }

    /// `row = Σ weight × line`, channel by channel: flat float loops the
    /// compiler vectorises. Up to four source lines are summed per sweep so
    /// the float row is read and written once per four taps, not per tap.
    /// The first sweep stores instead of adding to a cleared row: the same
    /// sums (0 + x is x), without first clearing a float row per output row
    /// (44 MB for a 1920x1280 photo enlarged to 2160x1440, 7 % of that
    /// drawing's instructions).
    private func accumulateOpaque(
        _ lines: [(UnsafePointer<UInt8>, Float)], into row: UnsafeMutablePointer<SIMD4<Float>>, count: Int
    ) {
        let n = count * 4
        row.withMemoryRebound(to: Float.self, capacity: n) { values in
            var next = 0
            while next < lines.count {
                let group = min(4, lines.count - next)
                let first = next == 0
                let (l0, w0) = lines[next]
                switch group {
                case 1:
                    Self.sweep(values, n, first: first) { k in w0 * Float(l0[k]) }
                case 2:
                    let (l1, w1) = lines[next + 1]
                    Self.sweep(values, n, first: first) { k in w0 * Float(l0[k]) + w1 * Float(l1[k]) }
                case 3:
                    let (l1, w1) = lines[next + 1]
                    let (l2, w2) = lines[next + 2]
                    Self.sweep(values, n, first: first) { k in
                        w0 * Float(l0[k]) + w1 * Float(l1[k]) + w2 * Float(l2[k])
                    }
                default:
                    let (l1, w1) = lines[next + 1]
                    let (l2, w2) = lines[next + 2]
                    let (l3, w3) = lines[next + 3]
                    Self.sweep(values, n, first: first) { k in
                        (w0 * Float(l0[k]) + w1 * Float(l1[k])) + (w2 * Float(l2[k]) + w3 * Float(l3[k]))
                    }
                }
                next += group
            }
        }
    }

    /// `values[k] = term(k)` on the first sweep, `values[k] += term(k)` after.
    @inline(__always)
    private static func sweep(_ values: UnsafeMutablePointer<Float>, _ n: Int, first: Bool, _ term: (Int) -> Float) {
        if first {
            for k in 0..<n { values[k] = term(k) }
        } else {
            for k in 0..<n { values[k] += term(k) }
        }
    }

    /// `row (+)= weight × (r·a, g·a, b·a, a)`: colour weighted by alpha, so a
    /// transparent pixel contributes nothing but its zero alpha.
    private func accumulatePremultiplied(
        _ line: UnsafePointer<UInt8>, weight: Float, into row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, first: Bool
    ) {
        for x in 0..<count {
            let pixel = line + x * 4
            let alphaWeight = weight * Float(pixel[3])
            let value = SIMD4<Float>(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), 1) * alphaWeight
            row[x] = first ? value : row[x] + value
        }
    }

    /// Horizontal pass over one vertically filtered row, rounding to bytes.
    /// Opaque rows go to `pxview_resample_row_opaque` (SSE2, the same float
    /// operations in the same order, so the same bytes): 75 instructions a
    /// pixel here, 37 there. The premultiplied path stays scalar per
    /// channel: the generic SIMD clamp helpers do not inline and cost more
    /// than the filtering itself.
    private func filterRow(
        _ row: UnsafeMutablePointer<SIMD4<Float>>, firstColumn: Int, taps: FilterAxis.Taps,
        into destination: UnsafeMutablePointer<UInt8>, opaque: Bool
    ) {
        if opaque {
            // The C pass reads each tap's weight spread over four floats:
            // the vectors' own layout.
            pxview_resample_row_opaque(
                UnsafeRawPointer(row).assumingMemoryBound(to: Float.self), firstColumn, taps.starts.baseAddress,
                taps.counts.baseAddress, UnsafeRawPointer(taps.vectorWeights).assumingMemoryBound(to: Float.self),
                taps.stride, outputWidth, destination)
            return
        }
        // A whole stride of taps for every pixel, the weights already in
        // vectors: the weights past a run's count are 0 and add nothing (the
        // same sums), and a tap is a load, a multiply and an add. Measured
        // with callgrind enlarging a 1920x1280 photo to 2160x1440: 73
        // instructions an output pixel over each run's own count, 61 so
        // (14.4 -> 12.5 ms of CPU).
        let stride = taps.stride
        var weights = taps.vectorWeights
        for x in 0..<outputWidth {
            let pixels = row + (taps.starts[x] &- firstColumn)
            var sum = pixels[0] * weights[0]
            var tap = 1
            while tap < stride {
                sum += pixels[tap] * weights[tap]
                tap &+= 1
            }
            weights += stride
            var red = sum.x
            var green = sum.y
            var blue = sum.z
            let alpha = sum.w
            // True division, not a reciprocal multiply: it keeps exact
            // ties exact, so both paths round opaque pixels alike.
            if alpha > 0 {
                red /= alpha
                green /= alpha
                blue /= alpha
            } else {
                red = 0
                green = 0
                blue = 0
            }
            let pixel = destination + x * 4
            pixel[0] = Self.byte(red)
            pixel[1] = Self.byte(green)
            pixel[2] = Self.byte(blue)
            pixel[3] = Self.byte(alpha)
        }
    }

    /// Rounds to the nearest byte, ties to even, clamping to 0...255.
    ///
    /// Adding 2²³ leaves a float whose last mantissa bits are the value
    /// rounded by the FPU, so the byte is read from the bit pattern; this
    /// avoids the range checks of `UInt8(_: Float)`, which cost more than
    /// the filtering. The clamp keeps floating-point noise from wrapping.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        let clamped = min(max(value, 0), 255)
        return UInt8(truncatingIfNeeded: (clamped + 8_388_608).bitPattern)
    }
}
