import Pixels
import Testing

@testable import Decoding

/// The decoded image model: frames, their delays, the loop count.
@Suite struct FrameTests {
    @Test(arguments: ["p01_china_640x427.jpg", "p06_chelsea_alpha_451x300.png"])
    func aStillImageIsOneFrame(name: String) throws {
        let decoded = try decodeImage(try Fixtures.image(name))
        #expect(decoded.frames.count == 1)
        #expect(decoded.frameCount == 1)
        #expect(!decoded.isAnimated)
        #expect(decoded.loopCount == 1)
        #expect(decoded.durationMs == 0)
        #expect(decoded.frames[0].delayMs == 0)
        #expect(decoded.image == decoded.frames[0].image)
    }

    @Test func shortDelaysPlayAsBrowsersPlayThem() {
        let image = RGBAImage(width: 1, height: 1)
        #expect(
            [0, 1, 10, 11, 20, 80, 1000].map { Frame(image: image, delayMs: $0).playbackDelayMs } == [
                100, 100, 100, 11, 20, 80, 1000,
            ])
    }

    @Test func durationIsOnePassOfThePlayedDelays() {
        let image = RGBAImage(width: 2, height: 1)
        let frames = [0, 80, 80].map { Frame(image: image, delayMs: $0) }
        let decoded = DecodedImage(frames: frames, fullSize: image.size, format: .png, loopCount: 0, frameCount: 12)
        #expect(decoded.durationMs == 260)
        #expect(decoded.frameCount == 12)
        #expect(decoded.isAnimated)
        // A count below the frames decoded is taken as the frames decoded.
        #expect(DecodedImage(frames: frames, fullSize: image.size, format: .png, frameCount: 1).frameCount == 3)
    }

    @Test func mapImagesKeepsDelaysAndOrder() {
        let frames = (0..<3).map {
            Frame(image: RGBAImage(width: 1, height: 1, fill: RGBA(r: UInt8($0), g: 0, b: 0)), delayMs: 10 * $0)
        }
        let decoded = DecodedImage(frames: frames, fullSize: PixelSize(width: 1, height: 1), format: .png)
        let mapped = decoded.mapImages { image in
            var copy = image
            copy[0, 0] = RGBA(r: image[0, 0].r + 100, g: 1, b: 2)
            return copy
        }
        #expect(mapped.frames.map { $0.image[0, 0] } == [100, 101, 102].map { RGBA(r: $0, g: 1, b: 2) })
        #expect(mapped.frames.map(\.delayMs) == [0, 10, 20])
    }
}
