import Pixels

/// What a HEIF file's (HEIC's or AVIF's) `meta` box says of its primary
/// item, found by walking the boxes (no decoding): the item's type, its
/// `ispe` size and, for a derived image (`grid` or `iovl`), the canvas its
/// own data declares. libheif 1.15 allocates that
/// canvas at decode time (three 8-bit planes, then the RGBA copy) trusting
/// the data over the item's `ispe`, which is all its handle reports and all
/// `--max-pixels` can be checked against: a few hundred fuzzed bytes made it
/// allocate 2.8 GB. Every read is bounds-checked: the bytes are untrusted.
struct HEIFStructure {
    /// The primary item's four-character type (`hvc1`, `grid`, `iovl`, …), or nil.
    var primaryType: String?
    /// The canvas a `grid` or `iovl` primary item declares, when readable.
    var derivedCanvas: PixelSize?
    /// The primary item's `ispe` (its size before `irot`/`clap`): libavif
    /// and libheif refuse sizes past their own limits (16384² and 32768²)
    /// with words that do not say so ("BMFF parsing failed", "not enough
    /// memory"); read here, a 60000x60000 file is refused as too large.
    var primarySize: PixelSize?
    /// The primary item's `colr`: what the colour step converts from, or
    /// why it does not (PQ, unknown code points, a damaged box).
    var colour: (description: ColourDescription?, problem: String?) = (nil, nil)

    init(scanning bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { read($0) }
    }

    private struct Box {
        var type: String
        /// The payload's range (after the header).
        var body: Range<Int>
    }

    /// The boxes in `range`, in order; the walk stops at the first that runs past it.
    private static func boxes(_ data: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, found.count < 4096 {
            var size = Int(be(data, offset, 4))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                let large = be(data, offset + 8, 8)
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            found.append(Box(type: type, body: (offset + header)..<(offset + size)))
            offset += size
        }
        return found
    }

    /// A big-endian unsigned number of `count` bytes (0–8) at `offset`; the caller checks bounds.
    private static func be(_ data: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 << 8 | UInt64(data[offset + $1]) }
    }

    /// Reads numbers in sequence from a box's payload; nil once past its end.
    private struct Reader {
        let data: UnsafeBufferPointer<UInt8>
        var offset: Int
        let end: Int

        mutating func read(_ count: Int) -> UInt64? {
            guard count >= 0, count <= 8, offset + count <= end else { return nil }
            defer { offset += count }
            return HEIFStructure.be(data, offset, count)
        }
    }

    private mutating func read(_ data: UnsafeBufferPointer<UInt8>) {
        guard let meta = Self.boxes(data, in: 0..<data.count).first(where: { $0.type == "meta" }),
            meta.body.count >= 4
        else { return }
        // meta is a full box: version and flags, then its children.
        let children = Self.boxes(data, in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        func child(_ type: String) -> Box? { children.first { $0.type == type } }
        guard let pitm = child("pitm"), let primary = Self.primaryID(data, pitm) else { return }
        if let iinf = child("iinf") { primaryType = Self.itemType(data, iinf, of: primary) }
        if let iprp = child("iprp") {
            let (properties, all) = Self.properties(data, iprp, of: primary)
            primarySize = properties.first { $0.type == "ispe" }.flatMap { Self.spatialExtent(data, $0) }
            // An ICC profile before nclx when the item has both; a grid's or
            // overlay's tiles may carry the colour the item itself does not (a
            // coded image takes nothing from other items: thumbnails, depth maps).
            func isProfile(_ box: Box) -> Bool {
                box.body.count >= 4
                    && ["prof", "rICC"].contains(
                        String(decoding: data[box.body.lowerBound..<(box.body.lowerBound + 4)], as: UTF8.self))
            }
            let own = properties.filter { $0.type == "colr" }
            let derived = primaryType == "grid" || primaryType == "iovl"
            if let colr = own.first(where: isProfile) ?? own.first
                ?? (derived ? all.first(where: { $0.type == "colr" }) : nil)
            {
                colour = Self.colour(data, colr)
            }
        }
        guard primaryType == "grid" || primaryType == "iovl", let iloc = child("iloc"),
            let start = Self.itemStart(data, iloc, of: primary, idat: child("idat"))
        else { return }
        var reader = Reader(data: data, offset: start, end: data.count)
        // Both start with version and flags; bit 0 of flags: 32-bit sizes.
        guard reader.read(1) != nil, let flags = reader.read(1) else { return }
        let field = flags & 1 == 1 ? 4 : 2
        if primaryType == "grid" {
            guard reader.read(2) != nil else { return }  // rows and columns, less one
        } else {
            guard reader.read(8) != nil else { return }  // the fill colour: four 16-bit channels
        }
        guard let width = reader.read(field), let height = reader.read(field) else { return }
        derivedCanvas = PixelSize(width: Int(width), height: Int(height))
    }

    private static func primaryID(_ data: UnsafeBufferPointer<UInt8>, _ pitm: Box) -> UInt64? {
        var reader = Reader(data: data, offset: pitm.body.lowerBound, end: pitm.body.upperBound)
        guard let version = reader.read(1), reader.read(3) != nil else { return nil }
        return reader.read(version == 0 ? 2 : 4)
    }

    /// The properties `ipma` associates with the item in `iprp`'s `ipco`, in
    /// order, and all of `ipco`'s.
    private static func properties(_ data: UnsafeBufferPointer<UInt8>, _ iprp: Box, of item: UInt64) -> (
        item: [Box], all: [Box]
    ) {
        let children = boxes(data, in: iprp.body)
        guard let ipco = children.first(where: { $0.type == "ipco" }) else { return ([], []) }
        let properties = boxes(data, in: ipco.body)
        var found: [Box] = []
        for ipma in children where ipma.type == "ipma" {
            var reader = Reader(data: data, offset: ipma.body.lowerBound, end: ipma.body.upperBound)
            guard let version = reader.read(1), let flags = reader.read(3), let count = reader.read(4) else { continue }
            for _ in 0..<min(count, 20_000) {
                guard let id = reader.read(version < 1 ? 2 : 4), let associations = reader.read(1) else { break }
                for _ in 0..<associations {
                    guard let association = reader.read(flags & 1 == 1 ? 2 : 1) else { return (found, properties) }
                    // The top bit says "essential"; the rest is a 1-based index (0: none).
                    let index = Int(association & (flags & 1 == 1 ? 0x7FFF : 0x7F))
                    if id == item, index >= 1, index <= properties.count { found.append(properties[index - 1]) }
                }
            }
        }
        return (found, properties)
    }

    /// An `ispe` box's width and height.
    private static func spatialExtent(_ data: UnsafeBufferPointer<UInt8>, _ ispe: Box) -> PixelSize? {
        var reader = Reader(data: data, offset: ispe.body.lowerBound, end: ispe.body.upperBound)
        guard reader.read(4) != nil, let width = reader.read(4), let height = reader.read(4) else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// A `colr` box: an ICC profile (`prof`, `rICC`) or `nclx` code points.
    private static func colour(_ data: UnsafeBufferPointer<UInt8>, _ colr: Box) -> (
        description: ColourDescription?, problem: String?
    ) {
        guard colr.body.count >= 4 else { return (nil, "the colr box is damaged") }
        let kind = String(decoding: data[colr.body.lowerBound..<(colr.body.lowerBound + 4)], as: UTF8.self)
        let payload = (colr.body.lowerBound + 4)..<colr.body.upperBound
        switch kind {
        case "prof", "rICC":
            guard payload.count <= ColourDescription.maxProfileBytes else { return (nil, "the ICC profile is over 4 MB") }
            return (.icc(Array(data[payload])), nil)
        case "nclx":
            var reader = Reader(data: data, offset: payload.lowerBound, end: payload.upperBound)
            guard let primaries = reader.read(2), let transfer = reader.read(2) else { return (nil, "the nclx box is damaged") }
            let (description, unsupported) = ColourDescription.cicp(primaries: Int(primaries), transfer: Int(transfer))
            return (description, unsupported)
        default:
            return (nil, nil)
        }
    }

    /// The type an `infe` (version 2 or 3) in `iinf` gives the item.
    private static func itemType(_ data: UnsafeBufferPointer<UInt8>, _ iinf: Box, of item: UInt64) -> String? {
        var reader = Reader(data: data, offset: iinf.body.lowerBound, end: iinf.body.upperBound)
        guard let version = reader.read(1), reader.read(3) != nil, reader.read(version == 0 ? 2 : 4) != nil else {
            return nil
        }
        for infe in boxes(data, in: reader.offset..<iinf.body.upperBound) where infe.type == "infe" {
            var entry = Reader(data: data, offset: infe.body.lowerBound, end: infe.body.upperBound)
            guard let version = entry.read(1), version >= 2, entry.read(3) != nil,
                let id = entry.read(version == 2 ? 2 : 4), entry.read(2) != nil, entry.offset + 4 <= entry.end
            else { continue }
            if id == item { return String(decoding: data[entry.offset..<(entry.offset + 4)], as: UTF8.self) }
        }
        return nil
    }

    /// Where the item's data starts in the file, from its first `iloc`
    /// extent: in the file itself (construction method 0) or in `idat` (1).
    private static func itemStart(_ data: UnsafeBufferPointer<UInt8>, _ iloc: Box, of item: UInt64, idat: Box?) -> Int? {
        var reader = Reader(data: data, offset: iloc.body.lowerBound, end: iloc.body.upperBound)
        guard let version = reader.read(1), version <= 2, reader.read(3) != nil,
            let sizes = reader.read(1), let more = reader.read(1),
            let count = reader.read(version < 2 ? 2 : 4)
        else { return nil }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 15)
        let baseSize = Int(more >> 4)
        let indexSize = version == 0 ? 0 : Int(more & 15)
        for _ in 0..<min(count, 20_000) {
            guard let id = reader.read(version < 2 ? 2 : 4) else { return nil }
            var method: UInt64 = 0
            if version >= 1 {
                guard let value = reader.read(2) else { return nil }
                method = value & 15
            }
            guard reader.read(2) != nil, let base = reader.read(baseSize), let extents = reader.read(2) else {
                return nil
            }
            var first: UInt64?
            for _ in 0..<extents {
                guard reader.read(indexSize) != nil, let offset = reader.read(offsetSize), reader.read(lengthSize) != nil
                else { return nil }
                if first == nil { first = offset }
            }
            guard id == item else { continue }
            let (start, overflow) = base.addingReportingOverflow(first ?? 0)
            guard !overflow, start <= UInt64(Int.max) else { return nil }
            switch method {
            case 0: return Int(start) < data.count ? Int(start) : nil
            case 1:
                guard let idat, Int(start) < idat.body.count else { return nil }
                return idat.body.lowerBound + Int(start)
            default: return nil
            }
        }
        return nil
    }
}
