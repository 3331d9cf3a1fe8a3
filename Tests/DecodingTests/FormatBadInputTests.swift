import Foundation
import Pixels
import Testing

@testable import Decoding

/// Cut, damaged and hostile files of every newer format: one clear error,
/// from the header when it can be, never a crash or a giant allocation.
@Suite struct FormatBadInputTests {
    /// Every cut of every fixture is refused as truncated (a cut inside the
    /// signature is not recognised at all), and none passes as complete.
    @Test(arguments: FormatRoundTripTests.fixtures.map(\.name))
    func everyCutIsTruncated(name: String) throws {
        let bytes = try Fixtures.format(name)
        let format = try #require(ImageFormat(sniffing: bytes))
        let signatureLength = format == .jxl ? 2 : format == .gif ? 6 : 12
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            let cut = Array(bytes.prefix(length))
            #expect(!isCompleteImage(cut), "\(name) cut at \(length) passes as complete")
            do {
                let decoded = try decodeImage(cut)
                Issue.record("\(name) cut at \(length) decoded to \(decoded.frames.count) frames")
            } catch {
                if length == 0 {
                    #expect(error.kind == .empty)
                } else if length < signatureLength {
                    #expect(error.kind == .unknownFormat, "\(name) cut at \(length): \(error)")
                } else {
                    #expect(error == DecodeError(.truncated, format: format), "\(name) cut at \(length): \(error)")
                    #expect(error.description == "truncated \(format.displayName) data")
                }
            }
        }
    }

    /// Flipped bytes all through each still: decoded (the damage only
    /// changes pixels) or refused with an error, never a crash.
    @Test(arguments: ["china.gif", "china-lossy.webp", "china-lossless.webp", "china.avif", "china.heic", "china.jxl"])
    func damagedBytesAreHandled(name: String) throws {
        let original = try Fixtures.format(name)
        var refused = 0
        for position in stride(from: 12, to: original.count, by: max(1, original.count / 61)) {
            var bytes = original
            bytes[position] ^= 0x5A
            do {
                let decoded = try decodeImage(bytes)
                #expect(!decoded.image.size.isEmpty)
            } catch {
                #expect(error.kind != .unknownFormat && error.kind != .empty, "\(name) byte \(position): \(error)")
                refused += 1
            }
        }
        #expect(refused > 0, "\(name): no damage refused")
    }

    /// A HEIC whose nclx box holds a code point libheif 1.15 calls invalid:
    /// libheif still hands out the profile, which the shim must free (the
    /// fuzzer's leak, 52 bytes a file; the AddressSanitizer suite's leak
    /// check fails this test if it comes back).
    @Test func anInvalidNCLXProfileIsFreed() throws {
        let decoded = try decodeImage(try Fixtures.bad("nclx-invalid-leak.heic"))
        #expect(decoded.image.size == PixelSize(width: 96, height: 72))
        #expect(decoded.colour == nil)
    }

    /// A 61-byte PNG whose tEXt claims 2 GB: libpng zero-filled a buffer
    /// that long before finding the data gone (2.1 GB peak). libpng now sees
    /// the file up to that chunk only; the answer is the same.
    @Test func aChunkClaimingMoreThanTheFileIsNeverAllocated() throws {
        let png = try Fixtures.image("p02_coffee_600x400.png")
        let hostile = Array(png[..<33]) + [0x7F, 0xFF, 0xFF, 0xF0] + Array("tEXt".utf8) + [UInt8](repeating: 0x78, count: 20)
        #expect(hostile.count == 61)
        #expect(pngOverlongChunk(hostile) == 33)
        #expect(throws: DecodeError(.truncated, format: .png)) { try decodeImage(hostile) }
        // An IDAT cut short is libpng's to read as far as it goes; a whole file has none.
        #expect(pngOverlongChunk(Array(png.prefix(png.count / 2))) == nil)
        #expect(pngOverlongChunk(png) == nil)
    }

    struct Bomb: Sendable, CustomStringConvertible {
        var name: String
        var width: Int
        var height: Int
        var make: @Sendable ([UInt8]) -> [UInt8]
        var description: String { "\(name) \(width)x\(height)" }
    }

    /// Each file's header claims far more pixels than it holds; the limit
    /// refuses it before any pixel memory exists.
    static let bombs: [Bomb] = [
        Bomb(name: "china.gif", width: 65535, height: 65535) { bytes in
            var out = bytes
            out.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
            return out
        },
        Bomb(name: "china-lossy.webp", width: 16383, height: 16383) { bytes in
            // VP8 key frame: 14-bit width and height after the start code 9D 01 2A.
            var out = bytes
            out.replaceSubrange(26..<30, with: [0xFF, 0x3F, 0xFF, 0x3F])
            return out
        },
        Bomb(name: "china-lossless.webp", width: 16384, height: 16384) { bytes in
            // VP8L: signature 0x2F, then width - 1 and height - 1 in 14 bits each, LSB first.
            var out = bytes
            out.replaceSubrange(21..<25, with: [0xFF, 0xFF, 0xFF, 0x0F | (out[24] & 0xF0)])
            return out
        },
        Bomb(name: "china.avif", width: 12000, height: 12000) { patchingISPE($0, width: 12000, height: 12000) },
        Bomb(name: "china.heic", width: 12000, height: 12000) { patchingISPE($0, width: 12000, height: 12000) },
        Bomb(name: "china.jxl", width: 12000, height: 12000) { jxlWithSize(12000, codestream: $0) },
        // Past libavif's and libheif's own limits (16384² and 32768²): read
        // from the boxes, not from those libraries' words ("BMFF parsing
        // failed", "not enough memory to decode the image").
        Bomb(name: "china.avif", width: 60000, height: 60000) { patchingISPE($0, width: 60000, height: 60000) },
        Bomb(name: "china.heic", width: 60000, height: 60000) { patchingISPE($0, width: 60000, height: 60000) },
    ]

    @Test(arguments: bombs)
    func bombsAreRefusedFromTheHeader(_ bomb: Bomb) throws {
        let bytes = bomb.make(try Fixtures.format(bomb.name))
        let format = try #require(ImageFormat(sniffing: bytes))
        let started = Date()
        #expect(throws: DecodeError(.tooLarge(width: bomb.width, height: bomb.height, limit: 100_000_000), format: format)) {
            try decodeImage(bytes)
        }
        // From the header: decoding 144 MP would take many seconds in a debug build.
        #expect(Date().timeIntervalSince(started) < 5, "\(bomb.name) took long to refuse")
        #expect(try readImageInfo(bytes).size == PixelSize(width: bomb.width, height: bomb.height))
    }

    @Test func oneFrameOverTheLimitIsRefused() throws {
        let gif = try Fixtures.format("china.gif")
        #expect(throws: DecodeError(.tooLarge(width: 96, height: 64, limit: 96 * 64 - 1), format: .gif)) {
            try decodeImage(gif, options: DecodeOptions(maxPixels: 96 * 64 - 1))
        }
        #expect(try decodeImage(gif, options: DecodeOptions(maxPixels: 96 * 64)).image.size == PixelSize(width: 96, height: 64))
    }

    @Test func aMissingLibraryIsNamed() {
        let error = DecodeError(.noDecoder, format: .avif, detail: "libavif is not installed (libavif.so.15: cannot open)")
        #expect(error.description == "no AVIF decoder (libavif is not installed (libavif.so.15: cannot open))")
    }
}

/// The first `ispe` box (image spatial extents) made to claim width x height.
func patchingISPE(_ bytes: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
    var out = bytes
    let tag = Array("ispe".utf8)
    guard let at = (0..<(bytes.count - 16)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }) else { return bytes }
    let fields = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
    out.replaceSubrange((at + 8)..<(at + 16), with: fields)
    return out
}

/// A JPEG XL codestream whose SizeHeader says side x side (1:1), the rest
/// of `codestream`'s bits after its own (small, 9-bit) SizeHeader kept.
func jxlWithSize(_ side: Int, codestream: [UInt8]) -> [UInt8] {
    var bits: [Bool] = []
    func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
    put(0, 1)  // not div8
    put(2, 2)  // U32 selector: Bits(18)
    put(side - 1, 18)
    put(1, 3)  // ratio 1:1
    let old = codestream.dropFirst(2).flatMap { byte in (0..<8).map { byte >> $0 & 1 == 1 } }
    bits += old.dropFirst(9)
    var out: [UInt8] = [0xFF, 0x0A]
    for start in stride(from: 0, to: bits.count, by: 8) {
        out.append(bits[start..<min(bits.count, start + 8)].enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
    }
    return out
}
