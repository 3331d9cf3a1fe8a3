import Pixels
import Testing

@testable import Encoding

@Suite struct PaletteMapperTests {
    /// 256 deterministic pseudo-random colours.
    private let palette: Palette = {
        let noise = TestImages.noise(width: 256, height: 1)
        return Palette(colors: (0..<256).map { RGB(r: noise[$0, 0].r, g: noise[$0, 0].g, b: noise[$0, 0].b) })
    }()

    private func distance(_ a: RGB, _ b: RGBA) -> Double {
        let dr = Double(a.r) - Double(b.r)
        let dg = Double(a.g) - Double(b.g)
        let db = Double(a.b) - Double(b.b)
        return (dr * dr + dg * dg + db * db).squareRoot()
    }

    @Test func exactPaletteColoursMapToThemselves() {
        var image = RGBAImage(width: 16, height: 16)
        for (i, color) in palette.colors.enumerated() {
            image[i % 16, i / 16] = RGBA(r: color.r, g: color.g, b: color.b)
        }
        let indexed = PaletteMapper(palette: palette, dither: .none).map(image)
        for (i, index) in indexed.indices.enumerated() {
            // Brute force: the nearest colour to an exact palette colour is itself (distance 0).
            #expect(palette.colors[Int(index)] == palette.colors[i])
        }
    }

    @Test func otherColoursMapNearlyAsWellAsBruteForce() {
        let probe = TestImages.noise(width: 64, height: 64, seed: 99)
        let indexed = PaletteMapper(palette: palette, dither: .none).map(probe)
        // The cube answers for its cell centre, at most sqrt(3 * 4^2) from the
        // pixel; by the triangle inequality the chosen colour is then at most
        // twice that further than the true nearest one.
        let slack = 2 * (3.0 * 16).squareRoot()
        var worse = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let pixel = probe[x, y]
                let best = palette.colors.map { distance($0, pixel) }.min()!
                let chosen = distance(palette.colors[Int(indexed.indices[y * 64 + x])], pixel)
                #expect(chosen <= best + slack)
                if chosen > best { worse += 1 }
            }
        }
        // And most pixels get the true nearest colour.
        #expect(worse < 64 * 64 / 4)
    }

    @Test func alphaBelowHalfIsTransparent() {
        let image = TestImages.image([[RGBA(r: 1, g: 2, b: 3, a: 127), RGBA(r: 1, g: 2, b: 3, a: 128)]])
        let indexed = PaletteMapper(palette: palette, dither: .ordered).map(image)
        #expect(indexed.transparent == [true, false])
        #expect(PaletteMapper(palette: palette, dither: .none).map(TestImages.noise(width: 4, height: 4)).transparent == nil)
    }

    @Test func emptyPaletteLeavesEverythingTransparent() {
        let indexed = PaletteMapper(palette: Palette(colors: []), dither: .ordered).map(TestImages.noise(width: 3, height: 2))
        #expect(indexed.transparent == [Bool](repeating: true, count: 6))
    }

    @Test(arguments: [Dither.ordered, .diffusion])
    func ditherIsDeterministic(dither: Dither) throws {
        let photo = try RawFixture.china.load()
        // Two independently built palettes and mappers: nothing random, nothing
        // left over from an earlier call (the lookup cube is filled per call).
        let first = PaletteMapper(palette: PaletteBuilder().build(from: photo), dither: dither).map(photo)
        let second = PaletteMapper(palette: PaletteBuilder().build(from: photo), dither: dither).map(photo)
        #expect(first == second)
    }

    @Test func orderedDitherAnchoredToTheImageSurvivesPanning() throws {
        let photo = try RawFixture.china.load()
        let mapper = PaletteMapper(palette: PaletteBuilder().build(from: photo), dither: .ordered)
        let full = mapper.map(photo)
        let crop = PixelRect(x: 13, y: 7, width: 100, height: 60)
        let panned = mapper.map(photo.cropped(to: crop), ditherOriginX: crop.x, ditherOriginY: crop.y)
        var differing = 0
        for y in 0..<crop.height {
            for x in 0..<crop.width
            where panned.indices[y * crop.width + x] != full.indices[(y + crop.y) * photo.width + x + crop.x] {
                differing += 1
            }
        }
        #expect(differing == 0)
        // Keyed to output positions instead, the same crop shifts the pattern.
        let outputKeyed = mapper.map(photo.cropped(to: crop))
        #expect(outputKeyed != panned)
    }

    private let blackAndWhite = Palette(colors: [RGB(r: 0, g: 0, b: 0), RGB(r: 255, g: 255, b: 255)])

    private func whiteShare(of level: UInt8, dither: Dither, weight: Int = 16) -> Double {
        let grey = RGBAImage(width: 64, height: 64, fill: RGBA(r: level, g: level, b: level))
        let indices = PaletteMapper(palette: blackAndWhite, dither: dither, diffusionWeight: weight).map(grey).indices
        return Double(indices.filter { $0 == 1 }.count) / Double(indices.count)
    }

    @Test func orderedDitherKeepsTheToneOfFlatAreas() {
        // Mixing black and white in the grey's proportion needs a 255 step, not the 441 diagonal.
        #expect(PaletteMapper(palette: blackAndWhite, dither: .ordered).ditherAmplitude == 255)
        for level in [32, 64, 128, 192, 224] {
            let share = whiteShare(of: UInt8(level), dither: .ordered)
            #expect(abs(share - Double(level) / 255) < 0.03, "grey \(level) came out \(share) white")
        }
        #expect(whiteShare(of: 128, dither: .none) == 1)
    }

    @Test func fullDiffusionKeepsTheToneAndALeakyOneDriftsToTheNearestColour() {
        for level in [32, 64, 128, 192, 224] {
            let share = whiteShare(of: UInt8(level), dither: .diffusion)
            #expect(abs(share - Double(level) / 255) < 0.01, "grey \(level) came out \(share) white")
        }
        // 12/16 passes on three quarters: a flat grey between far-apart
        // colours drifts towards the nearer one, never past it.
        let dark = whiteShare(of: 64, dither: .diffusion, weight: 12)
        #expect(dark < 64 / 255 && dark > 0.05, "grey 64 came out \(dark) white")
    }

    /// Diffusion runs in parts of about `diffusionRows` rows fixed by the
    /// height (not the cores), each starting with no carried error: each
    /// part of an image maps as it would alone.
    @Test func diffusionPartsStartAfresh() {
        let rows = PaletteMapper.diffusionRows
        let image = TestImages.noise(width: 48, height: 2 * rows)
        let mapper = PaletteMapper(palette: PaletteBuilder(maxColors: 16).build(from: image), dither: .diffusion)
        let whole = mapper.map(image).indices
        func alone(_ range: Range<Int>) -> [UInt8] {
            mapper.map(image.cropped(to: PixelRect(x: 0, y: range.lowerBound, width: 48, height: range.count))).indices
        }
        #expect(Array(whole[0..<(rows * 48)]) == alone(0..<rows))
        #expect(Array(whole[(rows * 48)...]) == alone(rows..<(2 * rows)))
        // Inside a part the error carries on: the second half of a part mapped alone differs.
        #expect(Array(whole[(rows / 2 * 48)..<(rows * 48)]) != alone((rows / 2)..<rows))
    }

    /// Rows of an image mapped where they are give the indices (and the
    /// transparency) of the same rows cropped out first; rows past the
    /// image are left out.
    @Test(arguments: [Dither.ordered, .diffusion])
    func rowsMapAsTheirCrop(dither: Dither) {
        var image = TestImages.noise(width: 97, height: 61, opaque: false)
        image[5, 20] = RGBA(r: 1, g: 2, b: 3, a: 0)
        let mapper = PaletteMapper(palette: PaletteBuilder(maxColors: 64).build(from: image), dither: dither)
        for rows in [13..<40, 0..<61, 50..<90] {
            let crop = image.cropped(to: PixelRect(x: 0, y: rows.lowerBound, width: 97, height: rows.count))
            #expect(
                mapper.map(image, rows: rows, ditherOriginX: 3, ditherOriginY: 5 + rows.lowerBound)
                    == mapper.map(crop, ditherOriginX: 3, ditherOriginY: 5 + rows.lowerBound), "rows \(rows)")
        }
    }
}
