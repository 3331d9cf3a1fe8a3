import Pixels
import Testing

@testable import Decoding

/// Hostile and broken inputs: each gives the right error (or a recovered
/// image with a warning) and never crashes.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var kind: DecodeError.Kind
        var message: String
        var description: String { file }
    }

    static let failures: [Case] = [
        Case(file: "empty.jpg", kind: .empty, message: "file is empty"),
        Case(file: "text.jpg", kind: .unknownFormat, message: "not a JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL image"),
        Case(file: "random.bin", kind: .unknownFormat, message: "not a JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL image"),
        Case(file: "truncated_header.jpg", kind: .truncated, message: "truncated JPEG data"),
        Case(file: "truncated.png", kind: .truncated, message: "truncated PNG data"),
        Case(file: "bad_crc_ihdr.png", kind: .corrupt, message: "corrupt PNG data (IHDR: CRC error)"),
        Case(file: "bad_crc_idat.png", kind: .corrupt, message: "corrupt PNG data (IDAT: CRC error)"),
        Case(
            file: "bomb_65500x65500.jpg", kind: .tooLarge(width: 65500, height: 65500, limit: 100_000_000),
            message: "image is 65500x65500 (4290250000 pixels), over the 100000000-pixel limit"),
        Case(
            file: "bomb_100000x100000.png", kind: .tooLarge(width: 100_000, height: 100_000, limit: 100_000_000),
            message: "image is 100000x100000 (10000000000 pixels), over the 100000000-pixel limit"),
        Case(file: "zero_0x0.png", kind: .zeroSize, message: "image has zero width or height"),
    ]

    @Test(arguments: failures)
    func badFileIsRefusedWithAClearReason(_ expected: Case) throws {
        let bytes = try Fixtures.bad(expected.file)
        do {
            let decoded = try decodeImage(bytes)
            Issue.record("\(expected.file) decoded to \(decoded.image.size)")
        } catch {
            #expect(error.kind == expected.kind)
            #expect(error.description == expected.message)
        }
    }

    @Test func jpegCutMidScanIsKeptWithAWarning() throws {
        // libjpeg-turbo pads the missing scan data and reports a warning.
        let decoded = try decodeImage(try Fixtures.bad("truncated_scan.jpg"))
        #expect(decoded.image.size == PixelSize(width: 120, height: 80))
        #expect(decoded.warnings == ["premature end of JPEG file"])
        // The top survives intact: it matches the complete file's decode.
        let complete = try decodeImage(try Fixtures.image("v13_china_orient1_120x80.jpg")).image
        let top = PixelRect(x: 0, y: 0, width: 120, height: 16)
        #expect(decoded.image.cropped(to: top) == complete.cropped(to: top))
    }

    @Test func pngMissingOnlyItsEndChunkIsKeptWithAWarning() throws {
        let complete = try Fixtures.image("p10_debianlogo_256x256_palette_trns.png")
        let withoutIEND = Array(complete.dropLast(12))  // IEND is length + type + CRC, no data
        let decoded = try decodeImage(withoutIEND)
        #expect(decoded.image == (try decodeImage(complete)).image)
        #expect(decoded.warnings == ["damaged PNG data after the image (unexpected end of data)"])
    }

    @Test func imageJustOverTheLimitIsRefused() throws {
        let jpeg = try Fixtures.image("p01_china_640x427.jpg")
        let png = try Fixtures.image("p10_debianlogo_256x256_palette_trns.png")
        #expect(throws: DecodeError(.tooLarge(width: 640, height: 427, limit: 640 * 427 - 1), format: .jpeg)) {
            try decodeImage(jpeg, options: DecodeOptions(maxPixels: 640 * 427 - 1))
        }
        #expect(throws: DecodeError(.tooLarge(width: 256, height: 256, limit: 65535), format: .png)) {
            try decodeImage(png, options: DecodeOptions(maxPixels: 65535))
        }
        #expect(try decodeImage(jpeg, options: DecodeOptions(maxPixels: 640 * 427)).image.width == 640)
        #expect(try decodeImage(png, options: DecodeOptions(maxPixels: 65536)).image.width == 256)
    }

    @Test func errorsNameTheFormatAndKeepTheLibraryDetail() {
        let corrupt = DecodeError(.corrupt, format: .jpeg, detail: "Bogus marker length")
        #expect(corrupt.description == "corrupt JPEG data (bogus marker length)")
        let acronym = DecodeError(.unsupported, format: .jpeg, detail: "JPEG datastream contains no image")
        #expect(acronym.description == "unsupported JPEG image (JPEG datastream contains no image)")
        #expect(DecodeError(.outOfMemory).description == "not enough memory to decode the image")
    }

    /// Every prefix of a file (at a stride) either decodes to the right size
    /// or throws a DecodeError: never a crash, never a wrong-sized image.
    @Test(arguments: ["v13_china_orient1_120x80.jpg", "v09_camera_gray8_128x128.png", "v04_china_rgba16_interlaced_96x64.png"])
    func everyTruncationIsHandled(name: String) throws {
        let bytes = try Fixtures.image(name)
        let full = try decodeImage(bytes)
        var refused = 0
        for length in stride(from: 0, to: bytes.count, by: 37) {
            do {
                let partial = try decodeImage(Array(bytes[0..<length]))
                #expect(partial.image.size == full.image.size, "\(name) cut at \(length)")
            } catch {
                refused += 1
                #expect(error.kind != .unknownFormat || length < 8, "\(name) cut at \(length): \(error)")
            }
        }
        #expect(refused > 0)
    }

    /// Single corrupted bytes all through a file: decoded or refused, no crash.
    @Test(arguments: ["v18_china_orient6_80x120.jpg", "v07_camera_gray2_128x128.png"])
    func corruptedBytesAreHandled(name: String) throws {
        let original = try Fixtures.image(name)
        var outcomes = (decoded: 0, refused: 0)
        for position in stride(from: 2, to: original.count, by: 23) {
            var bytes = original
            bytes[position] ^= 0x5A
            do {
                let decoded = try decodeImage(bytes)
                #expect(!decoded.image.size.isEmpty)
                outcomes.decoded += 1
            } catch {
                // Only damage to the magic bytes makes it "not an image".
                #expect(error.kind != .unknownFormat || position < 8, "byte \(position): \(error)")
                outcomes.refused += 1
            }
        }
        if name.hasSuffix(".png") {
            // Every PNG chunk has a CRC: any flipped byte is caught.
            #expect(outcomes.decoded == 0 && outcomes.refused > 10)
        } else {
            // JPEG has no checksum: much damage decodes (as noise), some is refused.
            #expect(outcomes.decoded > 0 && outcomes.refused > 0)
        }
    }
}
