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
}
