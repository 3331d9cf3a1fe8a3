import CShims
import CTurboJPEG
import Pixels
import Plumbing

/// Decodes a JPEG with the TurboJPEG 2.x API: header, size checks, optional
/// DCT scaling, RGBA (or CMYK, converted here) output, then EXIF orientation.
/// Samplings TurboJPEG cannot name go through `decodeJPEGWithLibjpeg`.
func decodeJPEG(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
    let markers = JPEGMarkerInfo(scanning: bytes)
    guard let handle = tjInitDecompress() else { throw DecodeError(.outOfMemory, format: .jpeg) }
    defer { tjDestroy(handle) }

    // TurboJPEG 2.1 names only the common samplings; libjpeg decodes the rest.
    guard let header = try turboJPEGHeader(handle, bytes, markers: markers) else {
        let colour = ColourStep.jpegTransform(bytes, markers: markers, options: options)
        return try decodeJPEGWithLibjpeg(bytes, options: options, markers: markers, colour: colour)
    }
    let warnings = header.warnings
    let (width, height, colorspace) = (header.width, header.height, header.colorspace)
    try checkHeaderSize(width: Int(width), height: Int(height), format: .jpeg, options: options)

    let orientation = Orientation(exifValue: markers.orientation)
    let storedSize = PixelSize(width: Int(width), height: Int(height))
    let fullSize = orientation.displaySize(ofStored: storedSize)
    let scale = DCTScale.choose(imageSize: fullSize, target: options.targetSize)
    let outSize = scale.scaled(storedSize)

    let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    // A profile that changes colours: converted beside the decoder, which
    // TurboJPEG's one-call decode cannot do (the same libjpeg-turbo decodes).
    let colour = ColourStep.jpegTransform(bytes, markers: markers, options: options)
    if !isCMYK, let colour, !colour.isCMYK {
        return try decodeJPEGWithLibjpeg(bytes, options: options, markers: markers, colour: colour, warnings: warnings)
    }
    let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGBA
    let byteCount = outSize.area * 4
    var decodeStatus: Int32 = 0
    var pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        decodeStatus = bytes.withUnsafeBufferPointer { data in
            tjDecompress2(
                handle, data.baseAddress, UInt(data.count), buffer.baseAddress,
                Int32(outSize.width), Int32(outSize.width * 4), Int32(outSize.height),
                Int32(pixelFormat.rawValue), TJFLAG_LIMITSCANS)
        }
        // libjpeg writes every row even when the data ends early (the rest is
        // synthesized), and on a fatal error the buffer is thrown away below.
        initialized = byteCount
    }
    if decodeStatus != 0 {
        let message = turboJPEGMessage(handle)
        guard isWarning(handle) else { throw jpegError(message, markers: markers) }
        // TurboJPEG 2.1 still says "warning" for a fatal error that came
        // after a warning, the rows past it never written (a progressive
        // file with a bad marker in a scan drew heap bytes): libjpeg's API
        // tells them apart, so a file that warned is decoded again through it.
        return try decodeJPEGWithLibjpeg(bytes, options: options, markers: markers, colour: colour, warnings: warnings)
    }
    let conversion = isCMYK ? cmykToRGBA(&pixels, inverted: markers.hasAdobeMarker, colour: colour) : nil

    let stored = RGBAImage(width: outSize.width, height: outSize.height, pixels: pixels)
    var decoded = DecodedImage(image: stored.oriented(orientation), fullSize: fullSize, format: .jpeg, warnings: warnings)
    decoded.colour = conversion
    return decoded
}

private func turboJPEGMessage(_ handle: tjhandle) -> String {
    guard let text = tjGetErrorStr2(handle) else { return "" }
    return String(cString: text)
}

private func isWarning(_ handle: tjhandle) -> Bool {
    tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
}

/// Turns a fatal libjpeg message into a DecodeError. Truncation is judged by
/// our own marker walk, because libjpeg reports a cut-off header as whatever
/// garbage its end-of-data padding happens to produce.
private func jpegError(_ message: String, markers: JPEGMarkerInfo) -> DecodeError {
    let detail = message.replacingPrefix("tjDecompressHeader3(): ").replacingPrefix("tjDecompress2(): ")
    if markers.headerTruncated { return DecodeError(.truncated, format: .jpeg, detail: detail) }
    if detail.hasPrefix("Unsupported") || detail.hasPrefix("Maximum supported image dimension")
        || detail.contains("not supported") || detail.hasPrefix("Could not determine subsampling")
    {
        return DecodeError(.unsupported, format: .jpeg, detail: detail)
    }
    return DecodeError(.corrupt, format: .jpeg, detail: detail)
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}

/// CMYK samples to opaque RGBA in place: through the file's CMYK profile
/// when it has one (lcms2's table, in parallel rows; the conversion is
/// returned to be named), else by `convertCMYKToRGBA`'s formula.
func cmykToRGBA(_ pixels: inout [UInt8], inverted: Bool, colour: ColourTransforms.Entry?) -> ColourConversion? {
    guard let colour, colour.isCMYK, let transform = colour.transform else {
        convertCMYKToRGBA(&pixels, inverted: inverted)
        return nil
    }
    let count = pixels.count / 4
    pixels.withUnsafeMutableBufferPointer { buffer in
        guard let start = buffer.baseAddress else { return }
        // Split by pixels (rows of one pixel): lcms2 works pixel by pixel.
        ParallelRows.run(parts: ParallelRows.parts(pixels: count, rows: count), rows: count) { range in
            pxview_colour_apply_cmyk(transform, start + range.lowerBound * 4, range.count, inverted ? 1 : 0)
        }
    }
    return ColourConversion(source: colour.name)
}

/// Converts CMYK samples (4 bytes per pixel) to opaque RGBA in place.
///
/// Adobe applications write CMYK JPEGs with every sample inverted (0 = full
/// ink) and mark them with an APP14 "Adobe" segment; then R = C'·K'/255 with
/// C', K' the stored bytes. Without the marker the samples are plain ink
/// amounts and R = (255−C)(255−K)/255.
func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
    pixels.withUnsafeMutableBufferPointer { buffer in
        guard let p = buffer.baseAddress else { return }
        let count = buffer.count
        /// round(a·b/255) without a division.
        @inline(__always) func multiply(_ a: UInt32, _ b: UInt32) -> UInt8 {
            let t = a * b + 128
            return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
        }
        let flip: UInt32 = inverted ? 0 : 255
        var i = 0
        while i < count {
            let k = UInt32(p[i + 3]) ^ flip
            p[i] = multiply(UInt32(p[i]) ^ flip, k)
            p[i + 1] = multiply(UInt32(p[i + 1]) ^ flip, k)
            p[i + 2] = multiply(UInt32(p[i + 2]) ^ flip, k)
            p[i + 3] = 255
            i += 4
        }
    }
}

/// What TurboJPEG's header call says: the stored size and colour space,
/// and a recoverable problem (stray bytes between markers) as a warning;
/// nil for a sampling only libjpeg names.
private func turboJPEGHeader(_ handle: tjhandle, _ bytes: [UInt8], markers: JPEGMarkerInfo) throws(DecodeError) -> (
    width: Int32, height: Int32, colorspace: Int32, warnings: [String]
)? {
    var warnings: [String] = []
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    let headerStatus = bytes.withUnsafeBufferPointer { data in
        tjDecompressHeader3(handle, data.baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
    }
    if headerStatus != 0 {
        let message = turboJPEGMessage(handle)
        if message.contains("Could not determine subsampling") { return nil }
        // Recoverable trouble in the header (e.g. stray bytes between markers) still yields a size.
        guard isWarning(handle), width > 0, height > 0 else { throw jpegError(message, markers: markers) }
        warnings.append(lowercasingFirstWord(message))
    }
    if width <= 0 || height <= 0 {
        // libjpeg pads data that ends early with a fake end-of-image marker,
        // so a cut-off header can "succeed" with no size at all.
        throw DecodeError(markers.headerTruncated ? .truncated : .zeroSize, format: .jpeg)
    }
    return (width, height, colorspace, warnings)
}

/// The JPEG's size after EXIF orientation, from its header alone: TurboJPEG's
/// header call, or libjpeg's for the samplings TurboJPEG cannot name.
func readJPEGInfo(_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo {
    let markers = JPEGMarkerInfo(scanning: bytes)
    guard let handle = tjInitDecompress() else { throw DecodeError(.outOfMemory, format: .jpeg) }
    defer { tjDestroy(handle) }
    var stored: PixelSize
    if let header = try turboJPEGHeader(handle, bytes, markers: markers) {
        stored = PixelSize(width: Int(header.width), height: Int(header.height))
    } else {
        var header = pxview_jpeg_result()
        let status = bytes.withUnsafeBufferPointer { pxview_jpeg_header($0.baseAddress, $0.count, 1, 1, &header) }
        guard status == PXVIEW_JPEG_OK else { throw DecodeError(.corrupt, format: .jpeg) }
        stored = PixelSize(width: Int(header.width), height: Int(header.height))
    }
    return ImageInfo(format: .jpeg, size: Orientation(exifValue: markers.orientation).displaySize(ofStored: stored))
}
