/// One walk over a PNG's chunks, for everything that reads them beside
/// libpng: completeness (`pngReachesEnd`), orientation (`eXIf`), colour
/// (`iCCP`, `sRGB`, `cHRM`, `gAMA`) and the chunk libpng must not see
/// (`pngOverlongChunk`). Each chunk is a 4-byte big-endian length, a 4-byte
/// type, the data and a 4-byte CRC; every read is bounds-checked.
struct PNGChunk {
    /// Where the chunk's length field starts.
    let start: Int
    /// The four type bytes, as text ("IHDR", "iCCP"…).
    let type: String
    /// The data, which the file holds whole.
    let data: Range<Int>
    /// Just past the CRC (which may lie past the end of a cut file).
    var end: Int { data.upperBound + 4 }
}

/// Calls `body` for each chunk whose data the file holds, in order, until it
/// returns false; returns the start of the first chunk whose declared length
/// runs past the end of the file, nil when the walk ended any other way.
@discardableResult
func walkPNGChunks(_ bytes: [UInt8], _ body: (PNGChunk) -> Bool) -> Int? {
    var i = 8
    while i + 8 <= bytes.count {
        let length = bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - i - 8 else { return i }
        let chunk = PNGChunk(
            start: i, type: String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self), data: (i + 8)..<(i + 8 + length))
        guard body(chunk) else { return nil }
        i = chunk.end
    }
    return nil
}
