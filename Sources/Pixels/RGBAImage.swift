/// The one pixel buffer every layer shares: 8-bit RGBA, straight (not
/// premultiplied) alpha, rows top to bottom, no padding (stride = width × 4).
///
/// A value type over a copy-on-write array, so layers can pass it freely;
/// hot loops reach the bytes through `withUnsafeBytes`/`withUnsafeMutableBytes`.
package struct RGBAImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width * height * 4` bytes, R G B A per pixel.
    package var pixels: [UInt8]

    package static let bytesPerPixel = 4

    /// An image over existing bytes. `pixels.count` must be `width * height * 4`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour (transparent black by default).
    package init(width: Int, height: Int, fill: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        if fill != RGBA(r: 0, g: 0, b: 0, a: 0) {
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = fill.r
                bytes[i + 1] = fill.g
                bytes[i + 2] = fill.b
                bytes[i + 3] = fill.a
            }
        }
        self.pixels = bytes
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }

    package subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// True when any pixel is not fully opaque. Encoders use it to skip alpha work.
    package var hasTransparency: Bool {
        pixels.withUnsafeBytes { Self.hasTransparency($0) }
    }

    /// Whether any of the RGBA pixels in `bytes` has alpha below 255 (a
    /// part of an image, such as a band of its rows).
    package static func hasTransparency(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // 64 pixels at a time ANDed as words, one test a block: byte by
        // byte it cost 7 instructions a pixel (callgrind), a sixel viewer
        // frame asking it of each 1200x800 canvas.
        let alphas = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
        let blocks = bytes.count / 256
        for block in 0..<blocks {
            var all = UInt64.max
            for word in 0..<32 {
                all &= bytes.loadUnaligned(fromByteOffset: block &* 256 &+ word &* 8, as: UInt64.self)
            }
            if all & alphas != alphas { return true }
        }
        var i = blocks * 256 + 3
        while i < bytes.count {
            if bytes[i] != 255 { return true }
            i += 4
        }
        return false
    }

    /// A copy of a rectangle of this image; the rectangle is clipped to the image.
    package func cropped(to rect: PixelRect) -> RGBAImage {
        let x0 = min(max(0, rect.x), width)
        let y0 = min(max(0, rect.y), height)
        let x1 = min(max(x0, rect.x + rect.width), width)
        let y1 = min(max(y0, rect.y + rect.height), height)
        let w = x1 - x0
        let h = y1 - y0
        // Row by row with one copy each: byte by byte (range-checked) it cost
        // 55 instructions a pixel, a sixel viewer's pan frame cropping its bands.
        let out = [UInt8](unsafeUninitializedCapacity: w * h * 4) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                guard let source = src.baseAddress, let target = dst.baseAddress else { return }
                for row in 0..<h {
                    (target + row * w * 4).initialize(from: source + ((y0 + row) * width + x0) * 4, count: w * 4)
                }
            }
            initialized = w * h * 4
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}

/// One straight-alpha 8-bit pixel.
package struct RGBA: Hashable, Sendable {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8
    package var a: UInt8

    package init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}
