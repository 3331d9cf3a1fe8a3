import ControlSequences
import Foundation
import Pixels
import Terminal
import Testing

@testable import Explorer

/// `Y`'s packets (kitty's clipboard protocol) and kitty's answers.
@Suite struct ClipboardImageTests {
    /// Start, each item's data in 4096-byte chunks under its Base64 media
    /// type, end: byte for byte.
    @Test func packetsAreChunkedAsTheProtocolAsks() {
        let data = [UInt8](repeating: 7, count: 4097)
        let packets = ClipboardImage.packets([("image/png", data)])
        let mime = "aW1hZ2UvcG5n"  // "image/png"
        #expect(packets.count == 4)
        #expect(packets[0] == Array("\u{1B}]5522;type=write\u{1B}\\".utf8))
        #expect(
            packets[1]
                == Array("\u{1B}]5522;type=wdata:mime=\(mime);\(Data(data.prefix(4096)).base64EncodedString())\u{1B}\\".utf8))
        #expect(packets[2] == Array("\u{1B}]5522;type=wdata:mime=\(mime);Bw==\u{1B}\\".utf8))
        #expect(packets[3] == Array("\u{1B}]5522;type=wdata\u{1B}\\".utf8))
    }

    /// A tiny item, byte for byte: its media type and data in Base64 in
    /// one packet, between the write's start and end.
    @Test func aTinyItemIsOnePacket() {
        let packets = ClipboardImage.packets([("image/gif", [0x47, 0x49, 0x46, 0x38, 0x39])])
        #expect(
            packets.map { String(decoding: $0, as: UTF8.self) } == [
                "\u{1B}]5522;type=write\u{1B}\\",
                "\u{1B}]5522;type=wdata:mime=aW1hZ2UvZ2lm;R0lGODk=\u{1B}\\",
                "\u{1B}]5522;type=wdata\u{1B}\\",
            ])
    }

    /// A JPEG goes as itself and as a PNG of the picture; a PNG as itself.
    @Test func aPhotoGoesAsItselfAndAsAPNG() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 2044)
        let picture = RGBAImage(width: 3, height: 2, pixels: [UInt8](repeating: 200, count: 24))
        let (items, said) = ClipboardImage.items(bytes: jpeg, picture: picture)
        #expect(items.map(\.mime) == ["image/jpeg", "image/png"] && items[0].data == jpeg)
        #expect(items[1].data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(said == "JPEG 2.0 KB + PNG 3x2")
        let png = items[1].data
        let (again, saidAgain) = ClipboardImage.items(bytes: png, picture: picture)
        #expect(again.map(\.mime) == ["image/png"] && saidAgain.hasPrefix("PNG "))
    }

    /// kitty's answer arrives as input: one event, its status read off it.
    @Test func kittysAnswerIsRead() {
        let done = Array("\u{1B}]5522;type=write:status=DONE\u{1B}\\".utf8)
        var decoder = InputDecoder()
        #expect(decoder.feed(done) == [.unknown(done)])
        #expect(TerminalCommand.clipboardWriteStatus(done) == "DONE")
        #expect(TerminalCommand.clipboardWriteStatus(Array("\u{1B}]5522;type=write:status=EPERM\u{1B}\\".utf8)) == "EPERM")
        #expect(TerminalCommand.clipboardWriteStatus(Array("\u{1B}]52;c;?\u{1B}\\".utf8)) == nil)
    }
}
