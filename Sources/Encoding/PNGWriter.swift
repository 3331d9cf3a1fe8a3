import CShims
import Pixels
import Plumbing

/// PNG for kitty's `f=100` (and pxbench's test pictures): 8-bit RGB for
/// opaque images, else RGBA, every row Sub-filtered, Huffman-only deflate,
/// made by `pxview_kitty_png` in CShims in parallel pieces of rows.
///
/// For kitty the pieces come out as its commands, base64 and all, each in
/// its final form (`commands`): nothing is joined, copied or encoded again
/// after them, and `write` hands the first piece's commands on while they
/// are being made. Measured on the storm photo fitted to 800x533 (release,
/// one core): 2.2 ms for the commands against 12.8 ms for zlib's
/// Huffman-only deflate of the same filtered rows plus the PNG and base64
/// passes over its output, for the same size (394 KB of PNG; zlib 398 KB).
package enum PNGWriter {
    /// The PNG file of `image`, or nil for an empty image or when memory
    /// runs out.
    package static func encode(_ image: RGBAImage) -> [UInt8]? {
        var result: [UInt8]?
        withDescription(.image(image), firstKeys: [], chunkBytes: 0, parts: nil) { png, ranges in
            result = buffered(&png, ranges: ranges)
        }
        return result
    }

    /// kitty commands carrying `image` as a PNG: `ESC _ G` with
    /// `firstKeys` (and `m=1` when more follow) on the first, `q=2,m=1` on
    /// the next and `q=2,m=0` on the last, each with at most `chunkBytes`
    /// PNG bytes (a positive multiple of 3), base64. A PNG that fits one
    /// command has no `m` key. Nil for an empty image or when memory runs out.
    /// `parts`: how many pieces (tests); by default one per core, at most
    /// four (`ParallelRows.parts`), for large images.
    static func commands(_ image: RGBAImage, firstKeys: String, chunkBytes: Int, parts: Int? = nil) -> [UInt8]? {
        var result: [UInt8]?
        withDescription(.image(image), firstKeys: Array(firstKeys.utf8), chunkBytes: max(3, chunkBytes / 3 * 3), parts: parts) {
            png, ranges in
            result = buffered(&png, ranges: ranges)
        }
        return result
    }

    /// The same commands handed to `sink` as they are made, in order: the
    /// first piece's every 64 KB while it is being made (the others are
    /// made meanwhile, each into its own buffer, and follow). `sink` returns
    /// false to stop. False when memory ran out or the sink stopped: the
    /// transmission is then cut short, ended by an empty last command so
    /// the terminal waits for no more.
    ///
    /// The pixels are rows made as they are encoded (`PixelRows`: a
    /// resample's), each piece asking for a block's rows just before it
    /// encodes them, so the picture never exists whole. RGB when `rows`
    /// says it is opaque.
    static func write(
        _ rows: PixelRows, firstKeys: String, chunkBytes: Int, parts: Int? = nil,
        to sink: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        var result = false
        withoutActuallyEscaping(sink) { sink in
            let box = SinkBox(sink)
            withDescription(.rows(rows), firstKeys: Array(firstKeys.utf8), chunkBytes: max(3, chunkBytes / 3 * 3), parts: parts) {
                png, ranges in
                png.sink = { context, bytes, count in
                    let box = Unmanaged<SinkBox>.fromOpaque(context!).takeUnretainedValue()
                    return box.body(UnsafeRawBufferPointer(start: bytes, count: count)) ? 0 : 1
                }
                png.sink_context = Unmanaged.passUnretained(box).toOpaque()
                result = streamed(&png, ranges: ranges, sink: sink)
            }
            withExtendedLifetime(box) {}
        }
        return result
    }

    /// The closure behind the C sink.
    private final class SinkBox {
        let body: (UnsafeRawBufferPointer) -> Bool
        init(_ body: @escaping (UnsafeRawBufferPointer) -> Bool) { self.body = body }
    }

    /// The closure behind the C row source.
    private final class RowsBox: Sendable {
        let rows: PixelRows
        init(_ rows: PixelRows) { self.rows = rows }
    }

    /// What the pixels come from.
    private enum Source {
        case image(RGBAImage)
        case rows(PixelRows)

        var size: PixelSize {
            switch self {
            case .image(let image): image.size
            case .rows(let rows): rows.size
            }
        }
    }

    /// The encoder's description of `source` (alive during `body`) and the
    /// rows of each piece.
    private static func withDescription(
        _ source: Source, firstKeys: [UInt8], chunkBytes: Int, parts: Int?,
        _ body: (inout pxview_kitty_png, [Range<Int>]) -> Void
    ) {
        let size = source.size
        guard size.width > 0, size.height > 0 else { return }
        let count = parts ?? ParallelRows.parts(pixels: size.area, rows: size.height)
        let ranges = ParallelRows.ranges(parts: min(size.height, max(1, count)), rows: size.height)
        firstKeys.withUnsafeBufferPointer { keys in
            keys.withMemoryRebound(to: CChar.self) { keys in
                var png = pxview_kitty_png(
                    rgba: nil, width: Int32(size.width), height: Int32(size.height), channels: 4,
                    chunk_raw: Int32(chunkBytes), first_keys: keys.baseAddress, first_keys_length: keys.count, sink: nil,
                    sink_context: nil, rows: nil, rows_context: nil)
                switch source {
                case .image(let image):
                    png.channels = image.hasTransparency ? 4 : 3
                    image.pixels.withUnsafeBufferPointer { pixels in
                        png.rgba = pixels.baseAddress
                        body(&png, ranges)
                    }
                case .rows(let rows):
                    png.channels = rows.opaque ? 3 : 4
                    let box = RowsBox(rows)
                    png.rows = { context, first, count, into in
                        let box = Unmanaged<RowsBox>.fromOpaque(context!).takeUnretainedValue()
                        box.rows.fill(Int(first)..<Int(first + count), into!)
                    }
                    png.rows_context = Unmanaged.passUnretained(box).toOpaque()
                    withExtendedLifetime(box) { body(&png, ranges) }
                }
            }
        }
    }

    /// One piece into a buffer of its worst-case size (only pages written
    /// are ever touched): its bytes (nil on failure) and Adler-32.
    private static func piece(_ png: pxview_kitty_png, rows: Range<Int>) -> (bytes: [UInt8]?, adler: UInt32) {
        var png = png
        let capacity = pxview_kitty_png_piece_capacity(&png, Int32(rows.lowerBound), Int32(rows.upperBound))
        var adler: UInt32 = 0
        var status: Int32 = -1
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var length = 0
            status = pxview_kitty_png_piece(
                &png, Int32(rows.lowerBound), Int32(rows.upperBound), buffer.baseAddress, capacity, 0, &length, &adler)
            initialized = status == 0 ? length : 0
        }
        return (status == 0 ? bytes : nil, adler)
    }

    /// The Adler-32 of all the pieces' filtered rows, from each piece's.
    private static func combined(_ adlers: [UInt32], _ png: inout pxview_kitty_png, ranges: [Range<Int>]) -> UInt32 {
        var adler = adlers[0]
        for index in ranges.indices.dropFirst() {
            let length = pxview_kitty_png_filtered_length(
                &png, Int32(ranges[index].lowerBound), Int32(ranges[index].upperBound))
            adler = pxview_adler32_combine(adler, adlers[index], length)
        }
        return adler
    }

    /// The trailer of a transmission of several pieces.
    private static func trailer(_ png: inout pxview_kitty_png, adler: UInt32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(PXVIEW_KITTY_PNG_TRAILER_CAPACITY)) { buffer, initialized in
            initialized = pxview_kitty_png_trailer(&png, adler, buffer.baseAddress)
        }
    }

    /// The pieces in parallel, joined into the first one's buffer (grown
    /// once to the whole, then the others appended).
    private static func buffered(_ png: inout pxview_kitty_png, ranges: [Range<Int>]) -> [UInt8]? {
        let description = png
        let pieces = ParallelRows.map(ranges) { rows in piece(description, rows: rows) }
        guard var bytes = pieces[0].bytes, pieces.allSatisfy({ $0.bytes != nil }) else { return nil }
        guard pieces.count > 1 else { return bytes }
        let end = trailer(&png, adler: combined(pieces.map(\.adler), &png, ranges: ranges))
        bytes.reserveCapacity(pieces.reduce(end.count) { $0 + ($1.bytes?.count ?? 0) })
        for piece in pieces.dropFirst() { bytes += piece.bytes! }
        bytes += end
        return bytes
    }

    /// The first piece streams through `png`'s sink while the others are
    /// made into buffers; they and the trailer follow it through `sink`.
    private static func streamed(
        _ png: inout pxview_kitty_png, ranges: [Range<Int>], sink: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        let description = png
        let pieces = ParallelRows.map(ranges) { rows -> (bytes: [UInt8]?, adler: UInt32) in
            guard rows.lowerBound == 0 else { return piece(description, rows: rows) }
            var png = description
            let capacity = pxview_kitty_png_stream_capacity(&png)
            var adler: UInt32 = 0
            var status: Int32 = -1
            _ = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var length = 0
                status = pxview_kitty_png_piece(
                    &png, Int32(rows.lowerBound), Int32(rows.upperBound), buffer.baseAddress, capacity, 1, &length, &adler)
                initialized = 0
            }
            return (status == 0 ? [] : nil, adler)
        }
        var ok = pieces.allSatisfy { $0.bytes != nil }
        for piece in pieces.dropFirst() where ok {
            ok = piece.bytes!.withUnsafeBytes(sink)
        }
        if ok, pieces.count > 1 {
            ok = trailer(&png, adler: combined(pieces.map(\.adler), &png, ranges: ranges)).withUnsafeBytes(sink)
        }
        if !ok { _ = Array("\u{1B}_Gq=2,m=0\u{1B}\\".utf8).withUnsafeBytes(sink) }
        return ok
    }
}
