import Pixels

/// What pxview needs from a JPEG's header segments, found by walking its
/// markers up to the first scan. Every read is bounds-checked: the bytes are
/// untrusted and a hostile length or offset must only end the walk.
struct JPEGMarkerInfo: Equatable {
    /// EXIF orientation from the first APP1 "Exif" segment, 1 when absent.
    var orientation = 1
    /// An APP14 "Adobe" segment is present: CMYK/YCCK samples are stored inverted.
    var hasAdobeMarker = false
    /// The walk reached a start-of-scan marker, i.e. the header is complete.
    var reachedScan = false
    /// The data ran out inside the header, before any start-of-scan marker.
    var headerTruncated = false
    /// The frame header's component count (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK).
    var componentCount: Int?
    /// The APP2 `ICC_PROFILE` chunks, in file order: their sequence number,
    /// the count they declare, and where their profile bytes are.
    var profileChunks: [ProfileChunk] = []
    /// Where the first APP1 `Exif` segment's TIFF stream is.
    var exif: Range<Int>?

    struct ProfileChunk: Equatable {
        var sequence: Int
        var count: Int
        var bytes: Range<Int>
    }

    init(scanning bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { walk($0) }
    }

    private mutating func walk(_ data: UnsafeBufferPointer<UInt8>) {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return }
        var i = 2
        var foundOrientation = false
        headerTruncated = true  // until a scan or end-of-image marker proves otherwise
        while i < data.count {
            guard data[i] == 0xFF else {
                headerTruncated = false  // garbage, not a cut
                return
            }
            while i < data.count, data[i] == 0xFF { i += 1 }  // fill bytes
            guard i < data.count else { return }
            let marker = data[i]
            i += 1
            switch marker {
            case 0xDA:
                reachedScan = true
                headerTruncated = false
                return
            case 0xD9:
                headerTruncated = false
                return
            case 0x01, 0xD0...0xD7:
                continue  // stand-alone markers carry no length
            default:
                break
            }
            guard i + 2 <= data.count else { return }
            let length = Int(data[i]) << 8 | Int(data[i + 1])
            guard length >= 2 else {
                headerTruncated = false
                return
            }
            guard i + length <= data.count else { return }
            let payload = UnsafeBufferPointer(rebasing: data[(i + 2)..<(i + length)])
            if marker == 0xE1, exif == nil, payload.starts(with: exifHeader) {
                exif = (i + 2 + exifHeader.count)..<(i + length)
            }
            if marker == 0xE1, !foundOrientation, payload.starts(with: exifHeader),
                let value = tiffOrientation(UnsafeBufferPointer(rebasing: payload[exifHeader.count...]))
            {
                orientation = value
                foundOrientation = true
            } else if marker == 0xEE, payload.starts(with: adobeHeader) {
                hasAdobeMarker = true
            } else if marker == 0xE2, payload.count > profileHeader.count + 2, payload.starts(with: profileHeader) {
                let at = i + 2 + profileHeader.count
                profileChunks.append(
                    ProfileChunk(sequence: Int(data[at]), count: Int(data[at + 1]), bytes: (at + 2)..<(i + length)))
            } else if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), payload.count >= 6 {
                // A frame header (SOF0-15 but DHT, JPG and DAC): its component count at byte 5.
                componentCount = Int(payload[5])
            }
            i += length
        }
    }
}

/// Reads EXIF orientation (1-8) from JPEG APP1; 1 when absent or unparseable. Exposed for tests.
package func exifOrientation(inJPEG bytes: [UInt8]) -> Int {
    JPEGMarkerInfo(scanning: bytes).orientation
}

/// EXIF orientation from a PNG's eXIf chunk, 1 when there is none.
func exifOrientation(inPNG bytes: [UInt8]) -> Int {
    var orientation = 1
    walkPNGChunks(bytes) { chunk in
        guard chunk.type == "eXIf" else { return chunk.type != "IEND" }
        bytes.withUnsafeBufferPointer { data in
            var payload = UnsafeBufferPointer(rebasing: data[chunk.data])
            // The spec says the chunk is a bare TIFF stream; some writers keep the JPEG "Exif\0\0" prefix.
            if payload.starts(with: exifHeader) { payload = UnsafeBufferPointer(rebasing: payload[exifHeader.count...]) }
            orientation = tiffOrientation(payload) ?? 1
        }
        return false
    }
    return orientation
}

private let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
private let adobeHeader: [UInt8] = Array("Adobe".utf8)
private let profileHeader: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
private let orientationTag = 0x0112

/// The Orientation entry of IFD0 in a TIFF stream (either byte order), nil
/// when missing, out of range or anywhere out of bounds.
func tiffOrientation(_ tiff: UnsafeBufferPointer<UInt8>) -> Int? {
    guard tiff.count >= 8 else { return nil }
    let bigEndian: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): bigEndian = false  // "II"
    case (0x4D, 0x4D): bigEndian = true  // "MM"
    default: return nil
    }
    guard readUInt16(tiff, at: 2, bigEndian: bigEndian) == 42,
        let ifdOffset = readUInt32(tiff, at: 4, bigEndian: bigEndian).map(Int.init),
        let entryCount = readUInt16(tiff, at: ifdOffset, bigEndian: bigEndian)
    else { return nil }
    for entry in 0..<Int(entryCount) {
        let at = ifdOffset + 2 + entry * 12
        guard let tag = readUInt16(tiff, at: at, bigEndian: bigEndian) else { return nil }
        guard Int(tag) == orientationTag else { continue }
        let type = readUInt16(tiff, at: at + 2, bigEndian: bigEndian)
        let value: Int?
        switch type {
        case 3: value = readUInt16(tiff, at: at + 8, bigEndian: bigEndian).map(Int.init)  // SHORT, the standard
        case 4: value = readUInt32(tiff, at: at + 8, bigEndian: bigEndian).map(Int.init)  // LONG, seen in the wild
        default: value = nil
        }
        guard let value, (1...8).contains(value) else { return nil }
        return value
    }
    return nil
}

func readUInt16(_ data: UnsafeBufferPointer<UInt8>, at offset: Int, bigEndian: Bool) -> UInt16? {
    guard offset >= 0, offset <= data.count - 2 else { return nil }
    let a = UInt16(data[offset])
    let b = UInt16(data[offset + 1])
    return bigEndian ? a << 8 | b : b << 8 | a
}

func readUInt32(_ data: UnsafeBufferPointer<UInt8>, at offset: Int, bigEndian: Bool) -> UInt32? {
    guard let first = readUInt16(data, at: offset, bigEndian: bigEndian),
        let second = readUInt16(data, at: offset + 2, bigEndian: bigEndian)
    else { return nil }
    return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
}
