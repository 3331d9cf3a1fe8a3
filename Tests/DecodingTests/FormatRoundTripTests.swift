import Foundation
import Pixels
import Testing

@testable import Decoding

/// Every row of the codec table round-trips small fixtures made by the
/// format's own encoder (Tests/Fixtures/formats/make.py), checked against
/// that format's own decoder (dwebp, avifdec, heif-convert, djxl;
/// ImageMagick's coalesce for GIF animations).
@Suite struct FormatRoundTripTests {
    static let fixtures: [(name: String, format: ImageFormat)] = [
        ("china.gif", .gif), ("china-interlaced.gif", .gif), ("anim.gif", .gif), ("disposal.gif", .gif),
        ("china-lossy.webp", .webp), ("china-lossless.webp", .webp), ("chelsea-alpha.webp", .webp), ("anim.webp", .webp),
        ("disposal-mixed.webp", .webp), ("anim-lossy.webp", .webp),
        ("china.avif", .avif), ("chelsea-alpha.avif", .avif), ("china-irot1-imir1.avif", .avif),
        ("china.heic", .heic), ("chelsea-alpha.heic", .heic), ("china-thumbnail.heic", .heic),
        ("china.jxl", .jxl), ("china-lossless.jxl", .jxl), ("chelsea-alpha.jxl", .jxl), ("anim.jxl", .jxl),
    ]

    /// Referenced by heif-convert (libavif's avifdec leaves irot/imir
    /// alone), whose YUV to RGB conversion rounds otherwise than libavif's.
    static let roundedOtherwise: Set<String> = ["china-irot1-imir1.avif"]

    @Test(arguments: fixtures.map(\.name))
    func decodesAsTheFormatsOwnDecoder(name: String) throws {
        let bytes = try Fixtures.format(name)
        let expected = try #require(Fixtures.formatReference[name])
        let format = try #require(Self.fixtures.first { $0.name == name }?.format)
        #expect(ImageFormat(sniffing: bytes) == format)
        let decoded = try decodeImage(bytes)
        #expect(decoded.format == format)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.frames.count == expected.count)
        #expect(decoded.frameCount == expected.count)
        #expect(decoded.fullSize == PixelSize(width: expected[0].width, height: expected[0].height))
        for (index, (frame, reference)) in zip(decoded.frames, expected).enumerated() {
            #expect(frame.image.size == PixelSize(width: reference.width, height: reference.height), "frame \(index)")
            if Self.roundedOtherwise.contains(name) {
                try expectMatchesReference(frame.image, reference, name, exact: false, meanTolerance: 0.5, sampleTolerance: 3)
            } else {
                #expect(fnv1a64(frame.image.pixels) == reference.fnv1a64, "\(name) frame \(index) differs from its reference")
            }
        }
        let info = try readImageInfo(bytes)
        #expect(info == ImageInfo(format: format, size: decoded.fullSize, frameCount: expected.count))
        #expect(isCompleteImage(bytes))
    }
}

/// Animation: compositing, timing and loops, frame budgets; scaling while
/// decoding; the format's own orientation.
@Suite struct FormatFeatureTests {
    /// A still GIF whose one frame covers part of its screen: drawn straight
    /// into the picture, the rest of the screen is transparent, and so is
    /// the frame's transparent index. 4x2 screen, a 3x1 frame at 1,0 of
    /// green, blue and the transparent index (3), LZW written by hand
    /// (codes clear, 1, 2, 3 in 3 bits, then end in 4: the decoder widens
    /// its codes once its table reaches 8 entries).
    @Test func aStillGIFsFrameSmallerThanItsScreen() throws {
        var gif: [UInt8] = Array("GIF89a".utf8) + [4, 0, 2, 0, 0x81, 0, 0]
        gif += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]  // red, green, blue, white
        gif += [0x21, 0xF9, 4, 0x01, 0, 0, 3, 0]  // transparent index 3
        gif += [0x2C, 1, 0, 0, 0, 3, 0, 1, 0, 0]
        // Codes 4, 1, 2, 3 and 5, least significant bit first.
        let bits: UInt32 = 4 | 1 << 3 | 2 << 6 | 3 << 9 | 5 << 12
        gif += [2, 2, UInt8(bits & 0xFF), UInt8(bits >> 8), 0, 0x3B]
        // Freed buffers of the picture's size full of ones, which the
        // picture's own allocation is likely to reuse: rows the frame does
        // not cover must be cleared, not left as found.
        for _ in 0..<8 { _ = [UInt8](repeating: 0xFF, count: 4 * 2 * 4).withUnsafeBufferPointer { $0.count } }
        let decoded = try decodeImage(gif, options: DecodeOptions(maxFrames: 1))
        let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
        #expect(decoded.image.size == PixelSize(width: 4, height: 2))
        #expect((0..<4).map { decoded.image[$0, 0] } == [clear, RGBA(r: 0, g: 255, b: 0), RGBA(r: 0, g: 0, b: 255), clear])
        #expect((0..<4).allSatisfy { decoded.image[$0, 1] == clear })
    }

    /// disposal.gif (make.py): 16x16 red; blue 8x8 at 0,0 (disposal 2:
    /// cleared to transparent after it shows); green 8x8 at 8,8, interlaced
    /// (disposal 3: what was under it comes back); a 4x4 of white at 4,4
    /// whose left column is the transparent index.
    @Test func gifDisposalTransparencyAndInterlace() throws {
        let decoded = try decodeImage(try Fixtures.format("disposal.gif"))
        let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
        let (red, blue, green, white) = (
            RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255), RGBA(r: 0, g: 255, b: 0), RGBA(r: 255, g: 255, b: 255)
        )
        func quadrants(_ image: RGBAImage) -> [RGBA] { [image[0, 0], image[15, 0], image[0, 15], image[15, 15]] }
        let frames = decoded.frames.map(\.image)
        #expect(frames.count == 4)
        #expect(quadrants(frames[0]) == [red, red, red, red])
        #expect(quadrants(frames[1]) == [blue, red, red, red])
        #expect(frames[1][7, 7] == blue && frames[1][8, 7] == red)
        // Blue's rectangle cleared, then green drawn (every interlaced row in place).
        #expect(quadrants(frames[2]) == [clear, red, red, green])
        #expect((8..<16).allSatisfy { y in frames[2][8, y] == green && frames[2][7, y] == red })
        // Green restored away; the corner's transparent column shows what is under it.
        #expect(quadrants(frames[3]) == [clear, red, red, red])
        #expect((4..<8).allSatisfy { y in frames[3][4, y] == clear && frames[3][5, y] == white && frames[3][7, y] == white })
        #expect(frames[3][8, 8] == red)
        #expect(decoded.frames.map(\.delayMs) == [100, 200, 300, 0])
        #expect(decoded.frames.map(\.playbackDelayMs) == [100, 200, 300, 100])
        // The loop extension's 3 is three repeats: four plays.
        #expect(decoded.loopCount == 4)
        #expect(decoded.durationMs == 700)
    }

    @Test(arguments: ["anim.gif", "anim.webp", "anim.jxl"])
    func animationsKeepTheirTiming(name: String) throws {
        let decoded = try decodeImage(try Fixtures.format(name))
        #expect(decoded.frames.count == 12)
        #expect(decoded.frames.map(\.delayMs) == Array(repeating: 80, count: 12))
        #expect(decoded.loopCount == 0)
        #expect(decoded.durationMs == 960)
        #expect(decoded.isAnimated)
        #expect(Set(decoded.frames.map { fnv1a64($0.image.pixels) }).count == 12, "the frames are all different")
        #expect(try readImageInfo(try Fixtures.format(name)).frameCount == 12)
    }

    @Test func aGridTileDecodesOnlyTheFirstFrame() throws {
        let bytes = try Fixtures.format("anim.webp")
        let first = try decodeImage(bytes, options: DecodeOptions(maxFrames: 1))
        #expect(first.frames.count == 1)
        #expect(first.frameCount == 12)
        #expect(first.isAnimated)
        #expect(first.warnings.isEmpty)
        #expect(first.image == (try decodeImage(bytes)).image)
    }

    /// 12 frames of 48x32 (1536 pixels each) in a 9216-pixel budget: six fit
    /// at full size; with a box of half the size they are halved (each then
    /// counts the 1024-pixel minimum) and nine fit.
    @Test func animationFramesShareThePixelBudget() throws {
        let bytes = try Fixtures.format("anim.gif")
        let full = try decodeImage(bytes, options: DecodeOptions(maxPixels: 9216))
        #expect(full.frames.count == 6)
        #expect(full.image.size == PixelSize(width: 48, height: 32))
        #expect(full.warnings == ["only the first 6 of 12 frames fit in the 9216-pixel limit"])
        #expect(full.frameCount == 12)
        let halved = try decodeImage(bytes, options: DecodeOptions(maxPixels: 9216, targetSize: PixelSize(width: 24, height: 16)))
        #expect(halved.frames.count == 9)
        #expect(halved.image.size == PixelSize(width: 24, height: 16))
        #expect(halved.fullSize == PixelSize(width: 48, height: 32))
        let reference = try decodeImage(bytes).frames[3].image.reduced(by: 2)
        #expect(halved.frames[3].image == reference)
    }

    /// Into a 24x20 box the 96x64 image could shrink by 4; libwebp shrinks
    /// it by 2 (as `dwebp -scale 48 32` does) and leaves the rest to the
    /// resampler. Into 48x40 (a factor of 2) it decodes whole.
    /// A still GIF into a box a quarter its size or less is reduced by half
    /// that factor as it is read (or, interlaced, once all its rows are in):
    /// the same pixels as the whole decode averaged in blocks. Into half its
    /// size it is read whole.
    @Test(arguments: ["china.gif", "china-interlaced.gif"])
    func aStillGIFShrinksByWholeFactorsAsItIsRead(name: String) throws {
        let bytes = try Fixtures.format(name)
        let whole = try decodeImage(bytes).image
        let half = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 40, height: 30)))
        #expect(half.image == whole)
        let quarter = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 24, height: 16)))
        #expect(quarter.image.size == PixelSize(width: 48, height: 32))
        #expect(quarter.fullSize == PixelSize(width: 96, height: 64))
        #expect(quarter.image == whole.reduced(by: 2))
        let sixth = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 16, height: 10)))
        #expect(sixth.image == whole.reduced(by: 3))
    }

    @Test func webPScalesWhileDecodingAsDwebpDoes() throws {
        let bytes = try Fixtures.format("china-lossy.webp")
        #expect(
            try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 48, height: 40))).image.size
                == PixelSize(width: 96, height: 64))
        let decoded = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 24, height: 20)))
        let reference = try #require(Fixtures.formatReference["china-lossy.webp@48x32"]?.first)
        #expect(decoded.image.size == PixelSize(width: 48, height: 32))
        #expect(decoded.fullSize == PixelSize(width: 96, height: 64))
        #expect(fnv1a64(decoded.image.pixels) == reference.fnv1a64)
    }

    /// `irot` 1 (a quarter turn anticlockwise) then `imir` 1 (left and
    /// right swapped) is EXIF's transverse: 96x64 stored shows 64x96. The
    /// HEIF path (libheif applying them itself) reads the same file as
    /// heif-convert, byte for byte.
    @Test func theFormatsOwnRotationAndMirroringApply() throws {
        let bytes = try Fixtures.format("china-irot1-imir1.avif")
        let reference = try #require(Fixtures.formatReference["china-irot1-imir1.avif"]?.first)
        let throughLibheif = try LibraryCodec.heif.decode(bytes, options: DecodeOptions())
        #expect(throughLibheif.image.size == PixelSize(width: 64, height: 96))
        #expect(fnv1a64(throughLibheif.image.pixels) == reference.fnv1a64)
        let throughLibavif = try decodeImage(bytes)
        #expect(throughLibavif.fullSize == PixelSize(width: 64, height: 96))
        #expect(meanAbsoluteDifference(throughLibavif.image, throughLibheif.image) < 0.5)
    }

    /// A HEIF's thumbnail (48x32 here, heif-enc -t 48) stands in for the
    /// primary image when it covers the fitted size: the grid's tiles.
    @Test func aHEIFThumbnailServesSmallBoxes() throws {
        let bytes = try Fixtures.format("china-thumbnail.heic")
        let small = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 40, height: 30)))
        #expect(small.image.size == PixelSize(width: 48, height: 32))
        #expect(small.fullSize == PixelSize(width: 96, height: 64))
        let full = try decodeImage(bytes)
        #expect(full.image.size == PixelSize(width: 96, height: 64))
        // The same picture, coded again small by heif-enc (7.2 levels apart
        // on average from the primary image halved).
        #expect(meanAbsoluteDifference(small.image, full.image.reduced(by: 2)) < 12)
        // A box the thumbnail does not cover gets the primary image.
        let larger = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 60, height: 40)))
        #expect(larger.image == full.image)
    }

    @Test func sniffingReadsContainerBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            return [0, 0, 0, UInt8(8 + body.count)] + Array("ftyp".utf8) + body
        }
        #expect(ImageFormat(sniffing: ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageFormat(sniffing: ftyp("mif1", ["miaf", "avif"])) == .avif)
        #expect(ImageFormat(sniffing: ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat(sniffing: ftyp("mif1", ["heic"])) == .heic)
        #expect(ImageFormat(sniffing: ftyp("isom", ["mp41"])) == nil)
        #expect(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat(sniffing: Array("GIF87a".utf8)) == .gif)
        #expect(ImageFormat(sniffing: Array("GIF88a".utf8)) == nil)
        #expect(ImageFormat(sniffing: [0xFF, 0x0A, 0xFA]) == .jxl)
        #expect(ImageFormat(sniffing: jxlContainer) == .jxl)
    }
}
