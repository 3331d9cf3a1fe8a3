import Pixels
import Testing

@testable import Decoding

/// DCT scaling: the smallest 1/8, 1/4 or 1/2 decode that still covers the
/// image's fit inside the target box (given in display orientation).
@Suite struct ScalingTests {
    static func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    @Test func libjpegTurboOffersTheReductions() {
        #expect(DCTScale.reductions.map(\.description) == ["1/8", "1/4", "1/2"])
    }

    @Test(arguments: [
        (1920, 1280, 400, 300, "1/4"),  // fits to 400x267: 1/4 = 480x320
        (1920, 1280, 800, 600, "1/2"),  // fits to 800x534: 1/2 = 960x640
        (1920, 1280, 100, 100, "1/8"),  // fits to 100x67: 1/8 = 240x160
        (1920, 1280, 960, 640, "1/2"),  // exactly half
        (1920, 1280, 961, 641, "1/1"),  // fits to 961x641: half is a pixel short
        (1920, 1280, 2000, 2000, "1/1"),  // would need enlarging
        (640, 427, 320, 120, "1/2"),  // height-limited: 180x120; 1/4 = 160x107 too narrow
        (4096, 4096, 256, 256, "1/8"),
        (17, 9, 1, 1, "1/8"),  // TJSCALED rounds up: 3x2
    ])
    func smallestCoveringScaleIsChosen(width: Int, height: Int, boxWidth: Int, boxHeight: Int, expected: String) {
        let scale = DCTScale.choose(imageSize: Self.size(width, height), target: Self.size(boxWidth, boxHeight))
        #expect(scale.description == expected)
    }

    @Test func noTargetOrEmptyTargetMeansFullSize() {
        #expect(DCTScale.choose(imageSize: Self.size(1920, 1280), target: nil) == .full)
        #expect(DCTScale.choose(imageSize: Self.size(1920, 1280), target: Self.size(0, 300)) == .full)
    }

    @Test func fittedSizeRoundsUp() {
        #expect(fittedSize(of: Self.size(1920, 1280), in: Self.size(400, 300)) == Self.size(400, 267))
        #expect(fittedSize(of: Self.size(1280, 1920), in: Self.size(400, 300)) == Self.size(200, 300))
        #expect(fittedSize(of: Self.size(100, 100), in: Self.size(400, 300)) == Self.size(300, 300))
    }

    /// p03 (1920x1280) into 400x300 decodes at 1/4; p05 (4096x4096) into
    /// 256x256 at 1/8. Pixels match PIL's DCT-scaled ("draft") decodes.
    @Test(arguments: [
        ("p03_storm_1920x1280.jpg", size(400, 300), size(480, 320), size(1920, 1280), "@1/4"),
        ("p05_infinitesea_4096x4096.jpg", size(256, 256), size(512, 512), size(4096, 4096), "@1/8"),
    ])
    func jpegDecodesAtTheChosenScale(name: String, box: PixelSize, scaled: PixelSize, full: PixelSize, key: String) throws {
        let decoded = try decodeImage(try Fixtures.image(name), options: DecodeOptions(targetSize: box))
        #expect(decoded.image.size == scaled)
        #expect(decoded.fullSize == full)
        try expectMatchesReference(decoded.image, name + key, exact: false)
    }

    @Test func targetBoxIsInDisplayOrientation() throws {
        // p12 is stored 427x640 with Orientation=6 and displays 640x427. Into
        // 320x120 it fits as 180x120, so 1/4 (160x107) is too small and 1/2 is
        // chosen; judging by the stored shape would wrongly pick 1/4.
        let decoded = try decodeImage(
            try Fixtures.image("p12_china_exif6.jpg"), options: DecodeOptions(targetSize: Self.size(320, 120)))
        #expect(decoded.image.size == Self.size(320, 214))
        #expect(decoded.fullSize == Self.size(640, 427))
    }

    @Test func pngIgnoresTheTargetSize() throws {
        let decoded = try decodeImage(
            try Fixtures.image("p10_debianlogo_256x256_palette_trns.png"), options: DecodeOptions(targetSize: Self.size(16, 16)))
        #expect(decoded.image.size == Self.size(256, 256))
    }
}
