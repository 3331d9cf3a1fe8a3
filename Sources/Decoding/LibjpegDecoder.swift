import CShims
import Pixels

/// The JPEGs TurboJPEG 2.1's header call refuses ("could not determine
/// subsampling type": 3x2, 1x4, 4x2, 2x4, 1x3, 3x1 and mixed per-component
/// samplings such as 2x2,2x1,1x1), decoded through the libjpeg API of the
/// same library, with the same DCT scaling, size limit, CMYK handling and
/// EXIF orientation as the TurboJPEG path. Also every RGB JPEG whose
/// profile changes colours: `colour` converts its rows beside the decoder
/// (the colour step, overlapped: a 20 MP JPEG's 5 MP for a 2560x1440 box
/// took 4 ms more after the decode on two cores, ~8 ms in all).
/// `warnings`: the TurboJPEG header's, when it read the header.
func decodeJPEGWithLibjpeg(
    _ bytes: [UInt8], options: DecodeOptions, markers: JPEGMarkerInfo, colour: ColourTransforms.Entry?,
    warnings headerWarnings: [String] = []
) throws(DecodeError) -> DecodedImage {
    var header = pxview_jpeg_result()
    let headerStatus = bytes.withUnsafeBufferPointer { pxview_jpeg_header($0.baseAddress, $0.count, 1, 1, &header) }
    guard headerStatus == PXVIEW_JPEG_OK else { throw libjpegError(headerStatus, header, markers: markers) }
    try checkHeaderSize(width: Int(header.width), height: Int(header.height), format: .jpeg, options: options)

    let orientation = Orientation(exifValue: markers.orientation)
    let storedSize = PixelSize(width: Int(header.width), height: Int(header.height))
    let fullSize = orientation.displaySize(ofStored: storedSize)
    let scale = DCTScale.choose(imageSize: fullSize, target: options.targetSize)
    var result = pxview_jpeg_result()
    let sized = bytes.withUnsafeBufferPointer {
        pxview_jpeg_header($0.baseAddress, $0.count, UInt32(scale.numerator), UInt32(scale.denominator), &result)
    }
    guard sized == PXVIEW_JPEG_OK else { throw libjpegError(sized, result, markers: markers) }
    let outSize = PixelSize(width: Int(result.output_width), height: Int(result.output_height))
    let byteCount = outSize.area * 4
    var status = PXVIEW_JPEG_OK
    var pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        status = bytes.withUnsafeBufferPointer { data in
            withExtendedLifetime(colour) {
                pxview_jpeg_decode_converting(
                    data.baseAddress, data.count, UInt32(scale.numerator), UInt32(scale.denominator), buffer.baseAddress,
                    colour?.isCMYK == false ? colour?.transform : nil, &result)
            }
        }
        // Every row is written (libjpeg pads data that ends early); after an
        // error the buffer is thrown away below.
        initialized = byteCount
    }
    guard status == PXVIEW_JPEG_OK else { throw libjpegError(status, result, markers: markers) }
    let conversion =
        result.cmyk != 0
        ? cmykToRGBA(&pixels, inverted: markers.hasAdobeMarker, colour: colour)
        : colour.flatMap { $0.isCMYK ? nil : ColourConversion(source: $0.name) }
    var warnings = headerWarnings
    if result.warnings > 0, case let warning = lowercasingFirstWord(message(of: result)), !warnings.contains(warning) {
        warnings.append(warning)
    }
    let stored = RGBAImage(width: outSize.width, height: outSize.height, pixels: pixels)
    var decoded = DecodedImage(image: stored.oriented(orientation), fullSize: fullSize, format: .jpeg, warnings: warnings)
    decoded.colour = conversion
    return decoded
}

private func message(of result: pxview_jpeg_result) -> String {
    withUnsafeBytes(of: result.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

private func libjpegError(_ status: pxview_jpeg_status, _ result: pxview_jpeg_result, markers: JPEGMarkerInfo) -> DecodeError {
    let detail = message(of: result)
    if markers.headerTruncated { return DecodeError(.truncated, format: .jpeg, detail: detail) }
    switch status {
    case PXVIEW_JPEG_NO_MEMORY: return DecodeError(.outOfMemory, format: .jpeg)
    case PXVIEW_JPEG_UNSUPPORTED: return DecodeError(.unsupported, format: .jpeg, detail: detail)
    default: return DecodeError(.corrupt, format: .jpeg, detail: detail)
    }
}
