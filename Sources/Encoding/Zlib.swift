import CZlib

/// zlib (RFC 1950) compression for kitty's `o=z` payloads and PNG's IDAT.
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
                status = pxview_deflate(output.baseAddress, &outputCount, input.baseAddress, UInt(input.count),
                                        min(9, max(0, level)), strategy)
            }
            initialized = status == Z_OK ? Int(outputCount) : 0
        }
        return status == Z_OK ? output : nil
    }

    /// CRC-32 as PNG chunks need it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
