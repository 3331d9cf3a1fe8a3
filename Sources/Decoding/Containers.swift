import Pixels

/// The container walks the codec table's newer formats share: how a file
/// starts (`Signature`), and whether it is whole (RIFF for WebP, ISO base
/// media boxes for AVIF, HEIF and the JPEG XL container). Every read is
/// bounds-checked: the bytes are untrusted.
enum Signature: Sendable {
    /// One of these byte strings, at the very start.
    case prefix([[UInt8]])
    /// A RIFF file of this form type ("WEBP").
    case riff(String)
    /// An ISO base media file whose `ftyp` names one of these brands, as
    /// its major brand or among the compatible ones.
    case ftyp(Set<String>)

    func matches(_ bytes: some Collection<UInt8>) -> Bool {
        switch self {
        case .prefix(let magics):
            return magics.contains { bytes.starts(with: $0) }
        case .riff(let form):
            let head = Array(bytes.prefix(12))
            return head.count == 12 && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual(form.utf8)
        case .ftyp(let brands):
            return !ftypBrands(Array(bytes.prefix(256))).isDisjoint(with: brands)
        }
    }
}

/// The major and compatible brands of a leading `ftyp` box, as text.
func ftypBrands(_ head: [UInt8]) -> Set<String> {
    guard head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) else { return [] }
    let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
    let end = min(head.count, max(16, size))
    var brands: Set<String> = [String(decoding: head[8..<12], as: UTF8.self)]
    var i = 16
    while i + 4 <= end {
        brands.insert(String(decoding: head[i..<(i + 4)], as: UTF8.self))
        i += 4
    }
    return brands
}

/// WebP: the RIFF header's size covers the whole file (an odd-sized chunk is padded).
func riffIsComplete(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 12 else { return false }
    let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
    return size >= 4 && bytes.count >= size + 8
}

/// ISO base media (AVIF, HEIF, the JPEG XL container): the top-level boxes
/// follow each other to the very end of the data, none running past it,
/// and hold `required` (AVIF and HEIF keep their coded pixels in `mdat`:
/// a cut right after `meta` leaves whole boxes and no picture). nil when a
/// box says "to the end of the file" (size 0): the walk cannot tell then.
func boxesAreComplete(_ bytes: [UInt8], requiring required: String? = nil) -> Bool? {
    var offset = 0
    var found = required == nil
    while offset < bytes.count {
        guard offset + 8 <= bytes.count else { return false }
        var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        if let required, bytes[(offset + 4)..<(offset + 8)].elementsEqual(required.utf8) { found = true }
        if size == 0 { return found ? nil : false }
        if size == 1 {
            guard offset + 16 <= bytes.count else { return false }
            let large = bytes[(offset + 8)..<(offset + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large <= UInt64(Int.max) else { return false }
            size = Int(large)
        }
        guard size >= 8, size <= bytes.count - offset else { return false }
        offset += size
    }
    return offset == bytes.count && offset > 0 && found
}

/// JPEG XL: the container's boxes when they can tell, else a decode of
/// every frame (libjxl asks for more data when it stops short; walking
/// only the frames' headers does not notice a cut in the last frame's data).
func jxlIsComplete(_ bytes: [UInt8], maxPixels: Int) -> Bool {
    if bytes.starts(with: jxlContainer), let whole = boxesAreComplete(bytes), !whole { return false }
    return (try? decodeFrames(bytes, options: DecodeOptions(maxPixels: maxPixels), codec: .jxl)) != nil
}

/// The JPEG XL container's signature box; a bare codestream starts FF 0A.
let jxlContainer: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
let jxlCodestream: [UInt8] = [0xFF, 0x0A]
