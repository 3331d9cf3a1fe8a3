import Foundation
import Pixels
import TestSupport
import Testing

@testable import Decoding

/// Issue 28: the colour step. What each format's colour description is
/// found to be (fixtures made by Tests/Fixtures/colour/make.py: one photo
/// in Adobe RGB and Display P3, tagged the way each format says), what the
/// step does with it, and that sRGB and untagged images are left exactly
/// as decoded.
@Suite struct ColourTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.root.appendingPathComponent("colour").appendingPathComponent(name)))
    }

    static let displayP3: [Double] = [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290]

    /// The same Adobe RGB profile (580 bytes) from a JPEG's APP2 chunk, three
    /// APP2 chunks joined, PNG's iCCP (inflated) and WebP's ICCP.
    @Test func eachFormatsProfileIsFound() throws {
        let jpeg = ColourSources.read(try Self.fixture("adobe.jpg"), format: .jpeg)
        guard case .icc(let profile) = jpeg.description else {
            Issue.record("no profile in adobe.jpg: \(jpeg)")
            return
        }
        #expect(profile.count == 580)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        for (name, format) in [("adobe-split.jpg", ImageFormat.jpeg), ("adobe.png", .png), ("adobe.webp", .webp)] {
            let found = ColourSources.read(try Self.fixture(name), format: format)
            #expect(found.description == .icc(profile), "\(name)")
            #expect(found.problem == nil, "\(name)")
        }
    }

    /// HEIF's nclx code points (AVIF and HEIC: primaries 12, transfer 13),
    /// PNG's gAMA without cHRM, PNG's sRGB chunk.
    @Test func codePointsAndPNGChunksAreFound() throws {
        for (name, format) in [("p3.avif", ImageFormat.avif), ("p3.heic", .heic)] {
            let found = ColourSources.read(try Self.fixture(name), format: format)
            #expect(found.description == .primaries(name: "Display P3", xy: Self.displayP3, transfer: .sRGB), "\(name)")
        }
        let gamma = ColourSources.read(try Self.fixture("gamma18.png"), format: .png)
        guard case .primaries(let name, let xy, .gamma(let exponent)) = gamma.description else {
            Issue.record("gamma18.png: \(gamma)")
            return
        }
        #expect(name == "gamma 1.80" && xy == ColourDescription.bt709 && abs(exponent - 1.8) < 0.001)
        #expect(ColourSources.read(try Self.fixture("srgb.png"), format: .png).description == nil)
    }

    /// H.273 code points: sRGB-equivalent ones are nothing to do; HDR
    /// curves and unknown ones say why they are not converted.
    @Test func codePointsTable() {
        #expect(ColourDescription.cicp(primaries: 1, transfer: 13).description == nil)
        #expect(ColourDescription.cicp(primaries: 2, transfer: 2).description == nil)
        #expect(ColourDescription.cicp(primaries: 1, transfer: 1).unsupported == nil)
        #expect(
            ColourDescription.cicp(primaries: 9, transfer: 4).description
                == .primaries(
                    name: "BT.2020 gamma 2.2", xy: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290],
                    transfer: .gamma(2.2)))
        #expect(
            ColourDescription.cicp(primaries: 9, transfer: 16).description
                == .hdr(name: "BT.2020 PQ", primaries: 9, transfer: 16))
        #expect(
            ColourDescription.cicp(primaries: 12, transfer: 18).description
                == .hdr(name: "Display P3 HLG", primaries: 12, transfer: 18))
        #expect(
            ColourDescription.cicp(primaries: 3, transfer: 13).unsupported == "colour primaries 3 (ITU-T H.273) are not converted"
        )
    }

    /// A JPEG whose ICC_PROFILE chunks do not make a whole sequence is
    /// untagged, with a note: two chunks of three.
    @Test func aBrokenChunkSequenceIsNoProfile() throws {
        var bytes = try Self.fixture("adobe-split.jpg")
        // The second APP2 (after SOI and the first) removed.
        let firstLength = Int(bytes[4]) << 8 | Int(bytes[5])
        let second = 2 + 2 + firstLength
        let secondLength = Int(bytes[second + 2]) << 8 | Int(bytes[second + 3])
        bytes.removeSubrange(second..<(second + 2 + secondLength))
        let found = ColourSources.read(bytes, format: .jpeg)
        #expect(found.description == nil)
        #expect(found.problem == "the JPEG's ICC_PROFILE chunks are not a whole sequence")
        let decoded = try decodeImage(bytes)
        #expect(decoded.colour == nil && decoded.colourProblem == found.problem)
    }

    /// Converted: each tagged file decodes within a level or two of the
    /// sRGB original on average, where its raw numbers are far off; the
    /// description names the space.
    @Test(arguments: [
        ("adobe.png", "Compatible with Adobe RGB (1998)"), ("adobe.jpg", "Compatible with Adobe RGB (1998)"),
        ("adobe.webp", "Compatible with Adobe RGB (1998)"), ("p3.avif", "Display P3"), ("p3.heic", "Display P3"),
        ("gamma18.png", "gamma 1.80"), ("adobe-lossless.jxl", "Compatible with Adobe RGB (1998)"),
    ])
    func taggedFilesAreConvertedToSRGB(name: String, space: String) throws {
        let original = try decodeImage(try Self.fixture("srgb.png")).image
        let decoded = try decodeImage(try Self.fixture(name))
        #expect(decoded.colour == ColourConversion(source: space))
        #expect(decoded.colour?.description == "\(space) → sRGB")
        var raw = try decodeImage(try Self.fixture(name))
        // The codec's own pixels; a JPEG's without its profile (its decoder converts beside itself).
        var bytes = try Self.fixture(name)
        if name.hasSuffix(".jpg") {
            let parts = Self.segments(bytes)
            bytes = Array(bytes[..<2]) + parts.segments.filter { $0[1] != 0xE2 }.joined() + parts.scans
        }
        raw.frames = try format(name).codec.decode(bytes, DecodeOptions()).frames
        let converted = meanDifference(decoded.image, original)
        let unconverted = meanDifference(raw.image, original)
        // Lossy formats keep their own loss (at 96x72: up to 3 levels).
        #expect(converted < 3.5, "\(name): \(converted) levels off after conversion")
        #expect(unconverted > converted + 2, "\(name): \(unconverted) levels off unconverted")
    }

    /// A lossy JPEG XL (XYB) is decoded to sRGB by libjxl itself, asked to
    /// (left to itself it gave linear sRGB: dark, with the blue of an Adobe
    /// RGB file near zero); the space is named from the file's own profile.
    @Test func anXYBJPEGXLIsDecodedToSRGB() throws {
        let original = try decodeImage(try Self.fixture("srgb.png")).image
        let decoded = try decodeImage(try Self.fixture("adobe.jxl"))
        #expect(decoded.colour == ColourConversion(source: "Compatible with Adobe RGB (1998)"))
        let off = meanDifference(decoded.image, original)
        // (Lossy at 96x72: about 4 levels; decoded as linear sRGB it was far darker.)
        #expect(off < 5, "\(off) levels off")
    }

    /// HDR: a 10-bit BT.2020 PQ AVIF or HEIC, or HLG AVIF, of the photo with
    /// SDR white at 203 cd/m² is tone-mapped from its full depth to within a
    /// few levels of the sRGB original, and says so; an 8-bit PQ AVIF the same
    /// way from its 8 bits (by the colour step, not the shim); a PQ JPEG XL
    /// from libjxl's 16 bits in its own encoding (through its ICC profile
    /// from 8 bits it was 3.9 dE00 off, dim).
    @Test(arguments: [("pq.avif", "PQ"), ("pq.heic", "PQ"), ("hlg.avif", "HLG"), ("pq8.avif", "PQ"), ("pq.jxl", "PQ")])
    func anHDRFileIsToneMappedToSDR(name: String, curve: String) throws {
        let original = try decodeImage(try Self.fixture("srgb.png")).image
        let decoded = try decodeImage(try Self.fixture(name))
        #expect(decoded.colour?.description == "BT.2020 \(curve) → sRGB (tone-mapped)")
        #expect(decoded.colourProblem == nil)
        // (x265's 10-bit 4:2:0 at 96x72 loses more than the AV1 encoder: about 5 levels.)
        let off = meanDifference(decoded.image, original)
        #expect(off < 6, "\(off) levels off")
    }

    /// The tone curve at known points: the identity to the knee (0.8 of SDR
    /// white), continuous in slope there, 1.0 at the peak and past it,
    /// rising in between; a peak at SDR white or below is a clip.
    @Test func theToneCurve() {
        let peak = 1000 / 203.0
        #expect(ColourStep.toneMap(0, peak: peak) == 0)
        #expect(ColourStep.toneMap(0.5, peak: peak) == 0.5)
        #expect(ColourStep.toneMap(0.8, peak: peak) == 0.8)
        #expect(abs((ColourStep.toneMap(0.8 + 1e-6, peak: peak) - 0.8) / 1e-6 - 1) < 1e-3)
        #expect(abs(ColourStep.toneMap(peak, peak: peak) - 1) < 1e-12)
        #expect(ColourStep.toneMap(2 * peak, peak: peak) == 1)
        let samples = stride(from: 0.8, through: peak, by: 0.05).map { ColourStep.toneMap($0, peak: peak) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(ColourStep.toneMap(1, peak: peak) - 0.9002) < 1e-3)  // SDR white, under a 1000 cd/m² peak
        #expect(ColourStep.toneMap(1.5, peak: 1) == 1 && ColourStep.toneMap(0.9, peak: 1) == 0.9)
    }

    func format(_ name: String) throws -> ImageFormat {
        try #require(ImageFormat(sniffing: try Self.fixture(name)))
    }

    /// Mean absolute difference per RGB channel, in levels.
    func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        #expect(a.size == b.size)
        var total = 0
        var count = 0
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            for c in 0..<3 { total += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
            count += 3
        }
        return Double(total) / Double(max(1, count))
    }

    /// sRGB stays exactly as decoded: the same pixels with an sRGB ICC
    /// profile, an sRGB chunk and nothing decode to the same bytes, and no
    /// conversion is named.
    @Test func sRGBIsLeftExactlyAsDecoded() throws {
        guard case .icc = ColourSources.read(try Self.fixture("srgb-icc.png"), format: .png).description else {
            Issue.record("srgb-icc.png carries no profile: the test checks nothing")
            return
        }
        let untagged = try decodeImage(try Self.fixture("srgb-original.png"))
        for name in ["srgb-icc.png", "srgb.png"] {
            let decoded = try decodeImage(try Self.fixture(name))
            #expect(decoded.colour == nil && decoded.colourProblem == nil, "\(name)")
            #expect(decoded.image == untagged.image, "\(name)")
        }
    }

    /// One transform per description, however many images use it.
    @Test func transformsAreBuiltOncePerDescription() throws {
        let transforms = ColourTransforms()
        let options = DecodeOptions(colourTransforms: transforms)
        for name in ["adobe.jpg", "adobe.png", "adobe.webp", "adobe-split.jpg", "p3.avif", "p3.heic"] {
            _ = try decodeImage(try Self.fixture(name), options: options)
        }
        #expect(transforms.built == 2)
    }

    /// Another maker's sRGB profile (icc-profiles-free's sRGB.icc, its curve
    /// a table) counts as sRGB: with 1/4095 steps back to sRGB's curve its
    /// darkest colours moved by 2 levels and a plain photo said "sRGB → sRGB".
    @Test func anotherMakersSRGBProfileCountsAsSRGB() throws {
        let profile = [UInt8](
            try Data(contentsOf: Fixtures.root.appendingPathComponent("colour/srgb-icc-profiles-free.icc")))
        let entry = ColourTransforms().entry(for: .icc(profile))
        #expect(entry.transform != nil && entry.isIdentity)
    }

    /// An RGB profile on a grey JPEG (one component) describes samples the
    /// file does not have: not used, with a note; the grey stays grey.
    @Test func anRGBProfileOnAGreyJPEGIsNotUsed() throws {
        let adobe = try Self.fixture("adobe.jpg")
        let grey = try Fixtures.image("p07_camera_gray_512x512.jpg")
        // adobe.jpg's APP2 segment (after its SOI and JFIF APP0) put after the grey one's SOI.
        var i = 2
        var segment: [UInt8] = []
        while i + 4 <= adobe.count, segment.isEmpty {
            let length = Int(adobe[i + 2]) << 8 | Int(adobe[i + 3])
            if adobe[i + 1] == 0xE2 { segment = Array(adobe[i..<(i + 2 + length)]) }
            i += 2 + length
        }
        let tagged = Array(grey[..<2]) + segment + Array(grey[2...])
        let found = ColourSources.read(tagged, format: .jpeg)
        #expect(found.description == nil)
        #expect(found.problem == "a 1-component JPEG: its RGB ICC profile is not used")
        #expect(try decodeImage(tagged).image == decodeImage(grey).image)
    }

    /// A floating-point (D2B0, multiProcessElement) profile is not used:
    /// lcms2 evaluates it pixel by pixel (a crafted one held a 300-frame
    /// WebP past 20 s); the image is shown untagged, with a note.
    @Test func aFloatingPointProfileIsNotUsed() throws {
        let profile = try Fixtures.bad("mpet-d2b0.icc")
        let entry = ColourTransforms().entry(for: .icc(profile))
        #expect(entry.transform == nil)
        #expect(entry.problem == "a floating-point (D2B) profile is not used")
    }

    /// A profile lcms2 cannot use (here: its bytes cut) leaves the image
    /// untagged, with a note, never an error.
    @Test func anUnusableProfileIsANote() throws {
        let png = try Self.fixture("adobe.png")
        guard case .icc(let profile) = ColourSources.read(png, format: .png).description else {
            Issue.record("no profile")
            return
        }
        let entry = ColourTransforms().entry(for: .icc(Array(profile.prefix(200))))
        #expect(entry.transform == nil)
        #expect(entry.problem == "lcms2 cannot read the profile")
    }

    /// `jpeg`'s segments before its first scan, each whole (marker, length
    /// and body), and the rest of the file from the first SOS.
    static func segments(_ jpeg: [UInt8]) -> (segments: [[UInt8]], scans: [UInt8]) {
        var found: [[UInt8]] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            found.append(Array(jpeg[i..<(i + 2 + length)]))
            i += 2 + length
        }
        return (found, Array(jpeg[i...]))
    }

    /// `jpeg` with adobe.jpg's ICC_PROFILE segment put after its SOI.
    static func taggedAdobe(_ jpeg: [UInt8]) throws -> [UInt8] {
        let profile = segments(try fixture("adobe.jpg")).segments.filter { $0[1] == 0xE2 }
        return Array(jpeg[..<2]) + profile.joined() + Array(jpeg[2...])
    }

    /// A tagged RGB JPEG is converted beside its decoder (libjpeg's API, in
    /// bands, on two threads): the same pixels as the untagged file decoded
    /// by TurboJPEG and put through the colour step afterwards — small and
    /// baseline, and a 1600x1203 progressive photo at full size and DCT-scaled.
    @Test(arguments: [("adobe.jpg", nil), ("p04", nil), ("p04", PixelSize(width: 800, height: 600))] as [(String, PixelSize?)])
    func aTaggedJPEGIsConvertedBesideItsDecoder(name: String, box: PixelSize?) throws {
        let tagged =
            name == "p04"
            ? try Self.taggedAdobe(try Fixtures.image("p04_freshflower_1600x1203_progressive.jpg"))
            : try Self.fixture(name)
        let parts = Self.segments(tagged)
        let untagged = Array(tagged[..<2]) + parts.segments.filter { $0[1] != 0xE2 }.joined() + parts.scans
        let options = DecodeOptions(targetSize: box)
        let beside = try decodeImage(tagged, options: options)
        var after = try decodeImage(untagged, options: options)
        #expect(after.colour == nil)
        ColourStep.apply(&after, bytes: tagged, transforms: nil)
        #expect(beside.colour?.description == "Compatible with Adobe RGB (1998) → sRGB")
        #expect(beside.colour == after.colour)
        #expect(beside.image.size == after.image.size)
        #expect(beside.image == after.image)
        #expect(beside.warnings == after.warnings)
    }

    /// A progressive JPEG of more than 500 scans (a real one's last scan
    /// repeated: libjpeg only warns) is refused by both decoders, as
    /// TurboJPEG's TJFLAG_LIMITSCANS does: such files decode for minutes.
    @Test func aJPEGOfThousandsOfScansIsRefused() throws {
        let photo = try Fixtures.image("p04_freshflower_1600x1203_progressive.jpg")
        // The last scan: from the last SOS to EOI.
        var last = photo.count - 2
        while last > 0, !(photo[last] == 0xFF && photo[last + 1] == 0xDA) { last -= 1 }
        let scan = Array(photo[last..<(photo.count - 2)])
        let many = Array(photo[..<(photo.count - 2)]) + Array(repeating: scan, count: 600).joined() + [0xFF, 0xD9]
        for bytes in [many, try Self.taggedAdobe(many)] {
            do {
                _ = try decodeImage(bytes)
                Issue.record("decoded a JPEG of 600 more scans")
            } catch {
                #expect("\(error)".contains("more than 500 scans"), "\(error)")
            }
        }
    }

    /// A CMYK JPEG (Adobe's inverted samples) with a CMYK profile is
    /// converted through the profile: within a level of lcms2's own
    /// conversion of the same file (Pillow's, cmyk-reference.png), where
    /// the formula used without a profile is far off; the profile is named.
    @Test func aCMYKJPEGIsConvertedThroughItsProfile() throws {
        let bytes = try Self.fixture("cmyk.jpg")
        guard case .icc(let profile) = ColourSources.read(bytes, format: .jpeg).description else {
            Issue.record("no profile found in cmyk.jpg")
            return
        }
        #expect(profile.count == 39872 && String(decoding: profile[16..<20], as: UTF8.self) == "CMYK")
        let reference = try decodeImage(try Self.fixture("cmyk-reference.png")).image
        let decoded = try decodeImage(bytes)
        #expect(decoded.colour?.description == "pxview test CMYK (impure inks) → sRGB")
        let parts = Self.segments(bytes)
        let untagged = Array(bytes[..<2]) + parts.segments.filter { $0[1] != 0xE2 }.joined() + parts.scans
        let formula = try decodeImage(untagged)
        #expect(formula.colour == nil)
        let converted = meanDifference(decoded.image, reference)
        let unconverted = meanDifference(formula.image, reference)
        #expect(converted < 1, "\(converted) levels off lcms2's conversion")
        #expect(unconverted > 8, "\(unconverted) levels off without the profile")
        #expect(decoded.image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    /// A CMYK profile on an RGB JPEG, or an RGB one on a CMYK JPEG, is not
    /// used (ICC.1 B.4: the profile describes the samples as stored).
    @Test func aProfileOfAnotherColourSpaceIsNotUsed() throws {
        let cmykProfile = Self.segments(try Self.fixture("cmyk.jpg")).segments.filter { $0[1] == 0xE2 }.joined()
        let rgb = try Fixtures.image("p04_freshflower_1600x1203_progressive.jpg")
        let found = ColourSources.read(Array(rgb[..<2]) + cmykProfile + Array(rgb[2...]), format: .jpeg)
        #expect(found.description == nil)
        #expect(found.problem == "a 3-component JPEG: its CMYK ICC profile is not used")
        let cmyk = Self.segments(try Self.fixture("cmyk.jpg"))
        let adobe = try Self.taggedAdobe(Array([0xFF, 0xD8]) + cmyk.segments.filter { $0[1] != 0xE2 }.joined() + cmyk.scans)
        let other = ColourSources.read(adobe, format: .jpeg)
        #expect(other.description == nil)
        #expect(other.problem == "a 4-component JPEG: its RGB ICC profile is not used")
    }

    /// `png` with `chunks` (type, data) put after its IHDR, each with its CRC.
    static func png(_ png: [UInt8], with chunks: [(String, [UInt8])]) -> [UInt8] {
        let ihdrEnd = 8 + 8 + 13 + 4
        let added = chunks.flatMap { type, data -> [UInt8] in
            let body = Array(type.utf8) + data
            let crc = TestHTTPServer.Gzip.crc32(body)
            return [UInt8](withUnsafeBytes(of: UInt32(data.count).bigEndian) { Array($0) }) + body
                + [UInt8](withUnsafeBytes(of: crc.bigEndian) { Array($0) })
        }
        return Array(png[..<ihdrEnd]) + added + Array(png[ihdrEnd...])
    }

    /// PNG's precedence (third edition, 4.3): cICP, then iCCP, then sRGB,
    /// then cHRM and gAMA, whatever the chunks' order; a profile that
    /// cannot be used lets the next speak, with its note.
    @Test func pngChunksSpeakInTheSpecsOrder() throws {
        let plain = try Self.fixture("srgb-original.png")
        let adobe = try Self.fixture("adobe.png")
        var profile: [UInt8] = []
        walkPNGChunks(adobe) { chunk in
            if chunk.type == "iCCP" { profile = Array(adobe[chunk.data]) }
            return profile.isEmpty
        }
        let adobeProfile = ColourSources.read(adobe, format: .png).description
        let gamma: (String, [UInt8]) = ("gAMA", [0, 0, 0xD9, 0x03])  // 55555: 1/1.8
        let p3: (String, [UInt8]) = ("cICP", [12, 13, 0, 1])
        let pq: (String, [UInt8]) = ("cICP", [9, 16, 0, 1])
        let cases: [(String, [(String, [UInt8])], ColourDescription?, String?)] = [
            ("sRGB before iCCP", [("sRGB", [0]), ("iCCP", profile)], adobeProfile, nil),
            ("iCCP before sRGB", [("iCCP", profile), ("sRGB", [0])], adobeProfile, nil),
            (
                "cICP after iCCP", [("iCCP", profile), p3], .primaries(name: "Display P3", xy: Self.displayP3, transfer: .sRGB),
                nil
            ),
            ("cICP PQ", [pq], .hdr(name: "BT.2020 PQ", primaries: 9, transfer: 16), nil),
            ("sRGB cICP", [("cICP", [1, 13, 0, 1]), ("iCCP", profile)], nil, nil),
            ("sRGB over gAMA", [gamma, ("sRGB", [0])], nil, nil),
            (
                "unknown cICP, iCCP", [("cICP", [22, 13, 0, 1]), ("iCCP", profile)], adobeProfile,
                "the PNG's cICP chunk: colour primaries 22 (ITU-T H.273) are not converted"
            ),
            (
                "narrow cICP", [("cICP", [12, 13, 0, 0]), ("sRGB", [0])], nil,
                "the PNG's cICP chunk says narrow range, which pxview does not expand: not used"
            ),
            (
                "cICP with a matrix", [("cICP", [12, 13, 1, 1])], nil,
                "the PNG's cICP chunk names matrix 1 (PNG allows 0): not used"
            ),
            (
                "damaged iCCP, gAMA", [("iCCP", [0x41, 0, 0, 1, 2, 3]), gamma],
                .primaries(name: "gamma 1.80", xy: ColourDescription.bt709, transfer: .gamma(100_000 / 55555)),
                "the PNG's iCCP profile does not inflate (or is over 4 MB)"
            ),
        ]
        for (name, chunks, description, problem) in cases {
            let found = ColourSources.read(Self.png(plain, with: chunks), format: .png)
            #expect(found.description == description, "\(name): \(found)")
            #expect(found.problem == problem, "\(name): \(found)")
        }
    }

    /// A fatal libjpeg error while the converting thread runs (an unknown
    /// marker just before EOI, found by the hostile-file pass: it crashed
    /// about one run in four) is one error, every time; and a fatal error
    /// after a warning is an error on TurboJPEG's path too (a progressive
    /// file with a bad marker in its first scan drew heap bytes).
    @Test func aFatalErrorMidDecodeIsAnErrorEveryTime() throws {
        let photo = try Fixtures.image("p04_freshflower_1600x1203_progressive.jpg")
        let badEnd = Array(photo.dropLast(2)) + [0xFF, 0x25, 0xFF, 0xD9]
        // Into the first scan's data: 64 bytes past its SOS header.
        var sos = 2
        while sos + 1 < photo.count, !(photo[sos] == 0xFF && photo[sos + 1] == 0xDA) { sos += 1 }
        let scanData = sos + 2 + (Int(photo[sos + 2]) << 8 | Int(photo[sos + 3])) + 64
        let badScan = Array(photo[..<scanData]) + [0xFF, 0x25] + Array(photo[scanData...])
        for (name, bytes) in [("tagged, bad end", try Self.taggedAdobe(badEnd)), ("bad first scan", badScan)] {
            for _ in 0..<12 {
                do {
                    _ = try decodeImage(bytes, options: DecodeOptions(targetSize: PixelSize(width: 800, height: 600)))
                    Issue.record("\(name): decoded")
                } catch {
                    #expect("\(error)" == "corrupt JPEG data (unsupported marker type 0x25)", "\(name)")
                }
            }
        }
    }
}
