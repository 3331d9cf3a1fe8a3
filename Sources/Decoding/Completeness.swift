import Pixels

/// True when `bytes` hold a whole image of a format in the codec table, not
/// one cut short: what a download must pass before it is saved or cached (a
/// body can end early and still match a server's Content-Length). Each
/// row's `isComplete` says how its format is judged.
public func isCompleteImage(_ bytes: [UInt8], maxPixels: Int = DecodeOptions.defaultMaxPixels) -> Bool {
    guard let format = ImageFormat(sniffing: bytes) else { return false }
    return format.codec.isComplete(bytes, maxPixels)
}

/// JPEG: decoded at 1/8 scale (libjpeg still reads every scan, cheaply),
/// which must not end with libjpeg's "premature end of JPEG file"; other
/// recoverable warnings (stray bytes between markers) are no reason to
/// refuse a photo the viewer shows.
func jpegIsComplete(_ bytes: [UInt8], maxPixels: Int) -> Bool {
    let options = DecodeOptions(maxPixels: maxPixels, targetSize: PixelSize(width: 1, height: 1))
    guard let decoded = try? decodeJPEG(bytes, options: options) else { return false }
    return !decoded.warnings.contains { $0.hasPrefix("premature end") }
}

/// PNG: the chunks are walked, by their lengths, from after the signature
/// to IEND and its CRC. Each is a 4-byte big-endian length (at most
/// 2^31 - 1), a 4-byte type, the data and a 4-byte CRC.
func pngReachesEnd(_ bytes: [UInt8]) -> Bool {
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length <= Int(Int32.max) else { return false }
        let type = bytes[(offset + 4)..<(offset + 8)]
        let end = offset + 12 + length
        guard end <= bytes.count else { return false }
        if type.elementsEqual("IEND".utf8) { return true }
        offset = end
    }
    return false
}
