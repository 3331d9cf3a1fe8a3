import Encoding
import Pixels
import Testing

/// A cell of 8x8 samples painted from a picture in characters: `#` is
/// `ink`, `.` is `paper`, ` ` transparent.
private func cell(_ rows: [String], ink: RGBA, paper: RGBA) -> RGBAImage {
    TestImages.image(
        rows.map { row in
            row.map { $0 == "#" ? ink : $0 == "." ? paper : TestImages.clear }
        })
}

/// Cells side by side (each 8x8 samples), as one image.
private func row(of cells: [RGBAImage]) -> RGBAImage {
    var image = RGBAImage(width: cells.count * 8, height: 8)
    for (index, cell) in cells.enumerated() {
        for y in 0..<8 {
            for x in 0..<8 { image[index * 8 + x, y] = cell[x, y] }
        }
    }
    return image
}

private let white = RGBA(r: 255, g: 255, b: 255)
private let black = RGBA(r: 0, g: 0, b: 0)

private func rgb(_ color: RGBA) -> RGB { RGB(r: color.r, g: color.g, b: color.b) }

@Suite struct GlyphChooserTests {
    let blocks = GlyphRepertoire.blocks

    /// The glyph, its ink and the rest of the cell chosen for a cell, as
    /// `▄ 0,0,0 on 255,255,255` (`terminal`: the terminal's background).
    private func choice(_ cell: RGBAImage, in repertoire: GlyphRepertoire = .blocks) -> String {
        let choice = repertoire.choose(cell)
        func name(_ paint: CellPaint) -> String {
            switch paint {
            case .terminalBackground: return "terminal"
            case .color(let color): return "\(color.r),\(color.g),\(color.b)"
            }
        }
        let glyph = Character(repertoire.glyphs[choice.glyph].scalar)
        return "\(glyph) " + (choice.ink.map { name($0) + " on " } ?? "") + name(choice.paper)
    }

    @Test func aFlatCellIsASpaceOnItsColour() {
        let flat = RGBAImage(width: 8, height: 8, fill: RGBA(r: 128, g: 128, b: 128))
        #expect(choice(flat) == "  128,128,128")
    }

    /// Lower eighths for horizontal edges, with the upper colour as
    /// background: the ink never touches the cell's top edge, where
    /// xterm's font leaves a pixel row of background.
    @Test func horizontalEdgesAreLowerEighths() {
        let upperHalf = cell(
            Array(repeating: "########", count: 4) + Array(repeating: "........", count: 4), ink: white, paper: black)
        #expect(choice(upperHalf) == "▄ 0,0,0 on 255,255,255")
        let lowerThree = cell(
            Array(repeating: "........", count: 5) + Array(repeating: "########", count: 3), ink: TestImages.red,
            paper: TestImages.blue)
        #expect(choice(lowerThree) == "▃ 255,0,0 on 0,0,255")
        let upperOne = cell(["########"] + Array(repeating: "........", count: 7), ink: TestImages.green, paper: TestImages.blue)
        #expect(choice(upperOne) == "▇ 0,0,255 on 0,255,0")
    }

    @Test func verticalEdgesAreLeftEighths() {
        let leftTwo = cell(Array(repeating: "##......", count: 8), ink: TestImages.green, paper: black)
        #expect(choice(leftTwo) == "▎ 0,255,0 on 0,0,0")
        // Both ▉ and ▕ ink the top edge: ▕ leaves the less of it to a seam.
        let rightOne = cell(Array(repeating: ".......#", count: 8), ink: TestImages.green, paper: black)
        #expect(choice(rightOne) == "▕ 0,255,0 on 0,0,0")
    }

    @Test func cornersAreQuadrants() {
        let lowerLeft = cell(
            Array(repeating: "........", count: 4) + Array(repeating: "####....", count: 4), ink: white, paper: black)
        #expect(choice(lowerLeft) == "▖ 255,255,255 on 0,0,0")
        // Both of the pair touch the top: the smaller ink.
        let upperRight = cell(
            Array(repeating: "....####", count: 4) + Array(repeating: "........", count: 4), ink: white, paper: black)
        #expect(choice(upperRight) == "▝ 255,255,255 on 0,0,0")
        let diagonal = cell(
            Array(repeating: "....####", count: 4) + Array(repeating: "####....", count: 4), ink: white, paper: black)
        #expect(choice(diagonal) == "▚ 0,0,0 on 255,255,255")
    }

    /// The split and colours with the least squared error, not the first
    /// that comes close: a soft edge (two grey levels) across the lower
    /// quarter goes to `▂` in each side's mean.
    @Test func colourMeansOfTheBestSplit() {
        var image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 200, g: 200, b: 200))
        for x in 0..<8 {
            image[x, 6] = RGBA(r: 20, g: 20, b: 20)
            image[x, 7] = RGBA(r: 30, g: 30, b: 30)
            image[x, 5] = RGBA(r: 190, g: 190, b: 190)
        }
        #expect(choice(image) == "▂ 25,25,25 on 198,198,198")
    }

    @Test func transparentSamplesShowTheTerminalsBackground() {
        let lower = cell(
            Array(repeating: "        ", count: 5) + Array(repeating: "########", count: 3), ink: TestImages.red, paper: black)
        #expect(choice(lower) == "▃ 255,0,0 on terminal")
        let upper = cell(
            Array(repeating: "########", count: 4) + Array(repeating: "        ", count: 4), ink: TestImages.red, paper: black)
        // Opaque along the top: reverse video, the ink (▄) in the terminal's
        // background on red, so the top edge is the cell's background (▀
        // would leave xterm's seam, in the terminal's background, across red).
        #expect(choice(upper) == "▄ terminal on 255,0,0")
        let right = cell(Array(repeating: "    ####", count: 8), ink: TestImages.red, paper: black)
        #expect(choice(right) == "▐ 255,0,0 on terminal")
        #expect(choice(RGBAImage(width: 8, height: 8)) == "  terminal")
        // A picture's last row 7/8 covered and its last column: the cell's
        // background on top, the ink in the terminal's background.
        let lastRow = cell(Array(repeating: "########", count: 7) + ["        "], ink: TestImages.red, paper: black)
        #expect(choice(lastRow) == "▁ terminal on 255,0,0")
        let lastColumn = cell(Array(repeating: "####### ", count: 8), ink: TestImages.red, paper: black)
        #expect(choice(lastColumn) == "▕ terminal on 255,0,0")
        // A cell past the image's edge: its missing samples are transparent.
        #expect(choice(RGBAImage(width: 4, height: 8, fill: TestImages.blue)) == "▌ 0,0,255 on terminal")
    }

    /// Sextants' thirds fall inside samples (2⅔ rows of 8): each sample
    /// counts on each side for the part of it there, so the colours are
    /// those parts' means.
    @Test func sextantsWhereTheRepertoireHasThem() {
        let upperLeft = cell(
            Array(repeating: "####....", count: 3) + Array(repeating: "........", count: 5), ink: TestImages.red,
            paper: TestImages.blue)
        // U+1FB00 BLOCK SEXTANT-1 (not ▘, a quarter): rows 0-2⅔ all red; the
        // rest holds ⅓ of a red row of 4 samples in 53⅓: (6, 0, 249).
        #expect(choice(upperLeft, in: .sextants) == "\u{1FB00} 255,0,0 on 6,0,249")
        // Without sextants: the upper left quarter, 3 red rows and a blue one.
        #expect(choice(upperLeft) == "▘ 191,0,64 on 0,0,255")
        let middleLeft = cell(
            Array(repeating: "........", count: 3) + Array(repeating: "####....", count: 2)
                + Array(repeating: "........", count: 3),
            ink: TestImages.red, paper: TestImages.blue)
        // U+1FB03 BLOCK SEXTANT-3: rows 2⅔-5⅓ hold 2 red rows and ⅔ of a blue one.
        #expect(choice(middleLeft, in: .sextants) == "\u{1FB03} 191,0,64 on 0,0,255")
        #expect(!choice(middleLeft).hasPrefix("\u{1FB03}"))
    }

    @Test func halfBlocksAreLowerHalvesWithTheUpperColourBehind() {
        let pair = TestImages.image([[TestImages.red], [TestImages.blue]])
        #expect(choice(pair, in: .halfBlocks) == "▄ 0,0,255 on 255,0,0")
        #expect(
            choice(TestImages.image([[TestImages.red], [TestImages.red]]), in: .halfBlocks) == "  255,0,0")
        #expect(
            choice(TestImages.image([[TestImages.red], [TestImages.clear]]), in: .halfBlocks) == "▄ terminal on 255,0,0")
        #expect(
            choice(TestImages.image([[TestImages.clear], [TestImages.red]]), in: .halfBlocks) == "▄ 255,0,0 on terminal")
    }

    /// No opaque cell is ever drawn with ink along its whole top edge
    /// (`█ ▀ ▔ ▛ ▜`, sextants with both upper sextants): in xterm that
    /// edge is a seam.
    @Test(arguments: [GlyphRepertoire.blocks, .sextants, .halfBlocks])
    func opaqueCellsLeaveTheTopEdgeToTheBackground(repertoire: GlyphRepertoire) {
        let noise = TestImages.noise(width: repertoire.columns * 40, height: repertoire.rows * 20)
        var inkedAlongTheTop: [Character] = []
        for cellY in 0..<20 {
            for cellX in 0..<40 {
                var cell = RGBAImage(width: repertoire.columns, height: repertoire.rows)
                for y in 0..<repertoire.rows {
                    for x in 0..<repertoire.columns {
                        cell[x, y] = noise[cellX * repertoire.columns + x, cellY * repertoire.rows + y]
                    }
                }
                let glyph = repertoire.glyphs[repertoire.choose(cell).glyph]
                if glyph.topInk == BlockGlyph.latticeColumns { inkedAlongTheTop.append(Character(glyph.scalar)) }
            }
        }
        #expect(inkedAlongTheTop.isEmpty)
    }

    /// On a photo, the symbols picture is closer to the pixels than the
    /// half-block one of the same cells (both judged on 8x8 samples).
    @Test func symbolsErrLessThanHalfBlocks() throws {
        let photo = try RawFixture.china.load()
        var symbolsError = 0.0
        var halfBlockError = 0.0
        let columns = photo.width / 8
        let rows = photo.height / 8
        for cellY in 0..<rows {
            for cellX in 0..<columns {
                var cell = RGBAImage(width: 8, height: 8)
                for y in 0..<8 {
                    for x in 0..<8 { cell[x, y] = photo[cellX * 8 + x, cellY * 8 + y] }
                }
                symbolsError += squaredError(cell, drawn: GlyphRepertoire.blocks, choice: GlyphRepertoire.blocks.choose(cell))
                // Half-blocks: the mean of each half.
                var halves = RGBAImage(width: 1, height: 2)
                for half in 0..<2 {
                    var sum = (0, 0, 0)
                    for y in half * 4..<(half * 4 + 4) {
                        for x in 0..<8 {
                            sum = (sum.0 + Int(cell[x, y].r), sum.1 + Int(cell[x, y].g), sum.2 + Int(cell[x, y].b))
                        }
                    }
                    halves[0, half] = RGBA(r: UInt8((sum.0 + 16) / 32), g: UInt8((sum.1 + 16) / 32), b: UInt8((sum.2 + 16) / 32))
                }
                halfBlockError += squaredError(cell, drawn: .halfBlocks, choice: GlyphRepertoire.halfBlocks.choose(halves))
            }
        }
        #expect(symbolsError < 0.8 * halfBlockError, "symbols \(symbolsError), half-blocks \(halfBlockError)")
    }

    /// The squared error of `choice` painted over `cell`'s 8x8 samples.
    private func squaredError(_ cell: RGBAImage, drawn repertoire: GlyphRepertoire, choice: CellChoice) -> Double {
        let glyph = repertoire.glyphs[choice.glyph]
        var error = 0.0
        for y in 0..<8 {
            for x in 0..<8 {
                // The sample's centre, in lattice units doubled: (2x + 1, 6y + 3).
                let inked = glyph.ink.contains { rect in
                    2 * x + 1 > 2 * rect.x && 2 * x + 1 < 2 * (rect.x + rect.width) && 6 * y + 3 > 2 * rect.y
                        && 6 * y + 3 < 2 * (rect.y + rect.height)
                }
                // Opaque cells only: every paint is a colour.
                guard case .color(let shown) = (inked ? choice.ink : choice.paper) ?? choice.paper else {
                    Issue.record("an opaque cell painted with the terminal's background")
                    return error
                }
                let source = cell[x, y]
                for (a, b) in [(shown.r, source.r), (shown.g, source.g), (shown.b, source.b)] {
                    error += (Double(a) - Double(b)) * (Double(a) - Double(b))
                }
            }
        }
        return error
    }
}

@Suite struct GlyphMaskTests {
    /// Each glyph's samples, derived here from its code point and Unicode's
    /// name for it, against the repertoire's own geometry.
    @Test(arguments: [GlyphRepertoire.blocks, .sextants])
    func everyGlyphsMaskIsItsUnicodeShape(repertoire: GlyphRepertoire) {
        for (glyph, mask) in zip(repertoire.glyphs, repertoire.masks) {
            #expect(mask == Self.expectedMask(glyph.scalar.value), "U+\(String(glyph.scalar.value, radix: 16, uppercase: true))")
        }
        #expect(Set(repertoire.glyphs.map(\.scalar)).count == repertoire.glyphs.count)
    }

    @Test func repertoiresHoldTheExpectedCharacters() {
        let blocks = GlyphRepertoire.blocks.glyphs.map { $0.scalar.value }
        // U+2580-259F but the three shades, and the space.
        #expect(Set(blocks) == Set([0x20] + (0x2580...0x259F).filter { !(0x2591...0x2593).contains($0) }))
        let sextants = GlyphRepertoire.sextants.glyphs.map { $0.scalar.value }
        #expect(Set(sextants) == Set(blocks + Array(0x1FB00...0x1FB3B)))
        #expect(GlyphRepertoire.halfBlocks.glyphs.map(\.scalar) == [" ", "█", "▄", "▀"])
        #expect(GlyphRepertoire.halfBlocks.masks == [0b00, 0b11, 0b10, 0b01])
    }

    /// A few by Unicode's names, so the arithmetic below is not the only witness.
    @Test func sextantsByName() {
        let byScalar = Dictionary(
            uniqueKeysWithValues: zip(GlyphRepertoire.sextants.glyphs.map(\.scalar.value), GlyphRepertoire.sextants.masks))
        let top: UInt64 = 0x00_0000_0000_FF_FFFF
        let middle: UInt64 = 0x00_00FF_FF00_0000
        let bottom: UInt64 = 0xFFFF_FF00_0000_0000
        let left: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        let right = ~left
        // BLOCK SEXTANT-1, -35, -235, -136, -23456.
        #expect(byScalar[0x1FB00] == top & left)
        #expect(byScalar[0x1FB13] == (middle | bottom) & left)
        #expect(byScalar[0x1FB14] == top & right | (middle | bottom) & left)
        #expect(byScalar[0x1FB23] == top & left | middle & left | bottom & right)
        #expect(byScalar[0x1FB3B] == ~(top & left))
    }

    /// Bit `row * 8 + column` for each sample the character covers.
    static func expectedMask(_ code: UInt32) -> UInt64 {
        func rows(_ range: Range<Int>) -> UInt64 { range.reduce(0) { $0 | 0xFF << UInt64($1 * 8) } }
        func columns(_ range: Range<Int>) -> UInt64 {
            (0..<8).reduce(0) { row, y in range.reduce(row) { $0 | 1 << UInt64(y * 8 + $1) } }
        }
        let upper = rows(0..<4)
        let lower = rows(4..<8)
        let left = columns(0..<4)
        let right = columns(4..<8)
        switch code {
        case 0x20: return 0
        case 0x2580: return upper
        case 0x2581...0x2587: return rows((8 - Int(code - 0x2580))..<8)
        case 0x2588: return ~0
        case 0x2589...0x258F: return columns(0..<Int(0x2590 - code))
        case 0x2590: return right
        case 0x2594: return rows(0..<1)
        case 0x2595: return columns(7..<8)
        case 0x2596: return lower & left
        case 0x2597: return lower & right
        case 0x2598: return upper & left
        case 0x2599: return upper & left | lower
        case 0x259A: return upper & left | lower & right
        case 0x259B: return upper | lower & left
        case 0x259C: return upper | lower & right
        case 0x259D: return upper & right
        case 0x259E: return upper & right | lower & left
        case 0x259F: return upper & right | lower
        case 0x1FB00...0x1FB3B:
            let offset = Int(code - 0x1FB00)
            let pattern = offset + 1 + (offset >= 20 ? 1 : 0) + (offset >= 40 ? 1 : 0)
            // Thirds on 8 rows: a sample is in the third its centre is in.
            let thirds = [rows(0..<3), rows(3..<5), rows(5..<8)]
            return (0..<6).filter { pattern & 1 << $0 != 0 }.reduce(0) { mask, sextant in
                mask | thirds[sextant / 2] & (sextant % 2 == 0 ? left : right)
            }
        default: return 0xDEAD
        }
    }
}

@Suite struct TextPictureEncoderTests {
    private func encoded(_ image: RGBAImage, columns: Int, by encoder: TextPictureEncoder) -> String {
        String(decoding: encoder.encode(image, columns: columns), as: UTF8.self)
    }

    /// Two cells of the symbols picture, byte for byte: both colours in one
    /// SGR when both change.
    @Test func aSmallSymbolsPictureByteForByte() {
        let lowerThree = cell(
            Array(repeating: "........", count: 5) + Array(repeating: "########", count: 3), ink: TestImages.red,
            paper: TestImages.blue)
        let leftTwo = cell(Array(repeating: "##......", count: 8), ink: TestImages.green, paper: black)
        let flat = RGBAImage(width: 8, height: 8, fill: TestImages.green)
        let text = encoded(row(of: [lowerThree, leftTwo, flat]), columns: 3, by: TextPictureEncoder())
        #expect(
            text == "\u{1B}[0m"
                + "\u{1B}[38;2;255;0;0;48;2;0;0;255m▃"
                + "\u{1B}[38;2;0;255;0;48;2;0;0;0m▎"
                + "\u{1B}[48;2;0;255;0m "
                + "\u{1B}[0m")
    }

    @Test func halfBlocksTwoByTwo() {
        let image = TestImages.image([[TestImages.red, TestImages.green], [TestImages.blue, TestImages.clear]])
        let text = encoded(image, columns: 2, by: TextPictureEncoder(repertoire: .halfBlocks))
        #expect(
            text == "\u{1B}[0m"
                + "\u{1B}[38;2;0;0;255;48;2;255;0;0m▄"
                + "\u{1B}[7;38;2;0;255;0;49m▄"
                + "\u{1B}[0m")
    }

    @Test func unchangedColoursAreNotRepeated() {
        let top = [RGBA](repeating: TestImages.red, count: 3)
        let bottom = [RGBA](repeating: TestImages.blue, count: 3)
        let text = encoded(TestImages.image([top, bottom]), columns: 3, by: TextPictureEncoder(repertoire: .halfBlocks))
        #expect(text == "\u{1B}[0m\u{1B}[38;2;0;0;255;48;2;255;0;0m▄▄▄\u{1B}[0m")
    }

    @Test func transparentHalvesUseDefaultColours() {
        let image = TestImages.image([[TestImages.clear, TestImages.clear], [TestImages.blue, TestImages.clear]])
        let text = encoded(image, columns: 2, by: TextPictureEncoder(repertoire: .halfBlocks))
        // Bottom only: lower half block in the bottom colour; neither: a plain space.
        #expect(text == "\u{1B}[0m\u{1B}[38;2;0;0;255m▄ \u{1B}[0m")
    }

    @Test func linesAreSeparatedByCRLFOrPositioned() {
        let image = TestImages.image([[TestImages.red], [TestImages.red], [TestImages.blue], [TestImages.blue]])
        let red = "\u{1B}[48;2;255;0;0m \u{1B}[0m"
        let blue = "\u{1B}[48;2;0;0;255m \u{1B}[0m"
        #expect(encoded(image, columns: 1, by: TextPictureEncoder(repertoire: .halfBlocks)) == "\u{1B}[0m" + red + "\r\n" + blue)
        #expect(
            encoded(image, columns: 1, by: TextPictureEncoder(repertoire: .halfBlocks, layout: .positioned(row: 3, column: 5)))
                == "\u{1B}[0m\u{1B}[3;5H" + red + "\u{1B}[4;5H" + blue)
    }

    @Test func oddHeightLeavesLastLowerHalfEmpty() {
        let image = TestImages.image([[TestImages.green]])
        #expect(
            encoded(image, columns: 1, by: TextPictureEncoder(repertoire: .halfBlocks))
                == "\u{1B}[0m\u{1B}[7;38;2;0;255;0m▄\u{1B}[0m")
    }

    /// Rows of cells encoded on several cores give the same bytes.
    @Test(arguments: [2, 3, 4])
    func partsDoNotChangeAByte(parts: Int) {
        let noise = TestImages.noise(width: 8 * 30 + 5, height: 8 * 13 + 3, opaque: false)
        let encoder = TextPictureEncoder(repertoire: .sextants)
        let serial = encoder.encode(noise, columns: 31, parts: 1)
        #expect(encoder.encode(noise, columns: 31, parts: parts) == serial)
        #expect(String(decoding: serial, as: UTF8.self).components(separatedBy: "\r\n").count == 14)
    }
}
