import Pixels
import Testing

@testable import Decoding

/// Every fixture decodes to PIL's result: exactly for PNG, within rounding for JPEG.
@Suite struct FixtureDecodeTests {
    static let jpegs = [
        "p01_china_640x427.jpg",  // baseline 4:4:4
        "p03_storm_1920x1280.jpg",  // 4:2:2 camera JPEG
        "p04_freshflower_1600x1203_progressive.jpg",  // progressive 4:2:0, odd height
        "p07_camera_gray_512x512.jpg",  // one component
        "p12_china_exif6.jpg",  // EXIF orientation 6
        "v01_china_420_640x427.jpg",  // baseline 4:2:0
        "v02_china_arithmetic_640x427.jpg",  // arithmetic coding
        "v03_china_cmyk_adobe_320x213.jpg",  // Adobe (inverted) CMYK
    ]
    static let pngs = [
        "p02_coffee_600x400.png",  // 8-bit RGB
        "p06_chelsea_alpha_451x300.png",  // RGBA, feathered alpha
        "p08_china_16bit_480x320.png",  // 16-bit RGB
        "p09_coffee_palette256.png",  // palette
        "p10_debianlogo_256x256_palette_trns.png",  // palette + tRNS
        "p11_chelsea_interlaced_451x300.png",  // Adam7
        "v04_china_rgba16_interlaced_96x64.png",  // Adam7 16-bit RGBA
        "v05_china_rgba16_96x64.png",  // 16-bit RGBA
        "v06_camera_gray1_128x128.png",
        "v07_camera_gray2_128x128.png",
        "v08_camera_gray4_128x128.png",
        "v09_camera_gray8_128x128.png",
        "v10_camera_gray16_128x128.png",
        "v11_camera_grayalpha_128x128.png",
        "v12_china_exif6_png_64x96.png",  // eXIf orientation 6
    ]

    /// JPEG decoders may round differently, so JPEGs are compared within a
    /// tolerance; PNG decoding is exact, so PNGs must match PIL byte for byte.
    @Test(arguments: jpegs.map { ($0, ImageFormat.jpeg) } + pngs.map { ($0, ImageFormat.png) })
    func decodesLikePIL(name: String, format: ImageFormat) throws {
        let decoded = try decodeImage(try Fixtures.image(name))
        #expect(decoded.format == format)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.fullSize == decoded.image.size)
        if format == .jpeg { #expect(!decoded.image.hasTransparency) }
        try expectMatchesReference(decoded.image, name, exact: format == .png)
    }

    @Test func rgbaPNGKeepsItsAlpha() throws {
        let image = try decodeImage(try Fixtures.image("p06_chelsea_alpha_451x300.png")).image
        #expect(image[0, 0].a == 0)
        #expect(image[450, 299].a == 0)
        #expect(image[225, 150].a == 255)
        let alphas = Set(stride(from: 3, to: image.pixels.count, by: 4 * 97).map { image.pixels[$0] })
        #expect(alphas.count > 10, "feathered edge should give many alpha levels")
    }

    @Test func paletteTransparencyBecomesAlpha() throws {
        let image = try decodeImage(try Fixtures.image("p10_debianlogo_256x256_palette_trns.png")).image
        for (x, y) in [(0, 0), (255, 0), (0, 255), (255, 255)] {
            #expect(image[x, y].a == 0, "corner \(x),\(y)")
        }
        #expect(image.hasTransparency)
    }

    @Test func grayJPEGComesOutNeutral() throws {
        let image = try decodeImage(try Fixtures.image("p07_camera_gray_512x512.jpg")).image
        #expect(image.size == PixelSize(width: 512, height: 512))
        for y in stride(from: 0, to: 512, by: 37) {
            for x in stride(from: 0, to: 512, by: 41) {
                let p = image[x, y]
                #expect(p.r == p.g && p.g == p.b && p.a == 255)
            }
        }
    }

    @Test func arithmeticCodingDecodesToTheSamePixelsAsHuffman() throws {
        // v02 is a lossless jpegtran transcode of v01: identical coefficients.
        let huffman = try decodeImage(try Fixtures.image("v01_china_420_640x427.jpg")).image
        let arithmetic = try decodeImage(try Fixtures.image("v02_china_arithmetic_640x427.jpg")).image
        #expect(huffman == arithmetic)
    }

    @Test func adobeCMYKLooksLikeTheRGBOriginal() throws {
        // v03 is p01 shrunk to 320x213 and saved as CMYK; inverted-ink mistakes
        // would give a negative or a washed-out picture.
        let cmyk = try decodeImage(try Fixtures.image("v03_china_cmyk_adobe_320x213.jpg")).image
        let original = try decodeImage(try Fixtures.image("p01_china_640x427.jpg")).image
        let cmykMeans = channelMeans(cmyk)
        let originalMeans = channelMeans(original)
        for channel in 0..<3 {
            #expect(abs(cmykMeans[channel] - originalMeans[channel]) < 4, "channel \(channel)")
        }
    }

    @Test func exifRotatedJPEGComesOutUprightLikeTheOriginal() throws {
        // p12 is p01 stored rotated (427x640) with Orientation=6.
        let rotated = try decodeImage(try Fixtures.image("p12_china_exif6.jpg"))
        let original = try decodeImage(try Fixtures.image("p01_china_640x427.jpg"))
        #expect(rotated.image.size == PixelSize(width: 640, height: 427))
        #expect(rotated.fullSize == PixelSize(width: 640, height: 427))
        #expect(meanAbsoluteDifference(rotated.image, original.image) < 3)
    }

    @Test func pngNamedJPGDecodesAsPNG() throws {
        let decoded = try decodeImage(try Fixtures.bad("png_named.jpg"))
        #expect(decoded.format == .png)
        let genuine = try decodeImage(try Fixtures.image("p10_debianlogo_256x256_palette_trns.png"))
        #expect(decoded.image == genuine.image)
    }
}
