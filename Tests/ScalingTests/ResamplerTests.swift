import Foundation
import GraphicsReadback
import Pixels
import Testing

@testable import Scaling

/// An image from rows of pixels, top to bottom.
private func image(_ rows: [[RGBA]]) -> RGBAImage {
    let width = rows.first?.count ?? 0
    var bytes: [UInt8] = []
    for row in rows {
        for pixel in row { bytes += [pixel.r, pixel.g, pixel.b, pixel.a] }
    }
    return RGBAImage(width: width, height: rows.count, pixels: bytes)
}

/// All pixels, row by row.
private func rows(_ image: RGBAImage) -> [[RGBA]] {
    (0..<image.height).map { y in (0..<image.width).map { x in image[x, y] } }
}

private func grey(_ value: UInt8, alpha: UInt8 = 255) -> RGBA { RGBA(r: value, g: value, b: value, a: alpha) }

/// A deterministic, irregular test image (a small linear congruential
/// generator, so failures reproduce).
private func noise(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RGBAImage {
    var state: UInt32 = 12345
    var result = RGBAImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            var channels: [UInt8] = []
            for _ in 0..<3 {
                state = state &* 1_664_525 &+ 1_013_904_223
                channels.append(UInt8(truncatingIfNeeded: state >> 24))
            }
            result[x, y] = RGBA(r: channels[0], g: channels[1], b: channels[2], a: alpha(x, y))
        }
    }
    return result
}

private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

/// `sum / 2` rounded to the nearest integer, ties to even (the resampler's rule).
private func halfRoundedToEven(_ sum: Int) -> Int {
    let floor = sum / 2
    return sum % 2 == 0 || floor % 2 == 0 ? floor : floor + 1
}

@Suite struct ResamplerGoldenTests {
    let resampler = Resampler(threads: 1)
    let bilinear = Resampler(threads: 1, upscaling: .bilinear)

    @Test func twoByTwoAveragesToOnePixel() {
        let source = image([
            [RGBA(r: 10, g: 20, b: 30), RGBA(r: 20, g: 40, b: 60)],
            [RGBA(r: 30, g: 60, b: 90), RGBA(r: 41, g: 80, b: 120)],
        ])
        // R: 101 / 4 = 25.25 → 25.
        #expect(rows(resampler.resize(source, to: size(1, 1))) == [[RGBA(r: 25, g: 50, b: 75)]])
    }

    @Test func fourByOneHalvesPairwise() {
        let source = image([
            [RGBA(r: 0, g: 10, b: 7), RGBA(r: 100, g: 11, b: 9), RGBA(r: 200, g: 3, b: 0), RGBA(r: 250, g: 4, b: 255)]
        ])
        // Ties round to even: G 10.5 → 10 and 3.5 → 4.
        #expect(rows(resampler.resize(source, to: size(2, 1))) == [[RGBA(r: 50, g: 10, b: 8), RGBA(r: 225, g: 4, b: 128)]])
    }

    @Test func fourToThreeWeighsFractionalCoverage() {
        // Each output covers 4/3 source pixels: weights ¾+¼, ½+½, ¼+¾.
        let source = image([[grey(0), grey(120), grey(240), grey(60)]])
        #expect(rows(resampler.resize(source, to: size(3, 1))) == [[grey(30), grey(180), grey(105)]])
    }

    @Test func translucentTiesRoundLikeOpaqueOnes() {
        // The transparent second row sends the job down the premultiplied
        // path; the opaque first row must still round (10 + 11) / 2 and
        // (13 + 14) / 2 to even exactly as the opaque path does.
        let source = image([
            [RGBA(r: 10, g: 13, b: 0), RGBA(r: 11, g: 14, b: 255)],
            [RGBA(r: 90, g: 90, b: 90, a: 0), RGBA(r: 90, g: 90, b: 90, a: 0)],
        ])
        #expect(rows(resampler.resize(source, to: size(1, 2))) == [[RGBA(r: 10, g: 14, b: 128)], [RGBA(r: 0, g: 0, b: 0, a: 0)]])
    }

    @Test func onePixelUpscalesToAConstantBlock() {
        let pixel = RGBA(r: 12, g: 34, b: 56, a: 78)
        let result = resampler.resize(image([[pixel]]), to: size(3, 3))
        #expect(rows(result) == Array(repeating: Array(repeating: pixel, count: 3), count: 3))
    }

    @Test func checkerboardHalvesToExactGrey() {
        let board = image((0..<4).map { y in (0..<4).map { x in grey((x + y) % 2 == 0 ? 0 : 255) } })
        // 127.5 rounds (ties to even) to 128 everywhere.
        #expect(
            rows(resampler.resize(board, to: size(2, 2))) == Array(repeating: Array(repeating: grey(128), count: 2), count: 2))
    }

    @Test func identityResizeKeepsEveryByte() {
        let source = noise(width: 7, height: 5) { x, y in UInt8((x * 37 + y * 11) % 256) }
        #expect(resampler.resize(source, to: source.size) == source)
    }

    @Test func transparentPixelsDoNotBleedTheirColour() {
        let pair = image([[RGBA(r: 255, g: 0, b: 0, a: 0), RGBA(r: 0, g: 0, b: 255, a: 255)]])
        #expect(rows(resampler.resize(pair, to: size(1, 1))) == [[RGBA(r: 0, g: 0, b: 255, a: 128)]])
        #expect(rows(bilinear.resize(pair, to: size(6, 1)))[0].map(\.a) == [0, 0, 85, 170, 255, 255])
        // Enlarging blends alpha only: every visible pixel stays pure blue.
        for filter in UpscaleFilter.allCases {
            for pixel in rows(Resampler(threads: 1, upscaling: filter).resize(pair, to: size(6, 1)))[0] where pixel.a > 0 {
                #expect(pixel.r == 0 && pixel.g == 0 && pixel.b == 255, "\(filter)")
            }
        }
    }

    @Test func wholePixelSourceRectEqualsTheCrop() {
        let source = noise(width: 6, height: 5)
        let region = resampler.resample(source, from: SourceRect(x: 2, y: 1, width: 3, height: 2), to: size(3, 2))
        #expect(region == source.cropped(to: PixelRect(x: 2, y: 1, width: 3, height: 2)))
    }

    @Test func halfPixelOffsetInterpolatesNeighbours() {
        let row = image([[grey(0), grey(100), grey(200), grey(50)]])
        let region = SourceRect(x: 0.5, y: 0, width: 3, height: 1)
        #expect(rows(bilinear.resample(row, from: region, to: size(3, 1))) == [[grey(50), grey(150), grey(125)]])
        // Catmull-Rom at t = ½ weighs −1/16, 9/16, 9/16, −1/16 (edges repeat):
        // 43.75, 165.625 and 131.25.
        #expect(rows(resampler.resample(row, from: region, to: size(3, 1))) == [[grey(44), grey(166), grey(131)]])
    }

    @Test func mixedAxesShrinkOneWayAndEnlargeTheOther() {
        let source = image([
            [grey(0), grey(40), grey(80), grey(120)],
            [grey(200), grey(200), grey(200), grey(200)],
        ])
        // Horizontal: box averages pairs (20, 100 / 200, 200). Vertical: bilinear
        // 2× with centres at −0.25, 0.25, 0.75, 1.25 (edges repeat).
        let result = bilinear.resize(source, to: size(2, 4))
        #expect(
            rows(result) == [
                [grey(20), grey(100)],
                [grey(65), grey(125)],
                [grey(155), grey(175)],
                [grey(200), grey(200)],
            ])
    }

    @Test func identityAxisBesideAShrunkAxisKeepsRows() {
        let source = noise(width: 8, height: 3)
        let result = resampler.resize(source, to: size(4, 3))
        for y in 0..<3 {
            for x in 0..<4 {
                let left = source[2 * x, y]
                let right = source[2 * x + 1, y]
                let expected = [
                    halfRoundedToEven(Int(left.r) + Int(right.r)),
                    halfRoundedToEven(Int(left.g) + Int(right.g)),
                    halfRoundedToEven(Int(left.b) + Int(right.b)),
                ]
                let pixel = result[x, y]
                #expect([Int(pixel.r), Int(pixel.g), Int(pixel.b)] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func regionsPastTheImageRepeatTheEdges() {
        let pair = image([[grey(10), grey(90)]])
        let widened = resampler.resample(pair, from: SourceRect(x: -2, y: 0, width: 6, height: 1), to: size(6, 1))
        #expect(rows(widened) == [[grey(10), grey(10), grey(10), grey(90), grey(90), grey(90)]])
    }
}

@Suite struct ResamplerQualityTests {
    let resampler = Resampler(threads: 1)

    @Test func twofoldBilinearUpscaleOfAGradientIsMonotonicWithEndpointsKept() {
        let ramp = image((0..<4).map { _ in (0..<8).map { x in RGBA(r: UInt8(x * 36), g: 255 - UInt8(x * 36), b: 9) } })
        let result = Resampler(threads: 1, upscaling: .bilinear).resize(ramp, to: size(16, 8))
        for row in rows(result) {
            let reds = row.map(\.r)
            let greens = row.map(\.g)
            #expect(reds.first == 0 && reds.last == 252)
            #expect(greens.first == 255 && greens.last == 3)
            #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(zip(greens, greens.dropFirst()).allSatisfy { $0 >= $1 })
            #expect(row.allSatisfy { $0.b == 9 && $0.a == 255 })
        }
    }

    @Test func catmullRomReproducesARampAwayFromTheEdges() {
        let ramp = image([(0..<8).map { x in grey(UInt8(x * 32)) }])
        let result = resampler.resize(ramp, to: size(16, 1))
        for x in 0..<16 {
            let centre = (Double(x) + 0.5) / 2 - 0.5
            // Only where all four taps are inside the image.
            guard centre >= 1, centre < 6 else { continue }
            #expect(result[x, 0] == grey(UInt8(centre * 32)), "x \(x)")
        }
    }

    @Test func catmullRomKeepsAStepSharperThanBilinear() {
        let step = image([(0..<8).map { x in grey(x < 4 ? 0 : 255) }])
        let ideal = (0..<32).map { x in (Double(x) + 0.5) / 4 < 4 ? 0.0 : 255.0 }
        func error(_ filter: UpscaleFilter) -> Double {
            let row = rows(Resampler(threads: 1, upscaling: filter).resize(step, to: size(32, 1)))[0]
            return zip(row, ideal).map { abs(Double($0.r) - $1) }.reduce(0, +)
        }
        #expect(error(.catmullRom) < error(.bilinear))
    }

    /// A smooth field sampled at pixel centres, in 0...255.
    private static func field(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Double {
        127.5 + 100 * sin(2 * .pi * x / width) * cos(2 * .pi * y / height) + 20 * (x / width)
    }

    private static func smoothImage(width: Int, height: Int) -> RGBAImage {
        var result = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = UInt8(field(Double(x) + 0.5, Double(y) + 0.5, Double(width), Double(height)).rounded())
                result[x, y] = RGBA(r: value, g: 255 - value, b: value / 2)
            }
        }
        return result
    }

    @Test func integerDownscaleEqualsTheBlockMean() {
        let source = Self.smoothImage(width: 64, height: 48)
        let result = resampler.resize(source, to: size(16, 12))
        var worst = 0
        for y in 0..<12 {
            for x in 0..<16 {
                var sum = 0
                for dy in 0..<4 { for dx in 0..<4 { sum += Int(source[x * 4 + dx, y * 4 + dy].r) } }
                worst = max(worst, abs(Int(result[x, y].r) * 16 - sum))
            }
        }
        // Within half a level (rounding), i.e. 8 in sixteenths.
        #expect(worst <= 8)
    }

    @Test func fractionalDownscaleOfASmoothImageHasHighPSNR() throws {
        let width = 120
        let height = 90
        let outWidth = 45
        let outHeight = 34
        let result = resampler.resize(Self.smoothImage(width: width, height: height), to: size(outWidth, outHeight))
        let errors = (0..<outHeight).flatMap { y in
            (0..<outWidth).map { x in
                // The output pixel centre, in source coordinates.
                let sx = (Double(x) + 0.5) * Double(width) / Double(outWidth)
                let sy = (Double(y) + 0.5) * Double(height) / Double(outHeight)
                return Double(result[x, y].r) - Self.field(sx, sy, Double(width), Double(height))
            }
        }
        let psnr = try #require(PSNR.decibels(differences: errors))
        #expect(psnr > 40, "PSNR \(psnr) dB")
    }
}

@Suite struct ResamplerPathTests {
    @Test func parallelBandsMatchTheSerialResult() {
        let opaque = noise(width: 61, height: 47)
        let translucent = noise(width: 61, height: 47) { x, y in UInt8((x * 13 + y * 7) % 256) }
        let serial = Resampler(threads: 1)
        let parallel = Resampler(threads: 3, parallelThreshold: 0)
        for source in [opaque, translucent] {
            for (region, target) in [
                (SourceRect(covering: source.size), size(23, 17)),
                (SourceRect(x: 3.3, y: 2.7, width: 20.5, height: 11.25), size(50, 31)),
            ] {
                #expect(parallel.resample(source, from: region, to: target) == serial.resample(source, from: region, to: target))
            }
        }
    }

    /// Rows made when asked, a few at a time in any order, are the rows of
    /// the whole resample: enlarged, shrunk, cropped one to one (a copy),
    /// opaque or translucent throughout; `opaque` says which.
    @Test func rowsOnDemandAreTheResample() {
        let opaque = noise(width: 61, height: 47)
        let translucent = noise(width: 61, height: 47) { x, y in UInt8((x * 13 + y * 7) % 256) }
        let resampler = Resampler(threads: 1)
        for source in [opaque, translucent] {
            for (region, target) in [
                (SourceRect(covering: source.size), size(23, 17)),
                (SourceRect(x: 3.3, y: 2.7, width: 20.5, height: 11.25), size(50, 31)),
                (SourceRect(x: 5, y: 4, width: 30, height: 20), size(30, 20)),
            ] {
                let rows = resampler.rows(source, from: region, to: target)
                #expect(rows.size == target)
                #expect(rows.opaque == (source == opaque))
                var made = [UInt8](repeating: 0, count: target.area * 4)
                for band in [(5..<target.height), (0..<2), (2..<5)] {
                    made.withUnsafeMutableBufferPointer { rows.fill(band, $0.baseAddress! + band.lowerBound * target.width * 4) }
                }
                #expect(made == resampler.resample(source, from: region, to: target).pixels)
            }
        }
    }

    @Test func opaqueFastPathAgreesWithThePremultipliedPath() {
        let opaque = noise(width: 40, height: 30)
        // One transparent corner pixel sends the whole (single-band) job down
        // the premultiplied path; elsewhere results must agree to rounding.
        let nearlyOpaque = noise(width: 40, height: 30) { x, y in x == 39 && y == 29 ? 0 : 255 }
        let resampler = Resampler(threads: 1)
        let fast = resampler.resize(opaque, to: size(17, 13))
        let premultiplied = resampler.resize(nearlyOpaque, to: size(17, 13))
        for y in 0..<12 {
            for x in 0..<16 {
                let a = fast[x, y]
                let b = premultiplied[x, y]
                #expect(abs(Int(a.r) - Int(b.r)) <= 1 && abs(Int(a.g) - Int(b.g)) <= 1 && abs(Int(a.b) - Int(b.b)) <= 1)
                #expect(b.a == 255)
            }
        }
        #expect(premultiplied[16, 12].a < 255)
    }

    @Test func degenerateInputsGiveWellFormedImages() {
        let resampler = Resampler(threads: 1)
        let source = noise(width: 5, height: 4)
        let empty = resampler.resize(source, to: size(0, 3))
        #expect(empty.width == 0 && empty.height == 3 && empty.pixels.isEmpty)
        let fromNothing = resampler.resize(RGBAImage(width: 0, height: 0), to: size(2, 2))
        #expect(fromNothing == RGBAImage(width: 2, height: 2))
        let nanRegion = SourceRect(x: .nan, y: 0, width: 3, height: .infinity)
        #expect(resampler.resample(source, from: nanRegion, to: size(3, 2)) == resampler.resize(source, to: size(3, 2)))
        let pointRegion = resampler.resample(source, from: SourceRect(x: 2.5, y: 1.5, width: 0, height: 0), to: size(3, 3))
        #expect(Set(pointRegion.pixels.chunks(of: 4)).count == 1)
        let tall = resampler.resize(noise(width: 1, height: 300), to: size(7, 1))
        #expect(tall.size == size(7, 1))
    }
}

extension Array {
    fileprivate func chunks(of length: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: length).map { self[$0..<Swift.min($0 + length, count)] }
    }
}

@Suite struct ViewportResamplerTests {
    @Test func nativeViewOfAViewportIsTheExactCrop() {
        let source = noise(width: 40, height: 30)
        let viewport = Viewport(imageSize: source.size, viewSize: size(10, 10), fit: .actual)
        #expect(viewport.sourceRect == SourceRect(x: 15, y: 10, width: 10, height: 10))
        let drawn = Resampler(threads: 1).resample(source, from: viewport.sourceRect, to: viewport.outputSize)
        #expect(drawn == source.cropped(to: PixelRect(x: 15, y: 10, width: 10, height: 10)))
    }

    @Test func everyViewportStateResamplesToItsOutputSize() {
        let source = noise(width: 37, height: 23)
        let resampler = Resampler(threads: 1)
        var viewport = Viewport(imageSize: source.size, viewSize: size(16, 9))
        for step in 0..<6 {
            let drawn = resampler.resample(source, from: viewport.sourceRect, to: viewport.outputSize)
            #expect(drawn.size == viewport.outputSize, "step \(step)")
            viewport = viewport.zoomed(by: 1.7, anchor: (3, 2)).panned(byViewFractionX: 0.3, y: -0.2)
        }
    }
}
