import CShims
import Pixels

#if canImport(Glibc)
    import Glibc
#endif

/// A format decoded through a library behind CShims' one decoder shape
/// (`pxview_codec.h`): GIF, WebP, AVIF, HEIF, JPEG XL. `decodeFrames` is
/// the one driver for all of them: header, size checks, frames, orientation.
struct LibraryCodec: @unchecked Sendable {
    // @unchecked: C function pointers capture nothing.
    let format: ImageFormat
    let open: pxview_codec_open_fn
    let frame: pxview_codec_frame_fn
    let close: pxview_codec_close_fn

    static let gif = LibraryCodec(format: .gif, open: pxview_gif_open, frame: pxview_gif_frame, close: pxview_gif_close)
    static let webp = LibraryCodec(format: .webp, open: pxview_webp_open, frame: pxview_webp_frame, close: pxview_webp_close)
    static let avif = LibraryCodec(format: .avif, open: pxview_avif_open, frame: pxview_avif_frame, close: pxview_avif_close)
    static let heif = LibraryCodec(format: .heic, open: pxview_heif_open, frame: pxview_heif_frame, close: pxview_heif_close)
    static let jxl = LibraryCodec(format: .jxl, open: pxview_jxl_open, frame: pxview_jxl_frame, close: pxview_jxl_close)

    /// Canvases of the animation's size that exist at once while its
    /// frames are composited: the frame handed out, and the library's or
    /// the shim's own (GIF: the canvas and the copy disposal 3 restores;
    /// WebP: the canvas and the last one disposed; the others decode each
    /// frame whole into their own buffer).
    var animationCanvases: Int {
        switch format {
        case .gif, .webp: return 3
        default: return 2
        }
    }

    /// The same for an animation's first frame alone (a grid tile): GIF
    /// draws it straight into the picture; WebP sets up both canvases anyway.
    var firstFrameCanvases: Int {
        switch format {
        case .gif: return 1
        case .webp: return 3
        default: return 2
        }
    }

    /// Sizes the file declares besides what the library's header gives,
    /// held against `--max-pixels` before the library is asked: a HEIF
    /// image's `ispe` (libavif and libheif refuse past their own limits in
    /// words that do not say so), and a grid's or overlay's own canvas,
    /// which libheif allocates whatever the `ispe` says (see `HEIFStructure`).
    func declaredSizes(_ bytes: [UInt8]) -> [PixelSize] {
        guard format == .heic || format == .avif else { return [] }
        let structure = HEIFStructure(scanning: bytes)
        return [structure.primarySize, structure.derivedCanvas].compactMap { $0 }
    }

    /// The longest side libavif 0.11 accepts (its default limit is
    /// 16384x16384 pixels; libheif's is 32768 a side): past it they refuse
    /// to read the header at all.
    static let libraryLimitSide = 16384

    /// The header through the library: the shown size and the frames.
    func readInfo(_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo {
        let result = bytes.withUnsafeBufferPointer { data -> Result<ImageInfo, DecodeError> in
            var info = pxview_codec_info()
            var handle: UnsafeMutableRawPointer?
            let status = open(data.baseAddress, data.count, &info, &handle)
            defer { if let handle { close(handle) } }
            guard status == PXVIEW_CODEC_OK else {
                // Past the library's own limit, the boxes still tell the size.
                if let size = declaredSizes(bytes).first, max(size.width, size.height) > Self.libraryLimitSide {
                    return .success(ImageInfo(format: format, size: size, frameCount: 1))
                }
                return .failure(error(status, info))
            }
            let stored = PixelSize(width: Int(info.width), height: Int(info.height))
            let size = Orientation(exifValue: Int(info.orientation)).displaySize(ofStored: stored)
            return .success(ImageInfo(format: format, size: size, frameCount: max(1, Int(info.frame_count))))
        }
        return try result.get()
    }

    /// The frames through `decodeFrames`: the codec table's `decode`.
    func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try decodeFrames(bytes, options: options, codec: self)
    }

    /// The same for ISO base media files (AVIF, HEIF): when the decoder
    /// fails and the boxes stop short, the reason is the cut, whatever the
    /// library made of the missing bytes ("BMFF parsing failed").
    func decodeBoxed(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        do {
            return try decode(bytes, options: options)
        } catch {
            if case .tooLarge = error.kind { throw error }
            if boxesAreComplete(bytes, requiring: "mdat") == false { throw DecodeError(.truncated, format: format) }
            throw error
        }
    }

    /// The DecodeError a shim status stands for, with the library's words.
    func error(_ status: pxview_codec_status, _ info: pxview_codec_info) -> DecodeError {
        let message = withUnsafeBytes(of: info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch status {
        case PXVIEW_CODEC_TRUNCATED: return DecodeError(.truncated, format: format)
        case PXVIEW_CODEC_UNSUPPORTED: return DecodeError(.unsupported, format: format, detail: message)
        case PXVIEW_CODEC_NO_MEMORY: return DecodeError(.outOfMemory, format: format)
        case PXVIEW_CODEC_NO_LIBRARY: return DecodeError(.noDecoder, format: format, detail: message)
        default: return DecodeError(.corrupt, format: format, detail: message)
        }
    }
}

/// Every frame the bookkeeping of which costs at least this many pixels
/// of the `--max-pixels` budget (a Frame, its array and its delay are a
/// few hundred bytes): a file of a million 1x1 frames is refused by the
/// budget instead of taking seconds to list.
let minimumFrameCost = 1024

/// Decodes through `codec`: the header's size is checked against
/// `options.maxPixels` before any pixel memory exists; a still image
/// decodes once (scaled while decoding where the library can: WebP); an
/// animation's frames, each the whole composited canvas, share the pixel
/// budget: when they would not all fit at full size they are kept reduced
/// by a whole factor (block averages, as for PNG) no further than the
/// target size allows, and past that only the frames that fit are kept,
/// with a warning. `frameCount`/`loopCount` override the library's (GIF
/// counts its frames by walking its blocks).
func decodeFrames(
    _ bytes: [UInt8], options: DecodeOptions, codec: LibraryCodec, frameCount knownFrames: Int? = nil,
    loopCount knownLoops: Int? = nil
) throws(DecodeError) -> DecodedImage {
    for size in codec.declaredSizes(bytes) {
        try checkHeaderSize(width: size.width, height: size.height, format: codec.format, options: options)
    }
    let result = bytes.withUnsafeBufferPointer { data -> Result<DecodedImage, DecodeError> in
        var info = pxview_codec_info()
        var handle: UnsafeMutableRawPointer?
        let status = codec.open(data.baseAddress, data.count, &info, &handle)
        defer { if let handle { codec.close(handle) } }
        guard status == PXVIEW_CODEC_OK, let handle else { return .failure(codec.error(status, info)) }
        do throws(DecodeError) {
            return .success(try decodeOpened(handle, info: &info, options: options, codec: codec, knownFrames, knownLoops))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}

private func decodeOpened(
    _ handle: UnsafeMutableRawPointer, info: inout pxview_codec_info, options: DecodeOptions, codec: LibraryCodec,
    _ knownFrames: Int?, _ knownLoops: Int?
) throws(DecodeError) -> DecodedImage {
    let format = codec.format
    let stored = PixelSize(width: Int(info.width), height: Int(info.height))
    try checkHeaderSize(width: stored.width, height: stored.height, format: format, options: options)
    let orientation = Orientation(exifValue: Int(info.orientation))
    let fullSize = orientation.displaySize(ofStored: stored)
    let frameCount = max(1, knownFrames ?? Int(info.frame_count))
    let budget = max(1, options.maxPixels)
    // How many frames are wanted at most, and whether compositing them all
    // fits the budget: the canvases an animation needs at once count
    // against it (4 bytes a pixel), before any is allocated. A 140-byte
    // WebP of two 1x1 frames on a 16000x6000 canvas had peaked at 1.2 GB.
    var wantedAtMost = min(frameCount, max(1, options.maxFrames ?? Int.max))
    var warnings: [String] = []
    if frameCount > 1, wantedAtMost == 1, stored.area * codec.firstFrameCanvases > budget {
        throw DecodeError(
            .animationTooLarge(canvas: stored, frames: frameCount, canvases: codec.firstFrameCanvases, limit: budget),
            format: format)
    }
    if wantedAtMost > 1, stored.area * codec.animationCanvases > budget {
        // GIF draws its first frame straight into the picture (reduced as it
        // is read): the rest of the animation goes, with a warning.
        guard info.reduces != 0 else {
            throw DecodeError(
                .animationTooLarge(canvas: stored, frames: frameCount, canvases: codec.animationCanvases, limit: budget),
                format: format)
        }
        wantedAtMost = 1
        warnings.append(
            "only the first of \(frameCount) frames: compositing the \(stored.width)x\(stored.height) animation "
                + "needs \(codec.animationCanvases) canvases, over the \(budget)-pixel limit")
    }

    // The size the library writes, and the whole factor frames are then reduced by.
    var written = stored
    var factor = 1
    if info.scales != 0 {
        // libwebp scales a lossy picture in YUV, which a Lanczos resize of
        // dwebp's full decode does not: taken all the way to the fitted size
        // (a 1920x1280 photo as kitty into 800x600) it scored 49.3 dB
        // against that, decoded whole 58.6. So the library shrinks by half
        // the largest whole factor that covers the fitted size, and the
        // resampler at least the last 2x: into 800x600 that is the whole
        // decode, into 400x300 half size (49.1 dB; whole 52.2, by 4 46.0),
        // and a 24 MP photo into 800x600 decodes at a third (10 MB, not 96).
        written = reduced(stored, by: max(1, pngReduction(imageSize: fullSize, target: options.targetSize) / 2))
    } else if info.reduces != 0, wantedAtMost == 1 {
        // A still GIF shrinks by whole-factor block averages as it is read,
        // by half the factor the box allows as WebP does, the resampler
        // doing at least the last 2x: a 1920x1280 GIF into 800x600 reduced
        // by 2 scored 50.2 dB against ImageMagick's decode and a Lanczos
        // resize, whole 52.7, for no time saved (CPU 52 against 54 ms median
        // of 20, within the noise); into a grid tile (by 7) it is read at a
        // third and its 10 MB canvas never exists.
        written = reduced(stored, by: max(1, pngReduction(imageSize: fullSize, target: options.targetSize) / 2))
    } else if frameCount > 1 {
        let allowed = pngReduction(imageSize: fullSize, target: options.targetSize)
        while factor < allowed, frameCount * max(minimumFrameCost, reduced(stored, by: factor).area) > budget { factor += 1 }
    }
    // A thumbnail the file holds (HEIF) when it covers the fitted size:
    // the grid's tiles of a folder of phone photos decode about 320x240
    // each instead of 12 megapixels.
    let preview = PixelSize(width: Int(info.preview_width), height: Int(info.preview_height))
    if !preview.isEmpty, wantedAtMost == 1, let target = options.targetSize, !target.isEmpty {
        let needed = fittedSize(of: fullSize, in: target)
        let shown = orientation.displaySize(ofStored: preview)
        if shown.width >= needed.width && shown.height >= needed.height { written = preview }
    }
    let kept = reduced(written, by: factor)
    let keepable = max(1, budget / max(minimumFrameCost, kept.area))
    let wanted = min(wantedAtMost, keepable)
    // Whatever the limit says (`--max-pixels 4294967296`), never more than
    // half the machine's memory at once: past that an allocation aborts.
    let canvases = frameCount == 1 ? 1 : wanted > 1 ? codec.animationCanvases : codec.firstFrameCanvases
    let working = written.area * 4 * canvases
    if let machine = physicalMemoryBytes(), working > machine / 2 {
        throw DecodeError(.beyondMemory(bytes: working, machineBytes: machine), format: format)
    }

    var frames: [Frame] = []
    var reachedEnd = false
    while frames.count < wanted {
        var delay: UInt32 = 0
        var status = PXVIEW_CODEC_OK
        let byteCount = written.area * 4
        info.final_frame = frames.count + 1 == wanted ? 1 : 0
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            status = codec.frame(handle, buffer.baseAddress, UInt32(written.width), UInt32(written.height), &delay, &info)
            // Every byte is written on success; otherwise the array is dropped below.
            initialized = byteCount
        }
        if status == PXVIEW_CODEC_END {
            reachedEnd = true
            break
        }
        guard status == PXVIEW_CODEC_OK else { throw codec.error(status, info) }
        var image = RGBAImage(width: written.width, height: written.height, pixels: pixels)
        if factor > 1 { image = image.reduced(by: factor) }
        frames.append(Frame(image: image.oriented(orientation), delayMs: Int(delay)))
    }
    guard !frames.isEmpty else { throw DecodeError(.corrupt, format: format, detail: "no image in the file") }
    if frames.count < frameCount, frames.count == keepable, options.maxFrames.map({ frames.count < $0 }) ?? true {
        warnings.append("only the first \(frames.count) of \(frameCount) frames fit in the \(budget)-pixel limit")
    }
    let loops = knownLoops ?? Int(info.loop_count)
    var decoded = DecodedImage(
        frames: frames, fullSize: fullSize, format: format, warnings: warnings, loopCount: frames.count > 1 ? loops : 1,
        frameCount: reachedEnd ? frames.count : frameCount)
    let toneMapped = withUnsafeBytes(of: info.tone_mapped_from) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if !toneMapped.isEmpty { decoded.colour = ColourConversion(source: toneMapped, toneMapped: true) }
    // Copied now: the decoder owns these bytes until it is closed.
    if let icc = info.icc, info.icc_size > 0 {
        decoded.libraryProfile = Array(UnsafeBufferPointer(start: icc, count: info.icc_size))
    }
    if let icc = info.original_icc, info.original_icc_size > 0 {
        decoded.libraryConvertedFrom = Array(UnsafeBufferPointer(start: icc, count: info.original_icc_size))
    }
    return decoded
}

/// This machine's memory in bytes (`sysconf`), nil when it cannot say.
func physicalMemoryBytes() -> Int? {
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let size = sysconf(Int32(_SC_PAGESIZE))
    guard pages > 0, size > 0 else { return nil }
    return pages.multipliedReportingOverflow(by: size).overflow ? Int.max : pages * size
}

/// `size` reduced by a whole factor, rounding up (a partial block is a pixel).
func reduced(_ size: PixelSize, by factor: Int) -> PixelSize {
    PixelSize(width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
}

extension RGBAImage {
    /// Each `factor` x `factor` block averaged into one pixel, weighted by
    /// alpha (so transparent pixels lend no colour), as the PNG decoder
    /// reduces. Blocks at the right and bottom edges may be partial.
    func reduced(by factor: Int) -> RGBAImage {
        guard factor > 1 else { return self }
        let out = Decoding.reduced(size, by: factor)
        var result = [UInt8](repeating: 0, count: out.area * 4)
        pixels.withUnsafeBufferPointer { src in
            result.withUnsafeMutableBufferPointer { dst in
                var sums = [Int](repeating: 0, count: out.width * 4)
                var counts = [Int](repeating: 0, count: out.width)
                for outY in 0..<out.height {
                    for i in sums.indices { sums[i] = 0 }
                    for i in counts.indices { counts[i] = 0 }
                    for y in (outY * factor)..<min(height, outY * factor + factor) {
                        var s = y * width * 4
                        for x in 0..<width {
                            let column = x / factor
                            let alpha = Int(src[s + 3])
                            sums[column * 4] += Int(src[s]) * alpha
                            sums[column * 4 + 1] += Int(src[s + 1]) * alpha
                            sums[column * 4 + 2] += Int(src[s + 2]) * alpha
                            sums[column * 4 + 3] += alpha
                            counts[column] += 1
                            s += 4
                        }
                    }
                    for column in 0..<out.width {
                        let d = (outY * out.width + column) * 4
                        let alphaSum = sums[column * 4 + 3]
                        guard alphaSum > 0, counts[column] > 0 else { continue }
                        dst[d] = UInt8((sums[column * 4] + alphaSum / 2) / alphaSum)
                        dst[d + 1] = UInt8((sums[column * 4 + 1] + alphaSum / 2) / alphaSum)
                        dst[d + 2] = UInt8((sums[column * 4 + 2] + alphaSum / 2) / alphaSum)
                        dst[d + 3] = UInt8((alphaSum + counts[column] / 2) / counts[column])
                    }
                }
            }
        }
        return RGBAImage(width: out.width, height: out.height, pixels: result)
    }
}
