import Pixels

/// A minimal PNG encoder for kitty's `f=100`: 8-bit RGB (opaque images) or
/// RGBA, no interlace, every row Paeth-filtered, one IDAT from zlib.
///
/// Paeth alone is the usual best single filter for photos; per-row
/// adaptive filter choice would cost four filter passes for a few percent.
/// libpng is not needed for this: the format is a signature, three chunks
/// and zlib's CRC.
enum PNGWriter {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG file, or nil if zlib fails.
    static func encode(_ image: RGBAImage, level: Int32) -> [UInt8]? {
        let opaque = !image.hasTransparency
        let channels = opaque ? 3 : 4
        guard let compressed = Zlib.compress(filteredScanlines(image, channels: channels), level: level) else {
            return nil
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        // Bit depth 8, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, no interlace.
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        var file = signature
        file.reserveCapacity(compressed.count + 64)
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", compressed, to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to file: inout [UInt8]) {
        file.appendBigEndian(UInt32(data.count))
        let typeStart = file.count
        file.appendASCII(type)
        file += data
        file.appendBigEndian(Zlib.crc32(file[typeStart...]))
    }

    /// Each row: filter byte 4 (Paeth), then the row's bytes minus the Paeth predictor.
    private static func filteredScanlines(_ image: RGBAImage, channels: Int) -> [UInt8] {
        let width = image.width, height = image.height
        let rowBytes = width * channels
        let total = height * (rowBytes + 1)
        // Rows in the output's channel layout, so the predictor reads unfiltered neighbours.
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            image.pixels.withUnsafeBufferPointer { pixels in
                var o = 0
                for y in 0..<height {
                    current.withUnsafeMutableBufferPointer { row in
                        var s = y * width * 4
                        var d = 0
                        for _ in 0..<width {
                            for c in 0..<channels { row[d &+ c] = pixels[s &+ c] }
                            s &+= 4
                            d &+= channels
                        }
                    }
                    out[o] = 4
                    o &+= 1
                    current.withUnsafeBufferPointer { row in
                        previous.withUnsafeBufferPointer { above in
                            for i in 0..<rowBytes {
                                let a = i >= channels ? Int(row[i &- channels]) : 0
                                let b = Int(above[i])
                                let c = i >= channels ? Int(above[i &- channels]) : 0
                                out[o &+ i] = row[i] &- paeth(a, b, c)
                            }
                        }
                    }
                    o &+= rowBytes
                    swap(&previous, &current)
                }
            }
            initialized = total
        }
    }

    @inline(__always)
    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> UInt8 {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return UInt8(truncatingIfNeeded: a) }
        return UInt8(truncatingIfNeeded: pb <= pc ? b : c)
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
