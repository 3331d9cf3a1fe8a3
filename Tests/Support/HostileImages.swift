/// Small files that ask a decoder for much: an animation's canvas far
/// larger than its frames, a frame far larger than its canvas, many
/// frames. GIF and WebP are simple containers, written here byte by byte.
public enum HostileImages {
    /// A frame's rectangle on the canvas.
    public struct Rect: Sendable {
        public var x, y, width, height: Int

        public init(x: Int = 0, y: Int = 0, width: Int = 1, height: Int = 1) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// A GIF89a of `screen` with these frames, each 10 cs, looping for ever.
    /// Every frame's pixel data is one red pixel's LZW (clear, 1, end), whatever
    /// its rectangle: enough for a decoder to start, and to be refused by
    /// one that checks sizes first.
    public static func gif(width: Int, height: Int, frames: [Rect]) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0]
        out += [0, 0, 0, 255, 0, 0]  // two colours: black, red
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            out += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            out += [0x2C] + le16(frame.x) + le16(frame.y) + le16(frame.width) + le16(frame.height) + [0]
            // Minimum code size 2: clear (4), 1 (red), end (5) in 3-bit codes, LSB first.
            out += [2, 2, 0x4C, 0x01, 0]
        }
        return out + [0x3B]
    }

    /// A lossless 1x1 red picture (cwebp's VP8L payload for it, 15 bytes).
    static let onePixelVP8L: [UInt8] = [0x2F, 0, 0, 0, 0, 0x07, 0x10, 0xFD, 0x8F, 0xFE, 0x07, 0x22, 0xA2, 0xFF, 0x01]

    /// An animated WebP of `width` x `height` (VP8X canvas) with `frames`
    /// frames of 1x1 pixel at the top-left, each 100 ms, looping for ever.
    public static func webp(width: Int, height: Int, frames: Int) -> [UInt8] {
        func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8(value >> 24 & 0xFF)] }
        func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
            Array(name.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let bitstream = chunk("VP8L", onePixelVP8L)
        let frame = chunk("ANMF", le24(0) + le24(0) + le24(0) + le24(0) + le24(100) + [0] + bitstream)
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x12, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        body.reserveCapacity(body.count + frames * frame.count)
        for _ in 0..<frames { body += frame }
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A derived HEIF image: the primary item a `grid` (one tile) or an
    /// `iovl` (one layer) whose own data declares a `canvas`, while its
    /// `ispe` says 16x16; the one tile is an `hvc1` item with an empty
    /// configuration and 64 zero bytes of data. libheif 1.15 allocates a
    /// grid's canvas before decoding any tile (30000x30000: 2.6 GB).
    public static func heif(derived type: String, canvas: Rect, wideFields: Bool = false) -> [UInt8] {
        func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(value >> (8 * (count - 1 - $0)) & 0xFF) } }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be(8 + payload.count, 4) + Array(type.utf8) + payload }
        func full(_ type: String, _ version: UInt8, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
        let field = wideFields ? 4 : 2
        let size = be(canvas.width, field) + be(canvas.height, field)
        let derived: [UInt8] =
            type == "iovl"
            ? [0, wideFields ? 1 : 0] + [UInt8](repeating: 0, count: 8) + size + be(0, field) + be(0, field)
            : [0, wideFields ? 1 : 0, 0, 0] + size
        let tile = [UInt8](repeating: 0, count: 64)
        let ftyp = box("ftyp", Array("heic".utf8) + be(0, 4) + Array("mif1heic".utf8))
        let hdlr = full("hdlr", 0, be(0, 4) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = full("pitm", 0, be(1, 2))
        let iinf = full(
            "iinf", 0,
            be(2, 2) + full("infe", 2, be(1, 2) + be(0, 2) + Array(type.utf8) + [0])
                + full("infe", 2, be(2, 2) + be(0, 2) + Array("hvc1".utf8) + [0]))
        let iref = full("iref", 0, box("dimg", be(1, 2) + be(1, 2) + be(2, 2)))
        let ispe = full("ispe", 0, be(16, 4) + be(16, 4))
        let hvcC = box("hvcC", [1] + [UInt8](repeating: 0, count: 20) + [3, 0])
        let ipma = full("ipma", 0, be(2, 4) + be(1, 2) + [1, 0x81] + be(2, 2) + [2, 0x82, 0x83])
        let iprp = box("iprp", box("ipco", ispe + ispe + hvcC) + ipma)
        // Version 1: 4-byte offsets and lengths; the derived item's data
        // in `idat` (construction method 1), the tile's in `mdat`.
        func iloc(tileAt offset: Int) -> [UInt8] {
            full(
                "iloc", 1,
                [0x44, 0] + be(2, 2) + be(1, 2) + be(1, 2) + be(0, 2) + be(1, 2) + be(0, 4) + be(derived.count, 4)
                    + be(2, 2) + be(0, 2) + be(0, 2) + be(1, 2) + be(offset, 4) + be(tile.count, 4))
        }
        func head(tileAt offset: Int) -> [UInt8] {
            ftyp + full("meta", 0, hdlr + pitm + iloc(tileAt: offset) + iinf + iref + box("idat", derived) + iprp)
        }
        return head(tileAt: head(tileAt: 0).count + 8) + box("mdat", tile)
    }
}
