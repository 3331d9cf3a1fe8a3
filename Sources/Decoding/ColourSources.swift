import CShims

/// Where each format keeps its colour description, read from the file's
/// bytes before (or beside) the decoder: what the colour step converts
/// from. Every read is bounds-checked and capped: the bytes are untrusted.
enum ColourSources {
    /// The description `bytes` (of `format`) carry, and a note when one
    /// was there but cannot be used (shown with `PXVIEW_DEBUG`; the image is
    /// then shown untagged, never refused).
    static func read(_ bytes: [UInt8], format: ImageFormat) -> (description: ColourDescription?, problem: String?) {
        switch format {
        case .jpeg: return jpeg(bytes)
        case .png: return png(bytes)
        case .webp: return (webp(bytes).map { .icc($0) }, nil)
        case .avif, .heic: return HEIFStructure(scanning: bytes).colour
        case .gif, .jxl: return (nil, nil)
        }
    }

    /// JPEG: APP2 `ICC_PROFILE` chunks before the first scan, joined in
    /// their sequence order (ICC.1 B.4); a sequence with a gap, a repeat or
    /// counts that disagree is no profile. An RGB profile on a YCbCr or RGB
    /// JPEG, a CMYK one on a CMYK JPEG (its decoder converts through it).
    static func jpeg(_ bytes: [UInt8], markers known: JPEGMarkerInfo? = nil) -> (
        description: ColourDescription?, problem: String?
    ) {
        // The decoder's own walk when it has made one.
        let markers = known ?? JPEGMarkerInfo(scanning: bytes)
        guard !markers.profileChunks.isEmpty else { return (nil, nil) }
        var chunks: [Int: Range<Int>] = [:]
        for chunk in markers.profileChunks {
            if chunks[chunk.sequence] != nil { return (nil, "the JPEG's ICC_PROFILE chunks repeat number \(chunk.sequence)") }
            chunks[chunk.sequence] = chunk.bytes
        }
        guard markers.profileChunks.map(\.bytes.count).reduce(0, +) <= ColourDescription.maxProfileBytes else {
            return (nil, "the JPEG's ICC profile is over 4 MB")
        }
        let count = markers.profileChunks[0].count
        guard markers.profileChunks.allSatisfy({ $0.count == count }), count == chunks.count,
            (1...max(1, count)).allSatisfy({ chunks[$0] != nil })
        else { return (nil, "the JPEG's ICC_PROFILE chunks are not a whole sequence") }
        let profile = (1...count).flatMap { bytes[chunks[$0]!] }
        // The profile's colour space (header bytes 16-19) must be the
        // image's (ICC.1 B.4): an RGB one on a grey or CMYK JPEG would be
        // applied to samples it does not describe. Grey profiles are not used.
        // No frame header found (stray bytes stopped the marker walk): which
        // samples the profile would describe is not known.
        guard let components = markers.componentCount else {
            return (nil, "the JPEG's frame header was not found before its data: its ICC profile is not used")
        }
        let space = profile.count >= 20 ? String(decoding: profile[16..<20], as: UTF8.self) : ""
        guard (components == 3 && space == "RGB ") || (components == 4 && space == "CMYK") else {
            let named = ["RGB ": "RGB", "CMYK": "CMYK", "GRAY": "grey"][space] ?? "unrecognised"
            return (nil, "a \(components)-component JPEG: its \(named) ICC profile is not used")
        }
        return (.icc(profile), nil)
    }

    /// PNG (third edition, 4.3): `cICP` first, then `iCCP`, then `sRGB`
    /// (nothing to do), then `cHRM` and `gAMA`, whatever their order in the
    /// file; only chunks before the image data count.
    static func png(_ bytes: [UInt8]) -> (description: ColourDescription?, problem: String?) {
        var chromaticities: [Double]?
        var gamma: Double?
        // Colour types 0 and 4 are grey: an ICC profile or primaries are for RGB (PNG 11.3.3.3).
        let grey = bytes.count > 25 && (bytes[25] == 0 || bytes[25] == 4)
        var codePoints: (description: ColourDescription?, problem: String?)?
        // Why a cICP chunk was passed over: the next source speaks, with this note.
        var note: String?
        var profile: (description: ColourDescription?, problem: String?)?
        var isSRGB = false
        walkPNGChunks(bytes) { chunk in
            let data = bytes[chunk.data]
            switch chunk.type {
            case "IDAT", "IEND": return false
            case "cICP" where data.count == 4 && !grey && codePoints == nil && note == nil:
                // The first one counts (PNG allows one; libpng keeps the first).
                // Primaries, transfer, matrix (PNG allows 0 only: RGB) and full range.
                let matrix = data[data.startIndex + 2]
                let fullRange = data[data.startIndex + 3]
                let (description, unsupported) = ColourDescription.cicp(
                    primaries: Int(data[data.startIndex]), transfer: Int(data[data.startIndex + 1]))
                if matrix != 0 {
                    note = "the PNG's cICP chunk names matrix \(matrix) (PNG allows 0): not used"
                } else if fullRange != 1 {
                    note = "the PNG's cICP chunk says narrow range, which pxview does not expand: not used"
                } else if let unsupported {
                    note = "the PNG's cICP chunk: \(unsupported)"
                } else {
                    codePoints = (description, nil)
                }
            case "sRGB": isSRGB = true
            case "iCCP" where grey: profile = profile ?? (nil, "the PNG is grey: its ICC profile is not used")
            case "iCCP": profile = profile ?? iccp(data)
            case "cHRM" where data.count == 32 && !grey:
                chromaticities = (0..<8).map { k in
                    Double(data[(data.startIndex + 4 * k)..<(data.startIndex + 4 * k + 4)].reduce(0) { $0 << 8 | Int($1) })
                        / 100_000
                }
            case "gAMA" where data.count == 4:
                let value = data.reduce(0) { $0 << 8 | Int($1) }
                if value > 0 { gamma = Double(value) / 100_000 }
            default: break
            }
            return true
        }
        if let codePoints { return codePoints }
        if let profile, profile.description != nil { return (profile.description, note) }
        // A chunk that cannot be used leaves the next source to speak, with its note.
        let problem = [note, profile?.problem].compactMap { $0 }.joined(separator: "; ")
        let said = problem.isEmpty ? nil : problem
        if isSRGB { return (nil, said) }
        return (ColourDescription.png(chromaticities: chromaticities, gamma: gamma), said)
    }

    /// An `iCCP` chunk's profile: a name, NUL, compression method 0, zlib data.
    private static func iccp(_ data: ArraySlice<UInt8>) -> (description: ColourDescription?, problem: String?) {
        guard let nul = data.firstIndex(of: 0), nul + 2 <= data.endIndex, data[nul + 1] == 0 else {
            return (nil, "the PNG's iCCP chunk is damaged")
        }
        let compressed = Array(data[(nul + 2)...])
        var profile = [UInt8](repeating: 0, count: ColourDescription.maxProfileBytes)
        let written = profile.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { pxview_inflate($0.baseAddress, $0.count, out.baseAddress, out.count) }
        }
        guard written > 0 else { return (nil, "the PNG's iCCP profile does not inflate (or is over 4 MB)") }
        return (.icc(Array(profile.prefix(written))), nil)
    }

    /// WebP: the `ICCP` chunk (the extended format's VP8X says it is there).
    static func webp(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 30, bytes[12..<16].elementsEqual("VP8X".utf8), bytes[20] & 0x20 != 0 else { return nil }
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            guard size <= bytes.count - i - 8 else { return nil }
            if bytes[i..<(i + 4)].elementsEqual("ICCP".utf8) {
                return size <= ColourDescription.maxProfileBytes ? Array(bytes[(i + 8)..<(i + 8 + size)]) : nil
            }
            i += 8 + size + (size & 1)
        }
        return nil
    }
}
