import Pixels

/// What a GIF's blocks say, found by walking them (no LZW decoding): the
/// logical screen, how many frames, the NETSCAPE2.0 loop count, and whether
/// the trailer is reached. Every read is bounds-checked.
struct GIFStructure: Equatable {
    var screen = PixelSize(width: 0, height: 0)
    var frameCount = 0
    /// Plays in all (`DecodedImage.loopCount`): without the NETSCAPE2.0
    /// extension once; its count N means N repeats after the first play,
    /// N + 1 in all, and 0 for ever (as Chrome and Firefox read it).
    var loopCount = 1
    /// The walk reached the trailer (0x3B) after at least one frame.
    var isComplete = false
    /// The data ran out inside a block.
    var isTruncated = false
    /// The largest frame rectangle declared (by pixels), whatever the
    /// screen: giflib decodes a frame's every row, even those off the screen.
    var largestFrame = PixelSize(width: 0, height: 0)

    init(scanning bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { walk($0) }
    }

    private mutating func walk(_ data: UnsafeBufferPointer<UInt8>) {
        guard data.count >= 13 else {
            isTruncated = true
            return
        }
        screen = PixelSize(width: Int(data[6]) | Int(data[7]) << 8, height: Int(data[8]) | Int(data[9]) << 8)
        var i = 13
        if data[10] & 0x80 != 0 { i += 3 << (Int(data[10] & 7) + 1) }
        // Each block moves `i` past itself, or the walk ends: at the
        // trailer, at a byte that starts no block, or out of data.
        while i < data.count {
            let end: Int?
            switch data[i] {
            case 0x3B:
                isComplete = frameCount > 0
                return
            case 0x21 where i + 2 <= data.count:
                end = skipSubBlocks(data, from: i + 2)
                if end != nil, data[i + 1] == 0xFF { readLoopCount(data, first: i + 2) }
            case 0x2C where i + 10 <= data.count:
                let frame = PixelSize(
                    width: Int(data[i + 5]) | Int(data[i + 6]) << 8, height: Int(data[i + 7]) | Int(data[i + 8]) << 8)
                if frame.area > largestFrame.area { largestFrame = frame }
                let packed = data[i + 9]
                // The local colour table, then the LZW minimum code size.
                let codes = i + 10 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0) + 1
                end = codes <= data.count ? skipSubBlocks(data, from: codes) : nil
                if end != nil { frameCount += 1 }
            case 0x21, 0x2C:
                end = nil
            default:
                return  // not a block: damaged (the decoder says how)
            }
            guard let end else { break }
            i = end
        }
        isTruncated = true
    }

    /// The offset after a run of sub-blocks (length-prefixed, ending with a 0), nil when it runs out.
    private func skipSubBlocks(_ data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < data.count {
            let length = Int(data[i])
            i += 1
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// An application extension `NETSCAPE2.0` (or `ANIMEXTS1.0`) whose first
    /// sub-block after the name is [1, count low, count high].
    private mutating func readLoopCount(_ data: UnsafeBufferPointer<UInt8>, first: Int) {
        guard first + 12 + 4 <= data.count, data[first] == 11 else { return }
        let name = Array(data[(first + 1)..<(first + 12)])
        guard name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8) else { return }
        let sub = first + 12
        guard data[sub] >= 3, data[sub + 1] == 1 else { return }
        let count = Int(data[sub + 2]) | Int(data[sub + 3]) << 8
        loopCount = count == 0 ? 0 : count + 1
    }
}

/// GIF's header for the codec table: the logical screen and the frames walked.
func readGIFInfo(_ bytes: [UInt8]) throws(DecodeError) -> ImageInfo {
    let structure = GIFStructure(scanning: bytes)
    if structure.isTruncated && structure.frameCount == 0 { throw DecodeError(.truncated, format: .gif) }
    if structure.screen.isEmpty { throw DecodeError(.zeroSize, format: .gif) }
    return ImageInfo(format: .gif, size: structure.screen, frameCount: max(1, structure.frameCount))
}

/// GIF through giflib (CShims' pxview_gif.c), with the frame and loop
/// counts from the walk. A file cut short is refused, whatever frames came
/// before the cut.
func decodeGIF(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> DecodedImage {
    let structure = GIFStructure(scanning: bytes)
    // Only the frames the walk found are decoded: a cut after one of them
    // would otherwise pass for a shorter animation.
    if structure.isTruncated { throw DecodeError(.truncated, format: .gif) }
    // A frame is decoded whole, its rows off the screen too: one larger
    // than its screen and over the limit (65535x65535 on a 16x16 screen
    // took a minute) is refused here; the screen's own size is checked next.
    let frame = structure.largestFrame
    if frame.area > options.maxPixels, frame.area > structure.screen.area {
        throw DecodeError(
            .frameTooLarge(width: frame.width, height: frame.height, canvas: structure.screen, limit: options.maxPixels),
            format: .gif)
    }
    return try decodeFrames(
        bytes, options: options, codec: .gif, frameCount: structure.frameCount, loopCount: structure.loopCount)
}
