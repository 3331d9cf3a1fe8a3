import CZlib
import Plumbing

/// zlib (RFC 1950) compression for the IDAT of the PNGs sent to kitty.
enum Zlib {
    /// The zlib stream for `input`, or nil if zlib fails (out of memory);
    /// callers then send the data uncompressed.
    ///
    /// `strategy` is zlib's: `Z_HUFFMAN_ONLY` skips string matching, which
    /// on PNG-filtered photo rows (noise-like residuals with few repeats)
    /// loses little size and runs several times faster.
    static func compress(_ input: [UInt8], level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY) -> [UInt8]? {
        let bound = Int(compressBound(uLong(input.count)))
        var outputCount = UInt(bound)
        var status = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: bound) { output, initialized in
            input.withUnsafeBufferPointer { input in
                status = pxview_deflate(
                    output.baseAddress, &outputCount, input.baseAddress, UInt(input.count),
                    min(9, max(0, level)), strategy)
            }
            initialized = status == Z_OK ? Int(outputCount) : 0
        }
        return status == Z_OK ? output : nil
    }

    /// A zlib stream like `compress(_:level:strategy:)` with Huffman-only
    /// coding, made by compressing `parts` slices in parallel (pigz's idea):
    /// raw deflate pieces joined at sync-flush boundaries, behind one header,
    /// with the Adler-32 of the whole combined from the pieces'. The result
    /// inflates to exactly `input`, whatever the number of parts.
    static func compressHuffmanOnly(_ input: [UInt8], level: Int32, parts requested: Int) -> [UInt8]? {
        let parts = max(1, min(requested, input.count / 65536))
        guard parts > 1 else { return compress(input, level: level, strategy: Z_HUFFMAN_ONLY) }
        let ranges = ParallelRows.ranges(parts: parts, rows: input.count)
        let clamped = min(9, max(0, level))
        let results = input.withUnsafeBufferPointer { source in
            // Each piece is one part: its deflate bytes (nil if zlib failed) and its Adler-32.
            ParallelRows.map(ranges) { range -> (piece: [UInt8]?, checksum: UInt) in
                let start = source.baseAddress! + range.lowerBound
                let bound = Int(pxview_deflate_piece_bound(UInt(range.count)))
                var count = UInt(bound)
                var status = Z_OK
                let piece = [UInt8](unsafeUninitializedCapacity: bound) { out, initialized in
                    status = pxview_deflate_piece(
                        out.baseAddress, &count, start, UInt(range.count), clamped, Z_HUFFMAN_ONLY,
                        range.upperBound == input.count ? 1 : 0)
                    initialized = status == Z_OK ? Int(count) : 0
                }
                return (status == Z_OK ? piece : nil, adler32(1, start, uInt(range.count)))
            }
        }
        let pieces = results.map(\.piece)
        let checksums = results.map(\.checksum)
        var adler = checksums[0]
        for index in 1..<parts {
            adler = adler32_combine(adler, checksums[index], off_t(ranges[index].count))
        }
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(pieces.reduce(6) { $0 + ($1?.count ?? 0) })
        for piece in pieces {
            guard let piece else { return nil }
            out += piece
        }
        out.appendBigEndian(UInt32(truncatingIfNeeded: adler))
        return out
    }

    /// CRC-32 as PNG chunks need it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
