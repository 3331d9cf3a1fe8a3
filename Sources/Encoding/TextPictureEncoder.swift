import ControlSequences
import Pixels
import Plumbing

/// Draws an image as text in 24-bit colour: per cell one block character,
/// a foreground colour for its ink and a background colour for the rest,
/// for terminals without sixel or kitty graphics.
///
/// The caller resizes the image to the repertoire's samples per cell
/// (`columns * repertoire.columns` by `rows * repertoire.rows`); cell
/// (x, y) shows the samples of its own rectangle. Samples outside the image
/// count as transparent. Per cell (`GlyphRepertoire.choose`):
/// - every sample opaque: the split of the cell (space, halves, eighths,
///   quadrants, sextants...) and two colours that leave the least squared
///   error, the colours being each side's mean; a space on the mean colour
///   when no split beats it or both sides round to the same colour;
/// - some transparent: the glyph whose ink best covers the opaque samples
///   in their mean colour on the terminal's default background (`ESC[49m`),
///   or, in reverse video (`ESC[7m`), whose ink best covers the transparent
///   ones, drawn in the default background over the opaque samples' colour:
///   whichever leaves the cell's top edge to the cell's background (xterm's
///   seam, `BlockGlyph.topInk`), so a picture's last row, 7/8 opaque, is
///   `▁` in reverse, not `█` with a line of the terminal's background on top;
/// - none opaque: a space on the default background.
///
/// Colour codes are written only when a colour changes along a line, both
/// in one `CSI ... m` when both do. The output starts with `ESC[0m` (the
/// terminal's state before is unknown) and every line ends with `ESC[0m`,
/// so nothing leaks into the next line or the prompt. Rows of cells are
/// encoded on several cores (`ParallelRows`); the bytes do not depend on
/// how many.
package struct TextPictureEncoder: Sendable {
    /// How lines are separated.
    package enum LineLayout: Sendable, Equatable {
        /// `\r\n` between lines (none after the last): for printing at the
        /// cursor, e.g. in a shell. Scrolls if the image reaches the bottom.
        case crlf
        /// Every line starts with a cursor position `ESC[row;columnH`, the
        /// first at (`row`, `column`), 1-based: for drawing in place in a
        /// full-screen UI, never scrolling and unaffected by the pending
        /// wrap state at the right margin.
        case positioned(row: Int, column: Int)
    }

    package var repertoire: GlyphRepertoire
    package var layout: LineLayout

    package init(repertoire: GlyphRepertoire = .blocks, layout: LineLayout = .crlf) {
        self.repertoire = repertoire
        self.layout = layout
    }

    /// - Parameters:
    ///   - rows: cell rows to draw; by default enough for every image row.
    ///   - parts: how many pieces of rows to encode at once (default: `ParallelRows`' rule).
    package func encode(_ image: RGBAImage, columns: Int, rows: Int? = nil, parts: Int? = nil) -> [UInt8] {
        let columns = max(0, columns)
        let rows = max(0, rows ?? (image.height + repertoire.rows - 1) / repertoire.rows)
        let parts = parts ?? ParallelRows.parts(pixels: columns * rows * repertoire.columns * repertoire.rows, rows: rows)
        let pieces = image.pixels.withUnsafeBufferPointer { pixels in
            let source = CellSource(pixels: pixels, width: image.width, height: image.height)
            return ParallelRows.map(parts: parts, rows: rows) { range in
                encodeRows(range, columns: columns, source: source)
            }
        }
        var out = TerminalCommand.resetAttributes
        out.reserveCapacity(pieces.reduce(out.count) { $0 + $1.count })
        for piece in pieces { out += piece }
        return out
    }

    private func encodeRows(_ range: Range<Int>, columns: Int, source: CellSource) -> [UInt8] {
        var chooser = CellChooser(repertoire: repertoire)
        let table = repertoire.table
        var out = ByteWriter(capacity: range.count * columns * 30 + 16)
        for row in range {
            switch layout {
            case .crlf:
                if row > 0 {
                    out.ensureSpare(2)
                    out.appendASCII("\r\n")
                }
            case .positioned(let top, let left):
                out.append(TerminalCommand.moveTo(row: max(1, top) + row, column: max(1, left)))
            }
            // Per cell at most one `CSI 27;38;2;255;255;255;48;2;255;255;255m`
            // (39 bytes) and a 4-byte glyph.
            out.ensureSpare(columns * 43)
            var foreground = CellColor.terminalDefault
            var background = CellColor.terminalDefault
            var inverse = false
            for column in 0..<columns {
                let choice = chooser.choose(source, left: column * repertoire.columns, top: row * repertoire.rows)
                // Reverse video draws the ink in the background colour and
                // the rest in the foreground colour.
                var wantedInverse = false
                var wantedForeground = foreground  // a space shows none: whatever is set may stay
                var wantedBackground = CellColor(choice.paper)
                switch choice.ink {
                case nil: break
                case .color(let color)?: wantedForeground = .rgb(color)
                case .terminalBackground?:
                    wantedInverse = true
                    wantedForeground = wantedBackground
                    wantedBackground = .terminalDefault
                }
                CellColor.appendSGR(
                    inverse: wantedInverse == inverse ? nil : wantedInverse,
                    foreground: wantedForeground == foreground ? nil : wantedForeground,
                    background: wantedBackground == background ? nil : wantedBackground, to: &out)
                inverse = wantedInverse
                foreground = wantedForeground
                background = wantedBackground
                let glyph = table.utf8[choice.glyph]
                for index in 0..<glyph.count { out.append(glyph.bytes[index]) }
            }
            out.append(TerminalCommand.resetAttributes)
        }
        return out.finish()
    }

    private enum CellColor: Equatable {
        case terminalDefault
        case rgb(RGB)

        init(_ paint: CellPaint) {
            switch paint {
            case .terminalBackground: self = .terminalDefault
            case .color(let color): self = .rgb(color)
            }
        }

        /// One `CSI ... m` for whichever of the three is given (within the
        /// row's spare room): reverse video on (`7`) or off (`27`), the colours.
        static func appendSGR(inverse: Bool?, foreground: CellColor?, background: CellColor?, to out: inout ByteWriter) {
            guard inverse != nil || foreground != nil || background != nil else { return }
            typealias SGR = TerminalCommand.SGR
            out.appendASCII(SGR.introducer)
            var first = true
            func separate(_ out: inout ByteWriter) {
                if !first { out.appendASCII(SGR.separator) }
                first = false
            }
            if let inverse {
                separate(&out)
                out.appendASCII(inverse ? SGR.inverseOn : SGR.inverseOff)
            }
            if let foreground {
                separate(&out)
                foreground.appendParameters(isForeground: true, to: &out)
            }
            if let background {
                separate(&out)
                background.appendParameters(isForeground: false, to: &out)
            }
            out.appendASCII(SGR.final)
        }

        /// `39` / `49`, or `38;2;r;g;b` / `48;2;r;g;b`.
        private func appendParameters(isForeground: Bool, to out: inout ByteWriter) {
            typealias SGR = TerminalCommand.SGR
            switch self {
            case .terminalDefault:
                out.appendASCII(isForeground ? SGR.defaultForeground : SGR.defaultBackground)
            case .rgb(let color):
                out.appendASCII(isForeground ? SGR.foregroundRGB : SGR.backgroundRGB)
                out.appendDecimals(Int(color.r), Int(color.g), Int(color.b))
            }
        }
    }
}

/// A colour in a cell: the terminal's own background, or one of the picture's.
package enum CellPaint: Equatable, Sendable {
    case terminalBackground
    case color(RGB)
}

/// What one cell shows: a glyph of the repertoire, its ink (nil for a
/// space, which shows none) and the rest of the cell (`paper`). Ink in the
/// terminal's background goes out in reverse video, on paper of a colour.
package struct CellChoice: Equatable, Sendable {
    package var glyph: Int
    package var ink: CellPaint?
    package var paper: CellPaint

    package init(glyph: Int, ink: CellPaint?, paper: CellPaint) {
        self.glyph = glyph
        self.ink = ink
        self.paper = paper
    }
}

extension GlyphRepertoire {
    /// The choice for one cell given as an image of `columns x rows`
    /// samples (smaller: the rest transparent): what the encoder does per cell.
    package func choose(_ cell: RGBAImage) -> CellChoice {
        var chooser = CellChooser(repertoire: self)
        return cell.pixels.withUnsafeBufferPointer { pixels in
            chooser.choose(CellSource(pixels: pixels, width: cell.width, height: cell.height), left: 0, top: 0)
        }
    }
}

/// The image the cells are read from.
private struct CellSource: @unchecked Sendable {
    var pixels: UnsafeBufferPointer<UInt8>
    var width: Int
    var height: Int
}

/// Chooses cells, with its own summed-area table (one per thread).
private struct CellChooser: ~Copyable {
    let repertoire: GlyphRepertoire
    let table: RepertoireTable
    /// `(columns + 1) x (rows + 1)` sums of the samples above and left of
    /// each entry, R G B in the first three lanes; row 0 and column 0 stay 0.
    let sums: UnsafeMutablePointer<SIMD4<Float>>
    let allSamples: UInt64

    init(repertoire: GlyphRepertoire) {
        self.repertoire = repertoire
        table = repertoire.table
        let count = (repertoire.columns + 1) * (repertoire.rows + 1)
        sums = .allocate(capacity: count)
        sums.initialize(repeating: SIMD4<Float>(), count: count)
        let samples = repertoire.columns * repertoire.rows
        allSamples = samples == 64 ? ~0 : (1 << UInt64(samples)) - 1
    }

    deinit { sums.deallocate() }

    mutating func choose(_ source: CellSource, left: Int, top: Int) -> CellChoice {
        let columns = repertoire.columns
        let rows = repertoire.rows
        let stride = columns + 1
        // Inside the image the samples are summed as they come, their
        // alpha counted apart; a transparent one sends the cell to `sumOpaque`.
        guard left + columns <= source.width, top + rows <= source.height, let base = source.pixels.baseAddress else {
            return chooseOverTransparency(sumOpaque(source, left: left, top: top))
        }
        var opaqueCount: UInt32 = 0
        for row in 0..<rows {
            var rowSum = SIMD4<Float>()
            let line = UnsafeRawPointer(base + ((top + row) * source.width + left) * 4)
            let above = sums + row * stride + 1
            let below = sums + (row + 1) * stride + 1
            for column in 0..<columns {
                let pixel = line.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt8>.self)
                opaqueCount &+= UInt32(pixel.w >> 7)
                rowSum += SIMD4<Float>(pixel & SIMD4(255, 255, 255, 0))
                below[column] = above[column] + rowSum
            }
        }
        guard opaqueCount == columns * rows else {
            return chooseOverTransparency(sumOpaque(source, left: left, top: top))
        }
        let total = sums[stride * (rows + 1) - 1]
        let count = Float(columns * rows)
        // The least squared error of two flat sides is the total sum of
        // squares minus each side's |sum|^2 / area: the largest such score wins.
        var best = (total * total).sum() / count
        var bestPartition = -1
        var bestSum = SIMD4<Float>()
        for partition in 0..<table.count {
            let entry = table.entries[partition]
            var sum = SIMD4<Float>()
            for term in entry.firstTerm..<entry.endTerm {
                sum += sums[table.terms[term].index] * table.terms[term].weight
            }
            let rest = total - sum
            let score = (sum * sum).sum() * entry.inverseAreaA + (rest * rest).sum() * entry.inverseAreaB
            if score > best {
                best = score
                bestPartition = partition
                bestSum = sum
            }
        }
        guard bestPartition >= 0 else { return CellChoice(glyph: 0, ink: nil, paper: .color(Self.rgb(total / count))) }
        let entry = table.entries[bestPartition]
        let colorA = Self.rgb(bestSum * entry.inverseAreaA)
        let colorB = Self.rgb((total - bestSum) * entry.inverseAreaB)
        if colorA == colorB { return CellChoice(glyph: 0, ink: nil, paper: .color(colorA)) }
        return entry.inksA
            ? CellChoice(glyph: entry.glyph, ink: .color(colorA), paper: .color(colorB))
            : CellChoice(glyph: entry.glyph, ink: .color(colorB), paper: .color(colorA))
    }

    /// The opaque samples (alpha at least 128) of the cell at (`left`,
    /// `top`), those past the image's edge counting as transparent: which
    /// ones (bit `row * columns + column`) and their colours' sum.
    private func sumOpaque(_ source: CellSource, left: Int, top: Int) -> (opaque: UInt64, sum: SIMD4<Float>) {
        var opaque: UInt64 = 0
        var sum = SIMD4<Float>()
        for row in 0..<repertoire.rows where top + row < source.height {
            for column in 0..<repertoire.columns where left + column < source.width {
                let offset = ((top + row) * source.width + left + column) * 4
                guard source.pixels[offset + 3] >= 128 else { continue }
                opaque |= 1 << UInt64(row * repertoire.columns + column)
                sum += SIMD4<Float>(
                    Float(source.pixels[offset]), Float(source.pixels[offset + 1]), Float(source.pixels[offset + 2]), 0)
            }
        }
        return (opaque, sum)
    }

    /// A cell with transparent samples: the glyph (or a space) whose ink,
    /// in the opaque samples' mean colour on the terminal's background, or
    /// in reverse video, in the terminal's background on that colour,
    /// differs from the opaque samples in the fewest samples; of those, the
    /// one with the least ink on the top edge (`BlockGlyph.topInk`), then
    /// not reversed (fewer bytes), then the first. None opaque: a space on
    /// the terminal's background.
    private func chooseOverTransparency(_ samples: (opaque: UInt64, sum: SIMD4<Float>)) -> CellChoice {
        let (opaque, sum) = samples
        if opaque == 0 { return CellChoice(glyph: 0, ink: nil, paper: .terminalBackground) }
        let color = CellPaint.color(Self.rgb(sum / Float(opaque.nonzeroBitCount)))
        // A space: on the terminal's background, or on the colour.
        var best = CellChoice(glyph: 0, ink: nil, paper: .terminalBackground)
        var bestKey = (differing: opaque.nonzeroBitCount, topInk: 0, reversed: 0)
        let onColor = (differing: (opaque ^ allSamples).nonzeroBitCount, topInk: 0, reversed: 0)
        if onColor < bestKey {
            best = CellChoice(glyph: 0, ink: nil, paper: color)
            bestKey = onColor
        }
        for (glyph, mask) in repertoire.masks.enumerated() where mask != 0 && mask != allSamples {
            let topInk = repertoire.glyphs[glyph].topInk
            let inked = (differing: (mask ^ opaque).nonzeroBitCount, topInk: topInk, reversed: 0)
            if inked < bestKey {
                best = CellChoice(glyph: glyph, ink: color, paper: .terminalBackground)
                bestKey = inked
            }
            let reversed = (differing: (mask ^ opaque ^ allSamples).nonzeroBitCount, topInk: topInk, reversed: 1)
            if reversed < bestKey {
                best = CellChoice(glyph: glyph, ink: .terminalBackground, paper: color)
                bestKey = reversed
            }
        }
        return best
    }

    private static func rgb(_ value: SIMD4<Float>) -> RGB {
        let rounded = (value.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))).rounded(
            .toNearestOrAwayFromZero)
        return RGB(r: UInt8(rounded.x), g: UInt8(rounded.y), b: UInt8(rounded.z))
    }
}
