import Pixels

/// True when `bytes` hold a whole image of a format in the codec table, not
/// one cut short: what a download must pass before it is saved or cached (a
/// body can end early and still match a server's Content-Length). Each
/// row's `isComplete` says how its format is judged.
package func isCompleteImage(_ bytes: [UInt8], maxPixels: Int = DecodeOptions.defaultMaxPixels) -> Bool {
    guard let format = ImageFormat(sniffing: bytes) else { return false }
    return format.codec.isComplete(bytes, maxPixels)
}

/// JPEG: decoded at 1/8 scale (libjpeg still reads every scan, cheaply),
/// which must not end with libjpeg's "premature end of JPEG file"; other
/// recoverable warnings (stray bytes between markers) are no reason to
/// refuse a photo the viewer shows.
func jpegIsComplete(_ bytes: [UInt8], maxPixels: Int) -> Bool {
    var options = DecodeOptions(maxPixels: maxPixels, targetSize: PixelSize(width: 1, height: 1))
    options.convertsColour = false
    guard let decoded = try? decodeJPEG(bytes, options: options) else { return false }
    return !decoded.warnings.contains { $0.hasPrefix("premature end") }
}

/// PNG: the chunks are walked (`walkPNGChunks`) from after the signature to
/// IEND and its CRC; a length past 2^31 - 1 is no PNG's.
func pngReachesEnd(_ bytes: [UInt8]) -> Bool {
    var reached = false
    walkPNGChunks(bytes) { chunk in
        guard chunk.data.count <= Int(Int32.max), chunk.end <= bytes.count else { return false }
        reached = chunk.type == "IEND"
        return !reached
    }
    return reached
}
