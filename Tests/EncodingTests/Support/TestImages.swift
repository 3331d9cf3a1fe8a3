import Encoding
import Pixels

/// Small synthetic images for exact-output tests.
enum TestImages {
    static let red = RGBA(r: 255, g: 0, b: 0)
    static let blue = RGBA(r: 0, g: 0, b: 255)
    static let green = RGBA(r: 0, g: 255, b: 0)
    static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)

    /// An image from rows of pixels.
    static func image(_ rows: [[RGBA]]) -> RGBAImage {
        let width = rows.first?.count ?? 0
        var image = RGBAImage(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, pixel) in row.enumerated() { image[x, y] = pixel }
        }
        return image
    }

    /// Deterministic noise (a 64-bit LCG), so tests never depend on a random seed.
    static func noise(width: Int, height: Int, seed: UInt64 = 12345, opaque: Bool = true) -> RGBAImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
            if opaque && i % 4 == 3 { pixels[i] = 255 }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
