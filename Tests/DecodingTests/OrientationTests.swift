import Pixels
import Testing

@testable import Decoding

@Suite struct OrientationTests {
    /// A 3x2 image whose pixels are numbered 1...6 (in the red channel) row by row:
    ///     1 2 3
    ///     4 5 6
    static let numbered: RGBAImage = {
        var image = RGBAImage(width: 3, height: 2)
        for y in 0..<2 {
            for x in 0..<3 { image[x, y] = RGBA(r: UInt8(y * 3 + x + 1), g: 0, b: 0, a: 255) }
        }
        return image
    }()

    /// The numbered image as each orientation must display it (rows of red values).
    static let expectedLayouts: [(Int, [[UInt8]])] = [
        (1, [[1, 2, 3], [4, 5, 6]]),
        (2, [[3, 2, 1], [6, 5, 4]]),  // mirrored left-right
        (3, [[6, 5, 4], [3, 2, 1]]),  // turned 180°
        (4, [[4, 5, 6], [1, 2, 3]]),  // flipped top-bottom
        (5, [[1, 4], [2, 5], [3, 6]]),  // transposed
        (6, [[4, 1], [5, 2], [6, 3]]),  // turned 90° clockwise
        (7, [[6, 3], [5, 2], [4, 1]]),  // transverse
        (8, [[3, 6], [2, 5], [1, 4]]),  // turned 90° counter-clockwise
    ]

    @Test(arguments: expectedLayouts)
    func orientationTurnsPixelsTheEXIFWay(orientation: Int, rows: [[UInt8]]) {
        let turned = Self.numbered.oriented(Orientation(exifValue: orientation))
        #expect(turned.height == rows.count && turned.width == rows[0].count)
        let got = (0..<turned.height).map { y in (0..<turned.width).map { x in turned[x, y].r } }
        #expect(got == rows)
        #expect(turned.hasTransparency == false)
    }

    @Test func largeImagesTurnAcrossTileBoundaries() {
        // 150x70 crosses the 32-pixel tiles unevenly; turning clockwise four times is the identity.
        var image = RGBAImage(width: 150, height: 70)
        for y in 0..<70 {
            for x in 0..<150 { image[x, y] = RGBA(r: UInt8(x), g: UInt8(y), b: UInt8((x * y) & 0xFF), a: 200) }
        }
        let once = image.oriented(.rotatedClockwise)
        #expect(once.size == PixelSize(width: 70, height: 150))
        #expect(once[69, 0] == image[0, 0])  // top-left goes top-right
        #expect(once[0, 149] == image[149, 69])  // bottom-right goes bottom-left
        let fourTimes = once.oriented(.rotatedClockwise).oriented(.rotatedClockwise).oriented(.rotatedClockwise)
        #expect(fourTimes == image)
        #expect(image.oriented(.transposed).oriented(.transposed) == image)
        #expect(image.oriented(.rotatedClockwise).oriented(.rotatedCounterclockwise) == image)
    }

    @Test func outOfRangeValuesMeanUpright() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: -3) == .up)
    }

    static let orientedFixtures = (1...8).map { k in
        "v\(12 + k)_china_orient\(k)_\(k >= 5 ? "80x120" : "120x80").jpg"
    }

    /// One upright picture stored eight ways: every file displays like PIL's
    /// exif_transpose and like the orientation-1 file.
    @Test(arguments: zip(1...8, orientedFixtures))
    func everyEXIFOrientationDisplaysUpright(orientation: Int, name: String) throws {
        let bytes = try Fixtures.image(name)
        #expect(exifOrientation(inJPEG: bytes) == orientation)
        let decoded = try decodeImage(bytes)
        #expect(decoded.image.size == PixelSize(width: 120, height: 80))
        #expect(decoded.fullSize == PixelSize(width: 120, height: 80))
        try expectMatchesReference(decoded.image, name, exact: false)
        let upright = try decodeImage(try Fixtures.image(Self.orientedFixtures[0])).image
        // Separately compressed, so not bit-identical, but the same picture.
        #expect(meanAbsoluteDifference(decoded.image, upright) < 2.5)
    }

    @Test func pngEXIfChunkIsHonoured() throws {
        let decoded = try decodeImage(try Fixtures.image("v12_china_exif6_png_64x96.png"))
        #expect(decoded.image.size == PixelSize(width: 96, height: 64))
        #expect(decoded.fullSize == PixelSize(width: 96, height: 64))
    }

    /// A view's turns (issue 29): one quarter turn clockwise puts the left
    /// pixel on top; any sequence of `<` `>` `|` `^` composed into one turn
    /// draws what applying each in turn draws; four turns are none.
    @Test func turnsCompose() {
        let a: [UInt8] = [1, 1, 1, 255]
        let b: [UInt8] = [2, 2, 2, 255]
        let c: [UInt8] = [3, 3, 3, 255]
        let image = RGBAImage(width: 3, height: 1, pixels: a + b + c)
        let clockwise = image.turned(ImageTurn().rotated(clockwise: true))
        #expect(clockwise.size == PixelSize(width: 1, height: 3) && clockwise.pixels == a + b + c)
        #expect(image.turned(ImageTurn().flippedLeftRight).pixels == c + b + a)
        let twoByThree = RGBAImage(width: 2, height: 3, pixels: (0..<24).map { UInt8($0) })
        let steps: [(ImageTurn) -> ImageTurn] = [
            { $0.rotated(clockwise: true) }, { $0.rotated(clockwise: false) }, { $0.flippedLeftRight }, { $0.flippedUpsideDown },
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var turn = ImageTurn()
            var stepped = twoByThree
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let step = steps.randomElement(using: &generator)!
                turn = step(turn)
                stepped = stepped.turned(step(ImageTurn()))
            }
            #expect(twoByThree.turned(turn) == stepped, "\(turn)")
            #expect(turn.turnedSize(twoByThree.size) == stepped.size)
        }
        var around = ImageTurn(mirrored: true)
        for _ in 0..<4 { around = around.rotated(clockwise: true) }
        #expect(around == ImageTurn(mirrored: true))
        #expect(ImageTurn().flippedLeftRight.flippedLeftRight == ImageTurn())
    }
}
