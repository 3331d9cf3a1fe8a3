import ControlSequences
import Decoding
import Encoding
import Pixels
import Plumbing

/// `Y`: the image itself on the clipboard, through kitty's clipboard
/// protocol (OSC 5522), which works over SSH as OSC 52 does. The file's
/// own bytes go under their media type; a file that is not a PNG also
/// goes as a PNG of the picture as decoded (what most programs paste on
/// X11 and Wayland ask for), at most `maxPNGPixels`.
enum ClipboardImage {
    /// 4096 bytes of data a packet, as the protocol asks.
    static let chunkBytes = 4096
    /// A 24 MP photo's PNG would be some 40 MB through the pty; a picture
    /// decoded larger than this 12 MP (4240x2832) goes as its own bytes only.
    static let maxPNGPixels = 12_000_000

    /// What goes, each with its media type, and a few words for the
    /// status line ("JPEG 1.2 MB + PNG 1920x1280").
    static func items(bytes: [UInt8], picture: RGBAImage?) -> (items: [(mime: String, data: [UInt8])], said: String) {
        let format = ImageFormat(sniffing: bytes)
        var items: [(mime: String, data: [UInt8])] = []
        var said: [String] = []
        if let format {
            items.append((format.codec.mimeType, bytes))
            said.append("\(format.codec.name) \(ByteSize.text(bytes.count))")
        }
        if format != .png, let picture, picture.size.width * picture.size.height <= maxPNGPixels,
            let png = PNGWriter.encode(picture)
        {
            items.append(("image/png", png))
            said.append("PNG \(picture.size)")
        }
        return (items, said.joined(separator: " + "))
    }

    /// The write's packets, in order: start, each item's chunks, end.
    static func packets(_ items: [(mime: String, data: [UInt8])]) -> [[UInt8]] {
        var packets = [TerminalCommand.clipboardWriteStart]
        for item in items {
            let mime = Base64.encode(Array(item.mime.utf8))
            var offset = 0
            while offset < item.data.count {
                let end = min(offset + chunkBytes, item.data.count)
                let chunk = Base64.encode(item.data[offset..<end])
                packets.append(TerminalCommand.clipboardData(mimeBase64: mime, chunkBase64: chunk))
                offset = end
            }
        }
        packets.append(TerminalCommand.clipboardWriteEnd)
        return packets
    }
}
