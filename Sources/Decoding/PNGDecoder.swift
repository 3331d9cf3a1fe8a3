import CShims
import Pixels

/// Decodes a PNG through the libpng shim, then applies any eXIf orientation.
func decodePNG(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
    var result = pxview_png_result()
    let status = bytes.withUnsafeBufferPointer { data in
        pxview_png_decode(data.baseAddress, data.count, max(0, options.maxPixels), &result)
    }
    defer { pxview_png_free(result.rgba) }  // error paths; nil (a no-op) once copied
    let message = withUnsafeBytes(of: result.message) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    let width = Int(result.width), height = Int(result.height)

    switch status {
    case PXVIEW_PNG_OK:
        break
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
        throw DecodeError(.corrupt, format: .png, detail: message)
    }
    guard let rgba = result.rgba, width > 0, height > 0 else { throw DecodeError(.zeroSize, format: .png) }

    let byteCount = width * height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        buffer.baseAddress?.initialize(from: rgba, count: byteCount)
        initialized = byteCount
    }
    // Free libpng's copy now, not at return: an EXIF rotation below makes a
    // third full-size buffer, and at the 100 MP limit each one is 400 MB.
    pxview_png_free(result.rgba)
    result.rgba = nil
    var warnings: [String] = []
    if result.trailing_damage != 0 {
        warnings.append("damaged PNG data after the image" + (message.isEmpty ? "" : " (\(message))"))
    }
    let orientation = Orientation(exifValue: exifOrientation(inPNG: bytes))
    let stored = RGBAImage(width: width, height: height, pixels: pixels)
    return DecodedImage(
        image: stored.oriented(orientation), fullSize: orientation.displaySize(ofStored: stored.size),
        format: .png, warnings: warnings)
}
