import CShims
import Pixels
import Plumbing

/// PNG for kitty's `f=100` (and pxbench's test pictures): 8-bit RGB for
/// opaque images, else RGBA, every row Sub-filtered, Huffman-only deflate,
/// made by `pxview_kitty_png` in CShims in parallel pieces of rows.
///
/// For kitty the pieces come out as its commands, base64 and all, each in
/// its final form (`commands`): nothing is joined, copied or encoded again
/// after them. Measured on the storm photo fitted to 800x533 (release, one
/// core): 2.2 ms for the commands against 12.8 ms for zlib's Huffman-only
/// deflate of the same filtered rows plus the PNG and base64 passes over
/// its output, for the same size (394 KB of PNG; zlib 398 KB).
public enum PNGWriter {
    /// The PNG file of `image`, or nil for an empty image or when memory
    /// runs out.
    public static func encode(_ image: RGBAImage) -> [UInt8]? {
        encode(image, firstKeys: [], chunkBytes: 0, parts: nil)
    }

    /// kitty commands carrying `image` as a PNG: `ESC _ G` with
    /// `firstKeys` (and `m=1` when more follow) on the first, `q=2,m=1` on
    /// the next and `q=2,m=0` on the last, each with at most `chunkBytes`
    /// PNG bytes (a positive multiple of 3), base64. A PNG that fits one
    /// command has no `m` key. Nil for an empty image or when memory runs out.
    /// `parts`: how many pieces (tests); by default one per core for large images.
    static func commands(_ image: RGBAImage, firstKeys: String, chunkBytes: Int, parts: Int? = nil) -> [UInt8]? {
        encode(image, firstKeys: Array(firstKeys.utf8), chunkBytes: max(3, chunkBytes / 3 * 3), parts: parts)
    }

    /// Pieces of rows, one per core, each written at its own place in one
    /// buffer sized for the worst case (only pages written are ever
    /// touched), then moved up behind the one before.
    private static func encode(_ image: RGBAImage, firstKeys: [UInt8], chunkBytes: Int, parts: Int?) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        let channels: Int32 = image.hasTransparency ? 4 : 3
        let ranges = ParallelRows.ranges(
            parts: min(image.height, max(1, parts ?? ParallelRows.parts(pixels: image.width * image.height, rows: image.height))),
            rows: image.height)
        return image.pixels.withUnsafeBufferPointer { pixels in
            firstKeys.withUnsafeBufferPointer { keys in
                keys.withMemoryRebound(to: CChar.self) { keys in
                    var png = pxview_kitty_png(
                        rgba: pixels.baseAddress, width: Int32(image.width), height: Int32(image.height),
                        channels: channels, chunk_raw: Int32(chunkBytes), first_keys: keys.baseAddress,
                        first_keys_length: keys.count)
                    return encode(&png, ranges: ranges)
                }
            }
        }
    }

    private static func encode(_ png: inout pxview_kitty_png, ranges: [Range<Int>]) -> [UInt8]? {
        let capacities = ranges.map { pxview_kitty_png_piece_capacity(&png, Int32($0.lowerBound), Int32($0.upperBound)) }
        var offsets = [0]
        for capacity in capacities { offsets.append(offsets[offsets.count - 1] + capacity) }
        let total = offsets[offsets.count - 1] + Int(PXVIEW_KITTY_PNG_TRAILER_CAPACITY)
        var failed = false
        let description = png
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            let base = buffer.baseAddress!
            // Each piece: its length (0 on failure) and its rows' Adler-32.
            let pieces = ParallelRows.map(ranges) { rows -> (count: Int, adler: UInt32) in
                var png = description
                let index = ranges.firstIndex(of: rows)!
                var adler: UInt32 = 0
                let count = pxview_kitty_png_piece(
                    &png, Int32(rows.lowerBound), Int32(rows.upperBound), base + offsets[index], capacities[index], &adler)
                return (count, adler)
            }
            failed = pieces.contains { $0.count == 0 }
            var end = pieces[0].count
            var adler = pieces[0].adler
            for index in pieces.indices.dropFirst() where !failed {
                UnsafeMutableRawPointer(base + end).copyMemory(from: base + offsets[index], byteCount: pieces[index].count)
                end += pieces[index].count
                let length = pxview_kitty_png_filtered_length(
                    &png, Int32(ranges[index].lowerBound), Int32(ranges[index].upperBound))
                adler = pxview_adler32_combine(adler, pieces[index].adler, length)
            }
            if pieces.count > 1, !failed { end += pxview_kitty_png_trailer(&png, adler, base + end) }
            initialized = failed ? 0 : end
        }
        return failed ? nil : bytes
    }
}
