import Encoding
import GraphicsReadback
import Pixels
import Testing

/// Exact sixel bytes for tiny images, checked against the format by hand.
@Suite struct SixelEncoderTests {
    private func sixel(_ rows: [[RGBA]]) -> String {
        TestImages.string(SixelRenderer().render(TestImages.image(rows)))
    }

    @Test func twoByTwoOfTwoColoursIsExact() {
        let red = TestImages.red
        let blue = TestImages.blue
        // Colour 0 (red, seen first) paints row 0 of column 0 ('@' = 1) and
        // row 1 of column 1 ('A' = 2); colour 1 (blue) the other two.
        #expect(
            sixel([[red, blue], [blue, red]])
                == "\u{1B}P0;1;0q\"1;1;2;2#0;2;100;0;0#1;2;0;0;100#0@A$#1A@\u{1B}\\")
    }

    @Test func runOfTenUsesRepeat() {
        let row = [RGBA](repeating: TestImages.green, count: 10)
        #expect(sixel([row]) == "\u{1B}P0;1;0q\"1;1;10;1#0;2;0;100;0#0!10@\u{1B}\\")
    }

    @Test func runsShorterThanFourAreLiteral() {
        let row = [RGBA](repeating: TestImages.green, count: 3)
        #expect(sixel([row]).hasSuffix("#0@@@\u{1B}\\"))
    }

    @Test func sevenRowsMakeTwoBands() {
        let column = [[RGBA]](repeating: [TestImages.red], count: 7)
        // Band 1: all six rows ('~' = 63); band 2: row 0 only ('@').
        #expect(sixel(column) == "\u{1B}P0;1;0q\"1;1;1;7#0;2;100;0;0#0~-#0@\u{1B}\\")
    }

    @Test func transparentPixelsAreNeverPainted() throws {
        let red = TestImages.red
        let clear = TestImages.clear
        let row = [red, clear, red, clear, clear, clear, clear, clear, red, clear]
        let text = sixel([row])
        // Gaps are empty sixels ('?'), long ones repeated; the trailing gap is not written.
        #expect(text == "\u{1B}P0;1;0q\"1;1;10;1#0;2;100;0;0#0@?@!5?@\u{1B}\\")
        let decoded = try SixelDecoder.decode(Array(text.utf8))
        for (x, pixel) in row.enumerated() {
            #expect(decoded.image[x, 0].a == pixel.a)
        }
    }

    @Test func fullyTransparentImageHasNoRegistersOrBands() {
        let clear = TestImages.clear
        #expect(sixel([[clear, clear], [clear, clear]]) == "\u{1B}P0;1;0q\"1;1;2;2\u{1B}\\")
    }

    @Test func onlyColoursUsedInABandAreSelectedThere() throws {
        // Band 1 red only, band 2 blue only: each band selects one colour.
        let rows = [[RGBA]](repeating: [TestImages.red], count: 6) + [[TestImages.blue]]
        #expect(sixel(rows) == "\u{1B}P0;1;0q\"1;1;1;7#0;2;100;0;0#1;2;0;0;100#0~-#1@\u{1B}\\")
    }

    /// A picture whose top band is all transparent (a grid tile's padding)
    /// selects a register before its first `-`: Konsole 22.12 loses the
    /// last register defined when a `-` follows it, and painted that
    /// colour black.
    @Test func aRegisterIsSelectedBeforeALeadingBandBreak() {
        let clear = TestImages.clear
        let rows = [[RGBA]](repeating: [clear], count: 6) + [[TestImages.red]]
        #expect(sixel(rows) == "\u{1B}P0;1;0q\"1;1;1;7#0;2;100;0;0#0-#0@\u{1B}\\")
    }

    @Test func registersAreRoundedPercentages() {
        let grey = RGBA(r: 128, g: 1, b: 254)
        // 128 -> 50.2 -> 50, 1 -> 0.39 -> 0, 254 -> 99.6 -> 100
        #expect(sixel([[grey]]).contains("#0;2;50;0;100"))
    }

    @Test func fewerRegistersWhenAsked() throws {
        let photo = try RawFixture.coffee.load()
        let bytes = SixelRenderer(options: .init(colorRegisters: 16)).render(photo)
        let decoded = try SixelDecoder.decode(bytes)
        #expect(decoded.registers.count <= 16)
        #expect(decoded.registers.keys.allSatisfy { $0 < 16 })
    }

    @Test func indicesOutsideThePaletteAreLeftUnpainted() throws {
        let indexed = try IndexedImage(width: 2, height: 1, indices: [0, 5])
        let palette = Palette(colors: [RGB(r: 255, g: 255, b: 255)])
        let text = TestImages.string(SixelEncoder().encode(indexed, palette: palette))
        #expect(text == "\u{1B}P0;1;0q\"1;1;2;1#0;2;100;100;100#0@\u{1B}\\")
    }

    @Test func aColourInTheLastColumnKeepsTheNextColoursColumns() throws {
        // Colour 0 fills column 1 (the last) and five rows of column 0;
        // colour 1 paints row 0 of column 0. Colour 0's repeat visits of the
        // last column must not land in colour 1's list of columns.
        let indices: [UInt8] = [1, 0] + [UInt8](repeating: 0, count: 10)
        let indexed = try IndexedImage(width: 2, height: 6, indices: indices)
        let palette = Palette(colors: [RGB(r: 255, g: 0, b: 0), RGB(r: 0, g: 0, b: 255)])
        let text = TestImages.string(SixelEncoder().encode(indexed, palette: palette))
        #expect(text == "\u{1B}P0;1;0q\"1;1;2;6#0;2;100;0;0#1;2;0;0;100#0}~$#1@\u{1B}\\")
    }

    @Test func indexedImageRejectsMismatchedBuffers() {
        #expect(throws: IndexedImageError.indexCountMismatch(expected: 4, actual: 3)) {
            try IndexedImage(width: 2, height: 2, indices: [0, 0, 0])
        }
        #expect(throws: IndexedImageError.maskCountMismatch(expected: 4, actual: 1)) {
            try IndexedImage(width: 2, height: 2, indices: [0, 0, 0, 0], transparent: [true])
        }
    }
}
