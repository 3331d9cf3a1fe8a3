import Pixels
import TestSupport
import Testing

@testable import Decoding

/// Issue 27: a few hundred bytes must not cost gigabytes or minutes. What
/// compositing an animation needs at once, and every frame's rectangle,
/// count against `--max-pixels` before anything is allocated.
@Suite struct HostileAnimationTests {
    /// The error decoding `bytes` gives; nil (recorded as an issue, without
    /// printing megabytes of pixels) when it decodes.
    func refusal(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> DecodeError? {
        do {
            let decoded = try decodeImage(bytes, options: options)
            Issue.record("decoded \(decoded.frames.count) frames of \(decoded.image.size) instead of refusing")
            return nil
        } catch {
            return error
        }
    }

    /// 140 bytes: a 16000x6000 canvas, two 1x1 frames. Three canvases of
    /// 96 MP to composite: refused, saying what it would need.
    @Test func aTinyWebPWithAHugeCanvasIsRefusedFromItsHeader() throws {
        let bytes = HostileImages.webp(width: 16000, height: 6000, frames: 2)
        #expect(bytes.count < 200)
        #expect(
            refusal(bytes)?.description
                == "animation canvas 16000x6000 with 2 frames needs 1.1 GB to decode, over the 381.5 MB the 100000000-pixel limit allows"
        )
        // 500 frames: the same, at once.
        #expect(refusal(HostileImages.webp(width: 16000, height: 6000, frames: 500)) != nil)
        // A grid tile (first frame only) needs the canvases too.
        #expect(refusal(bytes, options: DecodeOptions(maxFrames: 1)) != nil)
    }

    /// A GIF's first frame is drawn straight into the picture (and reduced
    /// while read): the animation goes, the first frame stays, said in a warning.
    @Test(arguments: [2, 500])
    func aGIFWithAHugeScreenKeepsItsFirstFrame(frames: Int) throws {
        let bytes = HostileImages.gif(width: 10000, height: 10000, frames: Array(repeating: HostileImages.Rect(), count: frames))
        let decoded = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 800, height: 600)))
        #expect(decoded.frames.count == 1)
        #expect(decoded.frameCount == frames)
        #expect(decoded.fullSize == PixelSize(width: 10000, height: 10000))
        // Reduced while read: a twentieth of the screen's side or less is kept.
        #expect(decoded.image.width <= 2000)
        #expect(
            decoded.warnings == [
                "only the first of \(frames) frames: compositing the 10000x10000 animation needs 3 canvases, "
                    + "over the 100000000-pixel limit"
            ])
        #expect(decoded.image[0, 0].r > 200, "the first frame's red pixel, averaged into the first block")
    }

    /// A 65535x65535 frame on a 16x16 screen: giflib decodes every row of
    /// a frame, off the screen too (it took a minute); refused from the walk.
    @Test func aGIFFrameOverTheLimitIsRefusedWhateverItsScreen() throws {
        let bytes = HostileImages.gif(
            width: 16, height: 16, frames: [HostileImages.Rect(), HostileImages.Rect(width: 65535, height: 65535)])
        #expect(
            refusal(bytes)?.description
                == "a frame of 65535x65535 (4294836225 pixels) on a 16x16 GIF is over the 100000000-pixel limit")
    }

    /// However large the limit, never more than half the machine's memory.
    @Test func noLimitAllowsMoreThanHalfTheMachine() throws {
        let bytes = HostileImages.gif(width: 65535, height: 65535, frames: [HostileImages.Rect(), HostileImages.Rect()])
        let error = refusal(bytes, options: DecodeOptions(maxPixels: 4_294_967_296))
        guard case .beyondMemory = error?.kind else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    /// Many frames take time in proportion to their number (the demuxer's
    /// iterator; frame N was looked up from the first): every frame comes,
    /// in order, with its delay. (The 100000-frame figure is measured in the
    /// README's Reliability section, not timed here.)
    @Test func manyWebPFramesAllCome() throws {
        let decoded = try decodeImage(HostileImages.webp(width: 1, height: 1, frames: 3000))
        #expect(decoded.frames.count == 3000)
        #expect(decoded.frames.allSatisfy { $0.delayMs == 100 && $0.image[0, 0] == RGBA(r: 255, g: 0, b: 0) })
    }

    /// A HEIF grid or overlay declares its own canvas, which libheif 1.15
    /// allocates whatever the item's `ispe` says (found by the fuzzer: an
    /// `iovl` of a few hundred bytes, 2.8 GB). Held against the limit first.
    @Test(arguments: ["grid", "iovl"], [false, true])
    func aHEIFGridsOwnCanvasIsHeldAgainstTheLimit(type: String, wideFields: Bool) throws {
        let canvas = HostileImages.Rect(width: 30000, height: 30000)
        let bytes = HostileImages.heif(derived: type, canvas: canvas, wideFields: wideFields)
        let structure = HEIFStructure(scanning: bytes)
        #expect(structure.primaryType == type && structure.derivedCanvas == PixelSize(width: 30000, height: 30000))
        #expect(refusal(bytes)?.description == "image is 30000x30000 (900000000 pixels), over the 100000000-pixel limit")
        // 32-bit sides whose product overflows Int (found by the fuzzer).
        let widest = HostileImages.heif(
            derived: type, canvas: HostileImages.Rect(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF), wideFields: true)
        #expect(
            refusal(widest)?.description
                == "image is 4294967295x4294967295 (18446744065119617025 pixels), over the 100000000-pixel limit")
        // Within the limit, the same file gets as far as libheif's decoder (the tile is empty).
        let small = HostileImages.heif(derived: type, canvas: HostileImages.Rect(width: 16, height: 16), wideFields: wideFields)
        guard case .corrupt = refusal(small)?.kind else {
            Issue.record("a 16x16 canvas: \(String(describing: refusal(small)))")
            return
        }
    }

    /// The phones' and heif-enc's single coded images are not derived.
    @Test func aCodedHEIFImageHasNoCanvasOfItsOwn() throws {
        let structure = HEIFStructure(scanning: try Fixtures.format("china.heic"))
        #expect(structure.primaryType == "hvc1" && structure.derivedCanvas == nil)
    }
}
