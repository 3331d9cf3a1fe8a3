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
/// Speed: one pass per band over its six rows, column by column, ORs each
/// pixel's bit into its colour's mask for the column and lists the column
/// under the colour on its first visit (`writeBands`). Emitting a colour then
/// walks only its own columns, with gaps becoming `?` runs, so the work is
/// proportional to the pixels and the painted (colour, column) pairs instead
/// of colours x width. Output goes through `ByteWriter`, reserved per band
/// for its worst case.
package struct SixelEncoder: Sendable {
    package init() {}

    /// Pixels whose index is not in `palette` are left unpainted, like
    /// transparent ones: there is no register to paint them with.
    package func encode(_ image: IndexedImage, palette: Palette) -> [UInt8] {
        encode(image, palette: palette, parts: ParallelRows.parts(pixels: image.width * image.height, rows: image.height))
    }

    /// `encode` with colour register 0 set to `background` and the palette in
    /// registers 1 and up. Terminals without sixel transparency (Konsole
    /// 22.12 paints every unpainted pixel with register 0, black unless
    /// set) then show the padding in the terminal's own background; the
    /// others leave it unpainted as P2 = 1 asks. Needs a palette of at most
    /// 255 colours; a full one is encoded without the background register.
    package func encode(_ image: IndexedImage, palette: Palette, background: RGB?) -> [UInt8] {
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
        let (used, allInPalette) = usedColors(image, paletteCount: paletteCount)
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
                writeBands(
                    image, bands: 0..<bandCount, paletteCount: paletteCount, registerOffset: offset,
                    allInPalette: allInPalette, into: &out)
            } else {
                let pieces = ParallelRows.map(parts: parts, rows: bandCount) { bands in
                    var piece = ByteWriter(capacity: 4096 + width * bands.count * 3)
                    writeBands(
                        image, bands: bands, paletteCount: paletteCount, registerOffset: offset,
                        allInPalette: allInPalette, into: &piece)
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

    /// Which palette colours the painted pixels use (the registers to
    /// send), and whether every painted pixel's index is in the palette
    /// (then the band loop needs no range check).
    private func usedColors(_ image: IndexedImage, paletteCount: Int) -> (used: [Bool], allInPalette: Bool) {
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
        var allInPalette = true
        for index in paletteCount..<256 where seen[index] {
            seen[index] = false
            allInPalette = false
        }
        return (seen, allInPalette)
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

    /// The lane of pixels left unpainted (transparent, or an index outside
    /// the palette): gathered like a colour, never written.
    private static let skipLane = 256

    /// Writes bands `bands` (six rows each), `-` between them but not before the first.
    ///
    /// Per band, each pixel ORs its row's bit into its colour's mask byte
    /// for its column, and the column joins that colour's list the first
    /// time (the list slot is written every time and the count advances
    /// only on a first visit, so there is no branch on the pixel's colour):
    /// measured with callgrind over twelve 1200x800 viewer frames, 60
    /// instructions a pixel (gathering and emitting) with per-column colour
    /// lists, 28 this way. Emitting a colour walks its list, clearing the
    /// masks it read for the next band.
    private func writeBands(
        _ image: IndexedImage, bands: Range<Int>, paletteCount: Int, registerOffset: Int, allInPalette: Bool,
        into out: inout ByteWriter
    ) {
        let width = image.width
        let height = image.height
        let lanes = Self.skipLane + 1
        // Per lane: a mask byte per column, zero outside a band's work; the
        // columns it paints in order, with one spare slot (a repeat visit
        // writes one past the count).
        let stride = width + 1
        let masks = UnsafeMutablePointer<UInt8>.allocate(capacity: lanes * stride)
        masks.initialize(repeating: 0, count: lanes * stride)
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: lanes * stride)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: lanes)
        counts.initialize(repeating: 0, count: lanes)
        defer {
            masks.deallocate()
            columns.deallocate()
            counts.deallocate()
        }
        // Each pixel's lane: its index, or the skip lane.
        var laneOf = [Int](repeating: Self.skipLane, count: 256)
        for color in 0..<paletteCount { laneOf[color] = color }
        let simple = allInPalette && image.transparent == nil
        // Worst case per band: every (colour, column) entry costs a gap run
        // (`!` + 5 digits + `?`) and one sixel; each colour `$#nnn`; one `-`.
        let bandWorstCase = 6 * width * 8 + 256 * 5 + 1
        image.indices.withUnsafeBufferPointer { indices in
            (image.transparent ?? []).withUnsafeBufferPointer { mask in
                laneOf.withUnsafeBufferPointer { laneOf in
                    for band in bands {
                        let top = band * 6
                        let rows = min(6, height - top)
                        if simple && rows == 6 {
                            Self.gatherSix(indices.baseAddress! + top * width, width: width, masks, columns, counts, stride)
                        } else {
                            for x in 0..<width {
                                var p = top &* width &+ x
                                for row in 0..<rows {
                                    let index = Int(indices[p])
                                    let lane = mask.isEmpty || !mask[p] ? laneOf[index] : Self.skipLane
                                    Self.visit(lane, x, UInt8(1) << UInt8(row), masks, columns, counts, stride)
                                    p &+= width
                                }
                            }
                        }
                        out.ensureSpare(bandWorstCase)
                        if band > bands.lowerBound { out.append(UInt8(ascii: "-")) }
                        var firstLine = true
                        for color in 0..<paletteCount where counts[color] > 0 {
                            if !firstLine { out.append(UInt8(ascii: "$")) }
                            firstLine = false
                            out.append(UInt8(ascii: "#"))
                            out.appendDecimal(color &+ registerOffset)
                            Self.writeLine(
                                masks + color * stride, columns + color * stride, count: counts[color], into: &out)
                            counts[color] = 0
                        }
                        // The skip lane's masks are cleared unread.
                        let skipped = counts[Self.skipLane]
                        for k in 0..<skipped { masks[Self.skipLane * stride + Int(columns[Self.skipLane * stride + k])] = 0 }
                        counts[Self.skipLane] = 0
                    }
                }
            }
        }
    }

    /// One pixel of colour lane `lane` at column `x`, row bit `bit`.
    @inline(__always)
    private static func visit(
        _ lane: Int, _ x: Int, _ bit: UInt8, _ masks: UnsafeMutablePointer<UInt8>, _ columns: UnsafeMutablePointer<UInt32>,
        _ counts: UnsafeMutablePointer<Int>, _ stride: Int
    ) {
        let base = lane &* stride
        let old = masks[base &+ x]
        masks[base &+ x] = old | bit
        let count = counts[lane]
        columns[base &+ count] = UInt32(truncatingIfNeeded: x)
        counts[lane] = count &+ (old == 0 ? 1 : 0)
    }

    /// A full band of opaque pixels, all inside the palette: the common case, unrolled.
    @inline(__always)
    private static func gatherSix(
        _ top: UnsafePointer<UInt8>, width: Int, _ masks: UnsafeMutablePointer<UInt8>,
        _ columns: UnsafeMutablePointer<UInt32>, _ counts: UnsafeMutablePointer<Int>, _ stride: Int
    ) {
        for x in 0..<width {
            let p = top + x
            visit(Int(p[0]), x, 1, masks, columns, counts, stride)
            visit(Int(p[width]), x, 2, masks, columns, counts, stride)
            visit(Int(p[2 &* width]), x, 4, masks, columns, counts, stride)
            visit(Int(p[3 &* width]), x, 8, masks, columns, counts, stride)
            visit(Int(p[4 &* width]), x, 16, masks, columns, counts, stride)
            visit(Int(p[5 &* width]), x, 32, masks, columns, counts, stride)
        }
    }

    /// One colour's sixel line from its columns (in order) and their masks;
    /// the masks read are cleared. Writes through a raw pointer kept in a
    /// register (within the band's reserved worst case).
    @inline(__always)
    private static func writeLine(
        _ masks: UnsafeMutablePointer<UInt8>, _ columns: UnsafeMutablePointer<UInt32>, count: Int,
        into out: inout ByteWriter
    ) {
        out.appendDirectly { start in
            let empty = UInt8(ascii: "?")
            var cursor = start
            var runChar: UInt8 = 0
            var runLength = 0
            var next = 0
            for k in 0..<count {
                let x = Int(columns[k])
                let char = masks[x] &+ 63
                masks[x] = 0
                if x > next {
                    if runChar == empty {
                        runLength &+= x &- next
                    } else {
                        cursor = writeRun(runChar, runLength, at: cursor)
                        runChar = empty
                        runLength = x &- next
                    }
                }
                if char == runChar {
                    runLength &+= 1
                } else {
                    cursor = writeRun(runChar, runLength, at: cursor)
                    runChar = char
                    runLength = 1
                }
                next = x &+ 1
            }
            cursor = writeRun(runChar, runLength, at: cursor)
            return cursor - start
        }
    }

    /// A run of `length` sixels `char` at `cursor` (nothing for 0): `!n`
    /// and the sixel from four on, else the sixels themselves, written one
    /// by one (a memset call for one to three bytes cost more than the
    /// run). Returns the position after it.
    @inline(__always)
    private static func writeRun(_ char: UInt8, _ length: Int, at cursor: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        if length >= 4 {
            cursor[0] = UInt8(ascii: "!")
            let digits = ByteWriter.writeDecimal(length, to: cursor + 1)
            cursor[digits &+ 1] = char
            return cursor + digits + 2
        }
        if length == 0 { return cursor }
        cursor[0] = char
        if length > 1 { cursor[1] = char }
        if length > 2 { cursor[2] = char }
        return cursor + length
    }
}
