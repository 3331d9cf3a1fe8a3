import CShims
import Pixels

/// Decodes a PNG through the libpng shim, then applies any eXIf orientation.
///
/// With a target size the PNG is averaged down by the largest whole factor
/// whose output still covers the fitted size, as DCT scaling does for JPEG,
/// and (when not interlaced) read row by row, so a 10000x10000 PNG shown in
/// a window never has its 400 MB in memory. The pixels are written straight
/// into the array that is kept: no second copy.
func decodePNG(_ file: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
    // libpng sees the file only up to a chunk that claims more than is left.
    let bytes = pngOverlongChunk(file).map { Array(file[..<$0]) } ?? file
    var result = pxview_png_result()
    let headerStatus = bytes.withUnsafeBufferPointer { data in
        pxview_png_header(data.baseAddress, data.count, max(0, options.maxPixels), &result)
    }
    try check(headerStatus, result, options: options)
    let orientation = Orientation(exifValue: exifOrientation(inPNG: bytes))
    let stored = PixelSize(width: Int(result.width), height: Int(result.height))
    let fullSize = orientation.displaySize(ofStored: stored)
    let factor = pngReduction(imageSize: fullSize, target: options.targetSize)
    let outSize = PixelSize(width: (stored.width + factor - 1) / factor, height: (stored.height + factor - 1) / factor)
    let byteCount = outSize.area * 4
    var status = PXVIEW_PNG_OK
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        status = bytes.withUnsafeBufferPointer { data in
            pxview_png_decode_into(
                data.baseAddress, data.count, max(0, options.maxPixels), UInt32(factor), buffer.baseAddress, &result)
        }
        // Every byte is written on success; on failure the array is thrown away.
        initialized = byteCount
    }
    try check(status, result, options: options)
    let message = resultMessage(result)
    var warnings: [String] = []
    if result.trailing_damage != 0 {
        warnings.append("damaged PNG data after the image" + (message.isEmpty ? "" : " (\(message))"))
    }
    let image = RGBAImage(width: outSize.width, height: outSize.height, pixels: pixels)
    return DecodedImage(image: image.oriented(orientation), fullSize: fullSize, format: .png, warnings: warnings)
}

/// The largest whole factor by which `imageSize` can shrink and still cover
/// its contain-fit inside `target`; 1 without a target.
func pngReduction(imageSize: PixelSize, target: PixelSize?) -> Int {
    guard let target, !target.isEmpty, !imageSize.isEmpty else { return 1 }
    let needed = fittedSize(of: imageSize, in: target)
    // ceil(side / factor) >= needed only while factor < side / (needed - 1).
    var factor = max(
        1,
        min(
            imageSize.width / max(1, needed.width - 1), imageSize.height / max(1, needed.height - 1),
            imageSize.width, imageSize.height))
    while factor > 1
        && ((imageSize.width + factor - 1) / factor < needed.width || (imageSize.height + factor - 1) / factor < needed.height)
    {
        factor -= 1
    }
    return factor
}

private func resultMessage(_ result: pxview_png_result) -> String {
    withUnsafeBytes(of: result.message) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
}

/// Throws the DecodeError a shim status stands for.
private func check(_ status: pxview_png_status, _ result: pxview_png_result, options: DecodeOptions) throws(DecodeError) {
    let width = Int(result.width)
    let height = Int(result.height)
    switch status {
    case PXVIEW_PNG_OK:
        return
    case PXVIEW_PNG_TOO_LARGE:
        throw DecodeError(.tooLarge(width: width, height: height, limit: options.maxPixels), format: .png)
    case PXVIEW_PNG_ZERO_SIZE:
        throw DecodeError(.zeroSize, format: .png)
    case PXVIEW_PNG_TRUNCATED:
        throw DecodeError(.truncated, format: .png)
    case PXVIEW_PNG_NO_MEMORY:
        throw DecodeError(.outOfMemory, format: .png)
    case PXVIEW_PNG_NOT_PNG:
        throw DecodeError(.unknownFormat)
    default:
        throw DecodeError(.corrupt, format: .png, detail: resultMessage(result))
    }
}

/// The PNG's size after eXIf orientation, from its IHDR alone.
func readPNGInfo(_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo {
    var result = pxview_png_result()
    let status = bytes.withUnsafeBufferPointer { pxview_png_header($0.baseAddress, $0.count, Int.max, &result) }
    try check(status, result, options: DecodeOptions(maxPixels: Int.max))
    let orientation = Orientation(exifValue: exifOrientation(inPNG: bytes))
    return ImageInfo(
        format: .png,
        size: orientation.displaySize(ofStored: PixelSize(width: Int(result.width), height: Int(result.height))))
}

/// Where the first chunk other than IDAT that claims more bytes than the
/// file has left begins, or nil. libpng 1.6 zero-fills a buffer of an
/// ancillary chunk's claimed length before it reads the data (a 61-byte
/// file whose tEXt claimed 2 GB took 2.1 GB; `png_set_chunk_malloc_max` only
/// warns while reading): cut there, libpng finds the data gone at once, as
/// it would have after the allocation (truncated, or damage after the image).
func pngOverlongChunk(_ bytes: [UInt8]) -> Int? {
    guard let start = walkPNGChunks(bytes, { _ in true }) else { return nil }
    return bytes[(start + 4)..<(start + 8)].elementsEqual("IDAT".utf8) ? nil : start
}
