import Foundation
import Pixels
import Testing

@testable import Decoding

/// EXIF orientation parsing: both TIFF byte orders, and hostile data that
/// must fall back to 1 without reading out of bounds.
@Suite struct MetadataTests {
    /// SOI + one APP1 segment holding `payload` + the start of a scan.
    static func jpeg(app1 payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xDA, 0, 2]
    }

    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// TIFF with IFD0 at `ifdOffset` holding `count` as entry count and one
    /// Orientation entry of the given type and value.
    static func tiff(bigEndian: Bool, orientation: UInt32, type: UInt16 = 3, ifdOffset: UInt32 = 8, count: UInt16 = 1)
        -> [UInt8]
    {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }
        let value = type == 3 ? u16(UInt16(orientation)) + [0, 0] : u32(orientation)
        return (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(ifdOffset)
            + u16(count) + u16(0x0112) + u16(type) + u32(1) + value + u32(0)
    }

    @Test func realFilesReportTheirOrientation() throws {
        #expect(exifOrientation(inJPEG: try Fixtures.image("p12_china_exif6.jpg")) == 6)
        #expect(exifOrientation(inJPEG: try Fixtures.image("p03_storm_1920x1280.jpg")) == 1)
        #expect(exifOrientation(inJPEG: try Fixtures.image("p01_china_640x427.jpg")) == 1)  // no EXIF at all
    }

    @Test(arguments: [true, false])
    func bothByteOrdersParse(bigEndian: Bool) {
        for value: UInt32 in 1...8 {
            #expect(
                exifOrientation(inJPEG: Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: bigEndian, orientation: value)))
                    == Int(value))
        }
        let long = Self.tiff(bigEndian: bigEndian, orientation: 5, type: 4)
        #expect(exifOrientation(inJPEG: Self.jpeg(app1: Self.exifPrefix + long)) == 5)
    }

    @Test func hostileEXIFFallsBackToUpright() {
        let good = Self.exifPrefix + Self.tiff(bigEndian: true, orientation: 6)
        let hostile: [(String, [UInt8])] = [
            ("orientation 9", Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: true, orientation: 9))),
            ("orientation 0", Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: false, orientation: 0))),
            ("wrong value type", Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: true, orientation: 6, type: 7))),
            (
                "IFD far past the end",
                Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: true, orientation: 6, ifdOffset: 0xFFFF_FFF0))
            ),
            (
                "IFD offset at the last byte",
                Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: false, orientation: 6, ifdOffset: 25))
            ),
            (
                "65535 entries claimed",
                Self.jpeg(app1: Self.exifPrefix + Self.tiff(bigEndian: true, orientation: 7, count: 0xFFFF)).replacing(
                    tag: 0x0112)
            ),
            ("not TIFF", Self.jpeg(app1: Self.exifPrefix + Array("XX*\0\0\0\0\u{8}".utf8))),
            ("APP1 without Exif header", Self.jpeg(app1: Array(good.dropFirst(6)))),
            ("segment longer than the file", Array(Self.jpeg(app1: good).prefix(20))),
            ("segment length 0", [0xFF, 0xD8, 0xFF, 0xE1, 0, 0] + good),
            ("not a JPEG", Array(good)),
            ("nothing", []),
        ]
        for (label, bytes) in hostile {
            #expect(exifOrientation(inJPEG: bytes) == 1, "\(label)")
        }
    }

    @Test func everyPrefixOfAnEXIFHeaderIsSafe() throws {
        let bytes = try Fixtures.image("v18_china_orient6_80x120.jpg")
        for length in 0..<min(bytes.count, 400) {
            let value = exifOrientation(inJPEG: Array(bytes[0..<length]))
            #expect(value == 1 || value == 6, "cut at \(length)")
        }
        #expect(exifOrientation(inJPEG: bytes) == 6)
    }

    @Test func adobeMarkerAndHeaderCompletenessAreSeen() throws {
        let cmyk = JPEGMarkerInfo(scanning: try Fixtures.image("v03_china_cmyk_adobe_320x213.jpg"))
        #expect(cmyk.hasAdobeMarker && cmyk.reachedScan && !cmyk.headerTruncated)
        let plain = JPEGMarkerInfo(scanning: try Fixtures.image("p01_china_640x427.jpg"))
        #expect(!plain.hasAdobeMarker && plain.reachedScan)
        let cut = JPEGMarkerInfo(scanning: try Fixtures.bad("truncated_header.jpg"))
        #expect(cut.headerTruncated && !cut.reachedScan)
    }

    @Test func formatComesFromMagicBytesOnly() throws {
        #expect(sniffImageFormat(try Fixtures.image("p01_china_640x427.jpg")) == .jpeg)
        #expect(sniffImageFormat(try Fixtures.image("p02_coffee_600x400.png")) == .png)
        #expect(sniffImageFormat(try Fixtures.bad("png_named.jpg")) == .png)
        #expect(sniffImageFormat(try Fixtures.bad("text.jpg")) == nil)
        #expect(sniffImageFormat([UInt8]()) == nil)
        #expect(sniffImageFormat([0xFF, 0xD8]) == nil)
        #expect(sniffImageFormat(ImageSignature.png.dropLast()) == nil)
        #expect(sniffImageFormat(ArraySlice(ImageSignature.png)) == .png)
    }

    /// What the camera wrote (issue 29's `i` line), from a JPEG's APP1 and
    /// a PNG's eXIf (fixtures made by Tests/Fixtures/exif/make.py); every
    /// cut of the JPEG's EXIF reads without a crash; a photo with none has none.
    @Test func theCamerasDetailsAreRead() throws {
        let expected = "2024-05-01 18:42 · Canon EOS R5 · RF50mm F1.8 STM · 1/250 s f/2.8 ISO 400 50 mm"
        let jpeg = try Data(contentsOf: Fixtures.root.appendingPathComponent("exif/camera.jpg"))
        let png = try Data(contentsOf: Fixtures.root.appendingPathComponent("exif/camera.png"))
        #expect(PhotoDetails.read([UInt8](jpeg), format: .jpeg)?.description == expected)
        #expect(PhotoDetails.read([UInt8](png), format: .png)?.description == expected)
        #expect(try decodeImage([UInt8](jpeg)).details?.description == expected)
        let plain = try Fixtures.image("p02_coffee_600x400.png")
        #expect(PhotoDetails.read(plain, format: .png) == nil)
        let bytes = [UInt8](jpeg)
        for cut in stride(from: 20, to: min(bytes.count, 600), by: 7) {
            _ = PhotoDetails.read(Array(bytes.prefix(cut)), format: .jpeg)
        }
        #expect(PhotoDetails.date("0000:00:00 00:00:00") == nil && PhotoDetails.date("2024:05:01 18:42:07") == "2024-05-01 18:42")
    }
}

extension Array where Element == UInt8 {
    /// The bytes with the tag of the first IFD entry replaced, so a scan
    /// over the claimed entries runs off the end of the data.
    fileprivate func replacing(tag: UInt16) -> [UInt8] {
        var copy = self
        // SOI(2) APP1 marker+length(4) "Exif\0\0"(6) TIFF header(8) count(2) -> first tag at 22.
        copy[22] = 0x01
        copy[23] = 0x0F
        return copy
    }
}
