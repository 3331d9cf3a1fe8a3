import Foundation
import Pixels
import Testing

@testable import Decoding

/// The codec table: one row per format, and everything that reads it.
@Suite struct CodecTableTests {
    @Test func everyFormatHasExactlyOneRow() {
        for format in ImageFormat.allCases {
            #expect(Codec.table.filter { $0.format == format }.count == 1, "\(format)")
        }
        #expect(Codec.table.count == ImageFormat.allCases.count)
    }

    @Test func sniffingReadsTheSignatures() {
        #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(ImageFormat(sniffing: Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat(sniffing: [UInt8]()) == nil)
    }

    @Test func namesExtensionsAndPhrase() {
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
        #expect(ImageFormat.png.fileExtension == "png")
        #expect(ImageFormat.jpeg.displayName == "JPEG")
        #expect(ImageFormat.gif.fileExtension == "gif")
        #expect(ImageFormat.heic.fileExtension == "heic")
        #expect(ImageFormat.jxl.displayName == "JPEG XL")
        #expect(
            ImageFormat.fileExtensions == ["jpg", "jpeg", "jpe", "png", "gif", "webp", "avif", "heic", "heif", "hif", "jxl"])
        #expect(ImageFormat.namesPhrase == "JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL")
        #expect(DecodeError(.unknownFormat).description == "not a JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL image")
    }

    @Test func nonImageBodiesAreDescribed() {
        #expect(ImageFormat.describeNonImage(Array("  <html><body>".utf8)) == "an HTML page")
        #expect(ImageFormat.describeNonImage(Array(#"{"error": 1}"#.utf8)) == "JSON")
        #expect(ImageFormat.describeNonImage(Array("Forbidden\n".utf8)) == "text")
        #expect(ImageFormat.describeNonImage([0, 1, 2, 200]) == "unrecognised data")
        #expect(ImageFormat.describeNonImage([]) == "an empty body")
    }

    @Test func headersGiveTheShownSize() throws {
        #expect(
            try readImageInfo(try Fixtures.image("p01_china_640x427.jpg"))
                == ImageInfo(format: .jpeg, size: PixelSize(width: 640, height: 427)))
        // EXIF orientation 6 turns the stored 80x120 (64x96) upright.
        #expect(try readImageInfo(try Fixtures.image("v18_china_orient6_80x120.jpg")).size == PixelSize(width: 120, height: 80))
        #expect(
            try readImageInfo(try Fixtures.image("v12_china_exif6_png_64x96.png"))
                == ImageInfo(format: .png, size: PixelSize(width: 96, height: 64)))
        // No pixel limit applies to reading a header.
        #expect(try readImageInfo(try Fixtures.bad("bomb_100000x100000.png")).size == PixelSize(width: 100_000, height: 100_000))
        #expect(throws: DecodeError(.unknownFormat)) { try readImageInfo(try Fixtures.bad("text.jpg")) }
        #expect(throws: DecodeError(.truncated, format: .jpeg)) { try readImageInfo(try Fixtures.bad("truncated_header.jpg")) }
    }

    /// `scripts/ensure-deps.sh` greps this file's `packages: [...]` lines:
    /// every row's packages must be written that way, on one line.
    @Test func ensureDepsFindsEveryRowsPackages() throws {
        let source = try String(
            contentsOf: Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/Decoding/CodecTable.swift"), encoding: .utf8)
        let regex = try Regex(#"packages: \[([^\]]*)\]"#)
        let listed = source.matches(of: regex).flatMap { match -> [String] in
            let quoted = String(source[match.range]).split(separator: "\"").enumerated()
            return quoted.filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        #expect(listed == Codec.table.flatMap(\.packages))
    }
}
