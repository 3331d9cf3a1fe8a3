import Pixels

/// One character a text picture can put in a cell: where it is inked (the
/// foreground colour) as Unicode draws it; the rest of the cell shows the
/// background colour.
package struct BlockGlyph: Equatable, Sendable {
    package var scalar: Unicode.Scalar
    /// Rectangles of the cell on a lattice of `latticeColumns` x
    /// `latticeRows`: eighths of the width, and 24ths of the height, which
    /// hold both eighths (3 rows) and thirds (8 rows), so every block
    /// element and sextant has exact corners.
    package var ink: [PixelRect]

    package static let latticeColumns = 8
    package static let latticeRows = 24

    package init(_ scalar: Unicode.Scalar, _ ink: [PixelRect]) {
        self.scalar = scalar
        self.ink = ink
    }

    /// The ink on the lattice, row by row: bit `row * 8 + column` of the three words.
    var lattice: [UInt64] {
        var words = [UInt64](repeating: 0, count: 3)
        for rect in ink {
            for y in rect.y..<(rect.y + rect.height) {
                for x in rect.x..<(rect.x + rect.width) {
                    let bit = y * Self.latticeColumns + x
                    words[bit / 64] |= 1 << UInt64(bit % 64)
                }
            }
        }
        return words
    }

    /// Inked lattice points on the cell's top edge. xterm draws block
    /// elements from the font (DejaVu Sans Mono: measured in xterm 379 at
    /// 9x19 px cells), whose ink starts 0.8-0.9 px below the cell's top, so
    /// that pixel row shows 80-87 % background colour: a seam along every
    /// row of cells whose glyph is inked at the top (`▀` half-blocks). The
    /// bottom, left and right edges are inked to the pixel.
    package var topInk: Int {
        ink.filter { $0.y == 0 }.reduce(0) { $0 + $1.width }
    }

    var area: Int { ink.reduce(0) { $0 + $1.width * $1.height } }
}

/// The characters a text picture may use and the grid of samples per cell
/// they are judged on. Each pair of complementary glyphs (`▄` and `▀`)
/// splits a cell the same way, so opaque cells are judged per split
/// (`partitions`) and shown with the glyph of the pair whose ink leaves the
/// cell's top edge alone (`BlockGlyph.topInk`): `▄` with the upper colour
/// as background, never `▀`. Cells with transparent samples take the glyph
/// whose ink best covers the opaque ones, over the terminal's background.
package struct GlyphRepertoire: Sendable, CustomStringConvertible {
    /// For messages: `half-blocks`, `blocks`, `sextants`.
    package let name: String
    /// Samples across a cell.
    package let columns: Int
    /// Samples down a cell.
    package let rows: Int
    /// Every character, the space and the full block first.
    package let glyphs: [BlockGlyph]
    /// Per glyph, the samples whose centres it inks: bit `row * columns + column`.
    package let masks: [UInt64]
    /// The different ways the glyphs split a cell in two, for opaque cells.
    let partitions: [Partition]
    /// The same and the glyphs' UTF-8 bytes, flat, for the encoder's inner loop.
    let table: RepertoireTable

    /// A split of a cell into side A (where the glyph that comes first in
    /// `glyphs` inks) and side B.
    struct Partition: Sendable {
        /// Side A's sum of any sample values is `sum(weight * table[index])`
        /// over a summed-area table of the cell's samples, read with
        /// bilinear weights where a side's edge falls inside a sample
        /// (sextants' thirds on 8 rows): exact for samples taken as flat.
        var terms: [(index: Int, weight: Float)]
        /// 1 / side A's area, 1 / side B's area, in samples.
        var inverseAreaA: Float
        var inverseAreaB: Float
        /// The glyph drawn: the one inked on side A unless the one inked on
        /// side B (if any) keeps the top edge clearer (or, as clear, is the smaller).
        var glyph: Int
        /// `glyph` inks side A.
        var inksA: Bool
    }

    package init(name: String, columns: Int, rows: Int, glyphs: [BlockGlyph]) {
        precondition(columns * rows <= 64 && columns > 0 && rows > 0, "a cell's samples must fit a 64-bit mask")
        self.name = name
        self.columns = columns
        self.rows = rows
        self.glyphs = glyphs
        masks = glyphs.map { Self.mask(of: $0, columns: columns, rows: rows) }
        let full: [UInt64] = [~0, ~0, ~0]
        var partitions: [Partition] = []
        var seen: [[UInt64]] = []
        for (index, glyph) in glyphs.enumerated() {
            let lattice = glyph.lattice
            guard lattice != [0, 0, 0], lattice != full, !seen.contains(lattice) else { continue }
            let complement = zip(lattice, full).map { $1 & ~$0 }
            seen.append(lattice)
            seen.append(complement)
            let other = glyphs.firstIndex { $0.lattice == complement }
            let area = Float(glyph.area) * Float(columns * rows) / Float(BlockGlyph.latticeColumns * BlockGlyph.latticeRows)
            // The glyph with less ink on the top edge; of two alike, the smaller.
            let drawsA = other.map { (glyph.topInk, glyph.area) <= (glyphs[$0].topInk, glyphs[$0].area) } ?? true
            partitions.append(
                Partition(
                    terms: Self.terms(of: glyph, columns: columns, rows: rows), inverseAreaA: 1 / area,
                    inverseAreaB: 1 / (Float(columns * rows) - area), glyph: drawsA ? index : other!, inksA: drawsA))
        }
        self.partitions = partitions
        table = RepertoireTable(partitions, glyphs: glyphs)
    }

    package var description: String { name }

    /// The samples whose centres `glyph` inks.
    static func mask(of glyph: BlockGlyph, columns: Int, rows: Int) -> UInt64 {
        var mask: UInt64 = 0
        for row in 0..<rows {
            for column in 0..<columns {
                // The centre on the lattice, doubled to stay whole.
                let x = (2 * column + 1) * BlockGlyph.latticeColumns
                let y = (2 * row + 1) * BlockGlyph.latticeRows
                let inside = glyph.ink.contains { rect in
                    x > 2 * rect.x * columns && x < 2 * (rect.x + rect.width) * columns && y > 2 * rect.y * rows
                        && y < 2 * (rect.y + rect.height) * rows
                }
                if inside { mask |= 1 << UInt64(row * columns + column) }
            }
        }
        return mask
    }

    /// `glyph`'s ink as weights over a summed-area table of
    /// `(columns + 1) x (rows + 1)` entries (the first row and column zero).
    static func terms(of glyph: BlockGlyph, columns: Int, rows: Int) -> [(index: Int, weight: Float)] {
        var weights: [Int: Double] = [:]
        /// The table at a lattice point, bilinear between whole samples.
        func add(latticeX: Int, latticeY: Int, sign: Double) {
            let x = Double(latticeX * columns) / Double(BlockGlyph.latticeColumns)
            let y = Double(latticeY * rows) / Double(BlockGlyph.latticeRows)
            let x0 = Int(x.rounded(.down))
            let y0 = Int(y.rounded(.down))
            let fx = x - Double(x0)
            let fy = y - Double(y0)
            for (dx, wx) in [(0, 1 - fx), (1, fx)] where wx > 0 {
                for (dy, wy) in [(0, 1 - fy), (1, fy)] where wy > 0 {
                    let tx = x0 + dx
                    let ty = y0 + dy
                    guard tx > 0, ty > 0 else { continue }  // the zero row and column
                    weights[ty * (columns + 1) + tx, default: 0] += sign * wx * wy
                }
            }
        }
        for rect in glyph.ink {
            let right = rect.x + rect.width
            let bottom = rect.y + rect.height
            add(latticeX: right, latticeY: bottom, sign: 1)
            add(latticeX: rect.x, latticeY: bottom, sign: -1)
            add(latticeX: right, latticeY: rect.y, sign: -1)
            add(latticeX: rect.x, latticeY: rect.y, sign: 1)
        }
        return weights.filter { abs($0.value) > 1e-9 }.sorted { $0.key < $1.key }.map { ($0.key, Float($0.value)) }
    }
}

extension GlyphRepertoire {
    /// `▄` and `▀` on two samples per cell (one column, two rows): the
    /// classic half-block picture.
    package static let halfBlocks = GlyphRepertoire(
        name: "half-blocks", columns: 1, rows: 2,
        glyphs: [BlockGlyphs.space, BlockGlyphs.full, BlockGlyphs.lowerHalf, BlockGlyphs.upperHalf])

    /// Eighth blocks both ways, halves and quadrants on 8x8 samples per
    /// cell: every terminal with a Unicode font draws these (xterm from the
    /// font; kitty, VTE, Konsole and WezTerm draw them themselves).
    /// 8x8 because the eighths need 8 steps each way; 4x8 and 16x16 scored
    /// the same SSIM within 0.0004 in a simulation of xterm's rendering.
    package static let blocks = GlyphRepertoire(name: "blocks", columns: 8, rows: 8, glyphs: BlockGlyphs.blockElements)

    /// `blocks` and the 60 sextants (U+1FB00-1FB3B), for terminals that
    /// draw them (few fonts have them: DejaVu Sans Mono does not, so xterm
    /// shows nothing there).
    package static let sextants = GlyphRepertoire(
        name: "sextants", columns: 8, rows: 8, glyphs: BlockGlyphs.blockElements + BlockGlyphs.sextants)
}

/// `GlyphRepertoire.partitions` and the glyphs' UTF-8 bytes in flat
/// memory, read by pointer in the encoder's inner loop (per cell and split:
/// a few multiply-adds, where arrays of arrays would retain and check
/// bounds on every read). Built once per repertoire, never written after.
final class RepertoireTable: @unchecked Sendable {
    /// One split: its terms are `terms[firstTerm..<endTerm]`.
    struct Entry {
        var firstTerm: Int
        var endTerm: Int
        var inverseAreaA: Float
        var inverseAreaB: Float
        var glyph: Int
        var inksA: Bool
    }

    let count: Int
    let entries: UnsafeMutablePointer<Entry>
    let terms: UnsafeMutablePointer<(index: Int, weight: Float)>
    /// Glyph `g`'s UTF-8 bytes: the first `utf8[g].count` of `utf8[g].bytes`.
    let utf8: UnsafeMutablePointer<(bytes: SIMD4<UInt8>, count: Int)>

    init(_ partitions: [GlyphRepertoire.Partition], glyphs: [BlockGlyph]) {
        count = partitions.count
        entries = .allocate(capacity: max(1, count))
        terms = .allocate(capacity: max(1, partitions.reduce(0) { $0 + $1.terms.count }))
        var next = 0
        for (index, partition) in partitions.enumerated() {
            (terms + next).initialize(from: partition.terms, count: partition.terms.count)
            entries[index] = Entry(
                firstTerm: next, endTerm: next + partition.terms.count, inverseAreaA: partition.inverseAreaA,
                inverseAreaB: partition.inverseAreaB, glyph: partition.glyph, inksA: partition.inksA)
            next += partition.terms.count
        }
        utf8 = .allocate(capacity: max(1, glyphs.count))
        for (index, glyph) in glyphs.enumerated() {
            let bytes = Array(String(glyph.scalar).utf8)
            var packed = SIMD4<UInt8>()
            for (offset, byte) in bytes.enumerated() { packed[offset] = byte }
            utf8[index] = (packed, bytes.count)
        }
    }

    deinit {
        entries.deallocate()
        terms.deallocate()
        utf8.deallocate()
    }
}

/// The characters, by their Unicode shapes.
package enum BlockGlyphs {
    /// The lattice rectangle from (`x0`, `y0`) to (`x1`, `y1`), exclusive.
    static func rect(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
        PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package static let space = BlockGlyph(" ", [])
    package static let full = BlockGlyph("█", [rect(0, 0, 8, 24)])
    package static let lowerHalf = BlockGlyph("▄", [rect(0, 12, 8, 24)])
    package static let upperHalf = BlockGlyph("▀", [rect(0, 0, 8, 12)])

    /// U+2580-259F but the shades: lower eighths `▁`-`▇` (U+2581-2587),
    /// left eighths `▏`-`▉` (U+258F-2589), the upper and right ones Unicode
    /// has (`▔ ▀ ▕ ▐`), quadrants U+2596-259F.
    package static let blockElements: [BlockGlyph] = {
        var glyphs = [space, full]
        for eighths in 1...7 {
            glyphs.append(BlockGlyph(Unicode.Scalar(0x2580 + UInt32(eighths))!, [rect(0, 24 - 3 * eighths, 8, 24)]))
            glyphs.append(BlockGlyph(Unicode.Scalar(0x2590 - UInt32(eighths))!, [rect(0, 0, eighths, 24)]))
        }
        glyphs += [
            BlockGlyph("▔", [rect(0, 0, 8, 3)]), upperHalf, BlockGlyph("▕", [rect(7, 0, 8, 24)]),
            BlockGlyph("▐", [rect(4, 0, 8, 24)]),
        ]
        let quadrants: [Unicode.Scalar: [Int]] = [
            "▖": [2], "▗": [3], "▘": [0], "▝": [1], "▚": [0, 3], "▞": [1, 2], "▙": [0, 2, 3], "▛": [0, 1, 2], "▜": [0, 1, 3],
            "▟": [1, 2, 3],
        ]
        for scalar in quadrants.keys.sorted() {
            glyphs.append(
                BlockGlyph(scalar, quadrants[scalar]!.map { rect($0 % 2 * 4, $0 / 2 * 12, $0 % 2 * 4 + 4, $0 / 2 * 12 + 12) }))
        }
        return glyphs
    }()

    /// U+1FB00-1FB3B: the 2x3 mosaics but empty, full and the two halves
    /// (`▌ ▐`), in Unicode's order: sextant `n` (1-6, left to right, top to
    /// bottom) is bit `n - 1` of the pattern, patterns 1...62 without 21 and 42.
    package static let sextants: [BlockGlyph] = (1...62).filter { $0 != 21 && $0 != 42 }.map { pattern in
        let offset = pattern - 1 - (pattern > 21 ? 1 : 0) - (pattern > 42 ? 1 : 0)
        let ink = (0..<6).filter { pattern & (1 << $0) != 0 }.map { rect($0 % 2 * 4, $0 / 2 * 8, $0 % 2 * 4 + 4, $0 / 2 * 8 + 8) }
        return BlockGlyph(Unicode.Scalar(0x1FB00 + UInt32(offset))!, ink)
    }
}
