import CZlib

/// zlib (RFC 1950) compression for kitty's `o=z` payloads and PNG's IDAT.
enum Zlib {
    /// The zlib stream for `input`, or nil if zlib fails (out of memory);
    /// callers then send the data uncompressed.
    static func compress(_ input: [UInt8], level: Int32) -> [UInt8]? {
        let bound = Int(compressBound(uLong(input.count)))
        var outputCount = uLongf(bound)
        var status = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: bound) { output, initialized in
            input.withUnsafeBufferPointer { input in
                status = compress2(output.baseAddress, &outputCount, input.baseAddress, uLong(input.count),
                                   min(9, max(0, level)))
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
