import Pixels
import Testing

@testable import Decoding

/// DCT scaling: the smallest decode at 1/8, 1/4, 1/2 or 3/4 that still
/// covers the image's fit inside the target box (given in display orientation).
@Suite struct DCTScalingTests {
    static func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    @Test func libjpegTurboOffersTheReductions() {
        #expect(DCTScale.reductions.map(\.description) == ["1/8", "1/4", "1/2", "3/4"])
    }

    @Test(arguments: [
        (1920, 1280, 400, 300, "1/4"),  // fits to 400x267: 1/4 = 480x320
        (1920, 1280, 800, 600, "1/2"),  // fits to 800x534: 1/2 = 960x640
        (1920, 1280, 100, 100, "1/8"),  // fits to 100x67: 1/8 = 240x160
        (1920, 1280, 960, 640, "1/2"),  // exactly half
        (1920, 1280, 961, 641, "3/4"),  // fits to 961x641: half is a pixel short, 3/4 = 1440x960
        (1920, 1280, 1500, 1000, "1/1"),  // 3/4 = 1440x960 is short
        (3500, 2333, 2560, 1440, "3/4"),  // fits to 2161x1440: 3/4 = 2625x1750
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

    /// PNGs shrink by whole factors (block averages), still covering the fit.
    @Test(arguments: [
        ("p10_debianlogo_256x256_palette_trns.png", 16, 16, 16, 16), ("p02_coffee_600x400.png", 100, 100, 100, 67),
        ("p02_coffee_600x400.png", 250, 250, 300, 200), ("p11_chelsea_interlaced_451x300.png", 100, 100, 113, 75),
        ("p02_coffee_600x400.png", 1000, 1000, 600, 400),
    ])
    func pngShrinksByAWholeFactorThatStillCovers(name: String, targetWidth: Int, targetHeight: Int, width: Int, height: Int)
        throws
    {
        let bytes = try Fixtures.image(name)
        let reduced = try decodeImage(bytes, options: DecodeOptions(targetSize: Self.size(targetWidth, targetHeight)))
        #expect(reduced.image.size == Self.size(width, height))
        let full = try decodeImage(bytes)
        #expect(reduced.fullSize == full.image.size)
    }

    /// A reduced pixel is the alpha-weighted mean of its block of the full decode.
    @Test(arguments: ["p02_coffee_600x400.png", "p06_chelsea_alpha_451x300.png", "p11_chelsea_interlaced_451x300.png"])
    func reducedPixelsAreBlockMeans(name: String) throws {
        let bytes = try Fixtures.image(name)
        let full = try decodeImage(bytes).image
        let reduced = try decodeImage(bytes, options: DecodeOptions(targetSize: Self.size(full.width / 4, full.height / 4))).image
        #expect(reduced.width == (full.width + 3) / 4)
        for (ox, oy) in [(0, 0), (reduced.width / 2, reduced.height / 3), (reduced.width - 1, reduced.height - 1)] {
            var sums = [0.0, 0.0, 0.0]
            var alpha = 0.0
            var count = 0.0
            for y in (oy * 4)..<min(full.height, oy * 4 + 4) {
                for x in (ox * 4)..<min(full.width, ox * 4 + 4) {
                    let p = full[x, y]
                    let a = Double(p.a)
                    sums[0] += Double(p.r) * a
                    sums[1] += Double(p.g) * a
                    sums[2] += Double(p.b) * a
                    alpha += a
                    count += 1
                }
            }
            let q = reduced[ox, oy]
            #expect(abs(Double(q.a) - alpha / count) <= 1, "\(name) \(ox),\(oy)")
            if alpha > 0 { #expect(abs(Double(q.r) - sums[0] / alpha) <= 1 && abs(Double(q.b) - sums[2] / alpha) <= 1) }
        }
    }
}
