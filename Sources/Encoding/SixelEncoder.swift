import ControlSequences
import Plumbing

/// Writes an indexed image as one sixel DCS sequence.
///
/// Output: `ESC P 0;1;0 q` (P2 = 1: pixels not drawn keep the background, so
/// transparent pixels stay transparent), raster attributes `"1;1;W;H`, one
/// `#n;2;r;g;b` register per palette colour the image uses (percent, rounded),
/// then six-pixel bands separated by `-`. Inside a band each colour present
/// in it is selected with `#n` and written as one sixel line; lines are
/// separated by `$` (back to the band's left edge). Runs of four or more equal
/// sixels become `!count<char>`; trailing empty sixels of a line are never
/// written. Ends with `ESC \`.
///
/// Speed: one pass per band over its six rows, column by column, appends
/// `(x, 6-bit mask)` entries to a per-colour list (the entry for the same
/// column is OR-ed in place). Emitting a colour then walks only its own
/// entries, with gaps becoming `?` runs, so the work is proportional to the
/// painted (colour, column) pairs instead of colours x width. Output goes
/// through `ByteWriter`, reserved per band for its worst case.
public struct SixelEncoder: Sendable {
    public init() {}

    /// Pixels whose index is not in `palette` are left unpainted, like
    /// transparent ones: there is no register to paint them with.
    public func encode(_ image: IndexedImage, palette: Palette) -> [UInt8] {
        encode(image, palette: palette, parts: ParallelRows.parts(pixels: image.width * image.height, rows: image.height))
    }

    /// `encode` with colour register 0 set to `background` and the palette in
    /// registers 1 and up. Terminals without sixel transparency (Konsole
    /// 22.12 paints every unpainted pixel with register 0, black unless
    /// set) then show the padding in the terminal's own background; the
    /// others leave it unpainted as P2 = 1 asks. Needs a palette of at most
    /// 255 colours; a full one is encoded without the background register.
    public func encode(_ image: IndexedImage, palette: Palette, background: RGB?) -> [UInt8] {
        let parts = ParallelRows.parts(pixels: image.width * image.height, rows: image.height)
        guard let background, palette.count < Palette.maxColors else { return encode(image, palette: palette, parts: parts) }
        return encode(image, palette: palette, parts: parts, background: background)
    }

    /// `encode` with the number of parallel parts chosen by the caller
    /// (tests check every split gives the same bytes).
    func encode(_ image: IndexedImage, palette: Palette, parts: Int, background: RGB? = nil) -> [UInt8] {
        let width = image.width
        let height = image.height
        let paletteCount = palette.count
        let offset = background == nil ? 0 : 1
        var out = ByteWriter(capacity: 4096 + width * height / 2)
        out.ensureSpare(96 + paletteCount * 20)  // header, background register, registers
        out.append(TerminalCommand.sixelStart)
        for byte in "\"1;1;".utf8 { out.append(byte) }
        out.appendDecimal(width)
        out.append(UInt8(ascii: ";"))
        out.appendDecimal(height)

        if let background { Self.appendRegister(0, background, into: &out) }
        let used = usedColors(image, paletteCount: paletteCount)
        for (index, color) in palette.colors.enumerated() where used[index] {
            Self.appendRegister(index + offset, color, into: &out)
        }
        if width > 0 && height > 0 && paletteCount > 0 && !Self.paintsFirstBand(image, paletteCount: paletteCount) {
            // Konsole 22.12 loses the last register defined when the data
            // starts with `-` (a grid tile whose top band is padding: every
            // pixel in that register came out black, seen in a catalog
            // tile); a register selected first keeps it.
            out.append(UInt8(ascii: "#"))
            out.appendDecimal(offset)
        }
        if width > 0 && height > 0 && paletteCount > 0 {
            // Bands are independent: parts of whole bands are encoded in
            // parallel and joined with the `-` that separates bands anyway.
            let bandCount = (height + 5) / 6
            let parts = min(parts, bandCount)
            if parts <= 1 {
                writeBands(image, bands: 0..<bandCount, paletteCount: paletteCount, registerOffset: offset, into: &out)
            } else {
                let pieces = ParallelRows.map(parts: parts, rows: bandCount) { bands in
                    var piece = ByteWriter(capacity: 4096 + width * bands.count * 3)
                    writeBands(image, bands: bands, paletteCount: paletteCount, registerOffset: offset, into: &piece)
                    return piece.finish()
                }
                for (n, piece) in pieces.enumerated() where !piece.isEmpty {
                    out.ensureSpare(piece.count + 1)  // the piece and its `-`
                    if n > 0 { out.append(UInt8(ascii: "-")) }
                    out.append(piece)
                }
            }
        }
        out.append(TerminalCommand.stringTerminator)
        return out.finish()
    }

    /// Colour register `number` set to `color`: `#n;2;r;g;b` (2: RGB, in percent).
    private static func appendRegister(_ number: Int, _ color: RGB, into out: inout ByteWriter) {
        out.append(UInt8(ascii: "#"))
        out.appendDecimal(number)
        out.appendASCII(";2;")
        out.appendDecimals(percent(color.r), percent(color.g), percent(color.b))
    }

    /// The 0...255 value a terminal shows for a channel sent as `percent(channel)`.
    static func shown(_ channel: UInt8) -> UInt8 {
        UInt8((percent(channel) * 255 + 50) / 100)
    }

    /// 0...255 to the 0...100 percent sixel registers use, rounded to nearest.
    static func percent(_ channel: UInt8) -> Int {
        (Int(channel) * 100 + 127) / 255
    }

    private func usedColors(_ image: IndexedImage, paletteCount: Int) -> [Bool] {
        var seen = [Bool](repeating: false, count: 256)
        image.indices.withUnsafeBufferPointer { indices in
            if let mask = image.transparent {
                mask.withUnsafeBufferPointer { mask in
                    for i in 0..<indices.count where !mask[i] { seen[Int(indices[i])] = true }
                }
            } else {
                for index in indices { seen[Int(index)] = true }
            }
        }
        for index in paletteCount..<256 { seen[index] = false }
        return seen
    }

    /// Whether the top band (six rows) has a pixel to paint, so the data
    /// starts with a colour rather than with the `-` to the next band.
    static func paintsFirstBand(_ image: IndexedImage, paletteCount: Int) -> Bool {
        let count = min(6, image.height) * image.width
        for pixel in 0..<count where Int(image.indices[pixel]) < paletteCount {
            if image.transparent?[pixel] != true { return true }
        }
        return false
    }

    /// Writes bands `bands` (six rows each), `-` between them but not before the first.
    private func writeBands(
        _ image: IndexedImage, bands: Range<Int>, paletteCount: Int, registerOffset: Int, into out: inout ByteWriter
    ) {
        let width = image.width
        let height = image.height
        // Per colour in the palette: up to `width` entries of (x << 8 | six-bit
        // mask), each written before it is read, so left uninitialised.
        var entries = [UInt32](unsafeUninitializedCapacity: paletteCount * width) { _, count in
            count = paletteCount * width
        }
        var entryCount = [Int](repeating: 0, count: 256)
        let noMask: [Bool] = []
        let mask = image.transparent ?? noMask
        let hasMask = image.transparent != nil
        // Worst case per band: every (colour, column) entry costs a gap run
        // (`!` + 5 digits + `?`) and one sixel; each colour `$#nnn`; one `-`.
        let bandWorstCase = 6 * width * 8 + 256 * 5 + 1
        image.indices.withUnsafeBufferPointer { indices in
            mask.withUnsafeBufferPointer { mask in
                entries.withUnsafeMutableBufferPointer { entries in
                    entryCount.withUnsafeMutableBufferPointer { entryCount in
                        // A column's (up to six) colours and their bits, merged
                        // before touching the per-colour lists: in smooth areas
                        // the six pixels share one or two colours, so most
                        // columns cost one or two list writes instead of six.
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: 6) { columnColors in
                            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 6) { columnBits in
                                for band in bands {
                                    let top = band * 6
                                    let rows = min(6, height - top)
                                    for x in 0..<width {
                                        var p = top &* width &+ x
                                        var distinct = 0
                                        for row in 0..<rows {
                                            let pixel = p
                                            p &+= width
                                            if hasMask && mask[pixel] { continue }
                                            let color = Int(indices[pixel])
                                            if color >= paletteCount { continue }
                                            let bit = UInt32(1) << UInt32(row)
                                            var k = 0
                                            while k < distinct && columnColors[k] != color { k &+= 1 }
                                            if k == distinct {
                                                columnColors[k] = color
                                                columnBits[k] = bit
                                                distinct &+= 1
                                            } else {
                                                columnBits[k] |= bit
                                            }
                                        }
                                        let column = UInt32(truncatingIfNeeded: x) << 8
                                        for k in 0..<distinct {
                                            let color = columnColors[k]
                                            entries[color &* width &+ entryCount[color]] = column | columnBits[k]
                                            entryCount[color] &+= 1
                                        }
                                    }
                                    out.ensureSpare(bandWorstCase)
                                    if band > bands.lowerBound { out.append(UInt8(ascii: "-")) }
                                    var firstLine = true
                                    for color in 0..<paletteCount where entryCount[color] > 0 {
                                        if !firstLine { out.append(UInt8(ascii: "$")) }
                                        firstLine = false
                                        out.append(UInt8(ascii: "#"))
                                        out.appendDecimal(color &+ registerOffset)
                                        Self.writeLine(entries, from: color * width, count: entryCount[color], into: &out)
                                        entryCount[color] = 0
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One colour's sixel line from its sorted (x, mask) entries.
    @inline(__always)
    private static func writeLine(
        _ entries: UnsafeMutableBufferPointer<UInt32>, from start: Int, count: Int, into out: inout ByteWriter
    ) {
        let empty = UInt8(ascii: "?")
        var runChar: UInt8 = 0
        var runLength = 0
        var cursor = 0
        for k in start..<(start &+ count) {
            let entry = entries[k]
            let x = Int(entry >> 8)
            let char = UInt8(truncatingIfNeeded: entry & 0x3F) &+ 63
            if x > cursor {
                if runChar == empty {
                    runLength &+= x &- cursor
                } else {
                    writeRun(runChar, runLength, into: &out)
                    runChar = empty
                    runLength = x &- cursor
                }
            }
            if char == runChar {
                runLength &+= 1
            } else {
                writeRun(runChar, runLength, into: &out)
                runChar = char
                runLength = 1
            }
            cursor = x &+ 1
        }
        writeRun(runChar, runLength, into: &out)
    }

    @inline(__always)
    private static func writeRun(_ char: UInt8, _ length: Int, into out: inout ByteWriter) {
        if length >= 4 {
            out.append(UInt8(ascii: "!"))
            out.appendDecimal(length)
            out.append(char)
        } else if length > 0 {
            out.append(char, times: length)
        }
    }
}
