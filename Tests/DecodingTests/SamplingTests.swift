import Foundation
import Pixels
import Testing

@testable import Decoding

/// JPEGs with chroma samplings TurboJPEG 2.1 cannot name, decoded through
/// the libjpeg API and compared with djpeg's output pixel for pixel.
@Suite struct SamplingTests {
    static func sampling(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.root.appendingPathComponent("sampling").appendingPathComponent(name)))
    }

    /// A binary PPM (P6, maxval 255) as size and RGB bytes.
    static func ppm(_ name: String) throws -> (PixelSize, [UInt8]) {
        let bytes = try sampling(name)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            let start = index
            while bytes[index] != 0x20 && bytes[index] != 0x0A { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        #expect(fields[0] == "P6" && fields[3] == "255")
        return (PixelSize(width: Int(fields[1])!, height: Int(fields[2])!), Array(bytes[index...]))
    }

    static func expectMatches(_ image: RGBAImage, reference name: String) throws {
        let (size, rgb) = try ppm(name)
        #expect(image.size == size)
        guard image.size == size else { return }
        var worst = 0
        for i in 0..<(size.width * size.height) {
            for c in 0..<3 { worst = max(worst, abs(Int(image.pixels[i * 4 + c]) - Int(rgb[i * 3 + c]))) }
            #expect(image.pixels[i * 4 + 3] == 255)
        }
        #expect(worst == 0, "largest channel difference from djpeg: \(worst)")
    }

    @Test(arguments: ["3x2", "1x4", "4x2", "2x4", "1x3", "3x1", "2x2_2x1_1x1"])
    func decodesLikeDjpeg(sampling: String) throws {
        let decoded = try decodeImage(try Self.sampling("s_\(sampling).jpg"), options: DecodeOptions())
        #expect(decoded.format == .jpeg && decoded.fullSize == PixelSize(width: 80, height: 54))
        #expect(decoded.warnings.isEmpty)
        try Self.expectMatches(decoded.image, reference: "s_\(sampling).ppm")
    }

    /// DCT scaling works on this path too: a 40x27 target decodes at 1/2.
    @Test func dctScalingOnTheLibjpegPath() throws {
        var options = DecodeOptions()
        options.targetSize = PixelSize(width: 40, height: 27)
        let decoded = try decodeImage(try Self.sampling("s_3x2.jpg"), options: options)
        #expect(decoded.fullSize == PixelSize(width: 80, height: 54))
        try Self.expectMatches(decoded.image, reference: "s_3x2_half.ppm")
    }

    /// The size limit is checked from the header here too.
    @Test func theLimitHolds() throws {
        #expect(throws: DecodeError.self) {
            try decodeImage(try Self.sampling("s_1x4.jpg"), options: DecodeOptions(maxPixels: 1000))
        }
    }

    /// Cut short, it says so instead of decoding garbage silently.
    @Test func truncatedDataIsAWarningOrAnError() throws {
        let bytes = try Self.sampling("s_4x2.jpg")
        let cut = Array(bytes.prefix(bytes.count * 2 / 3))
        if let decoded = try? decodeImage(cut, options: DecodeOptions()) {
            #expect(!decoded.warnings.isEmpty)
        }
    }
}
