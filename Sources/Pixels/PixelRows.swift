/// An image made on demand, a band of rows at a time, by whoever reads it.
///
/// The kitty encoder asks a resample for the rows it is about to encode,
/// so the resampled picture never exists whole: at 2560x1440 that picture
/// is 14.7 MB, 3 600 page faults (about 9 ms of CPU on this project's
/// build machine) and as much memory traffic, for bytes read once.
package struct PixelRows: Sendable {
    package let size: PixelSize
    /// True only when every pixel is known to be opaque (then an encoder
    /// can leave alpha out).
    package let opaque: Bool
    /// Writes rows `rows` (RGBA, packed, the first at `destination`).
    /// Called from several threads at once for different rows.
    package let fill: @Sendable (_ rows: Range<Int>, _ destination: UnsafeMutablePointer<UInt8>) -> Void

    package init(
        size: PixelSize, opaque: Bool,
        fill: @escaping @Sendable (_ rows: Range<Int>, _ destination: UnsafeMutablePointer<UInt8>) -> Void
    ) {
        self.size = size
        self.opaque = opaque
        self.fill = fill
    }

    /// The rows of an image that exists.
    package init(_ image: RGBAImage) {
        let rowBytes = image.width * 4
        self.init(size: image.size, opaque: !image.hasTransparency) { rows, destination in
            image.pixels.withUnsafeBufferPointer { pixels in
                guard let base = pixels.baseAddress, !rows.isEmpty else { return }
                destination.update(from: base + rows.lowerBound * rowBytes, count: rows.count * rowBytes)
            }
        }
    }

    /// All the rows at once.
    package func image() -> RGBAImage {
        let count = size.area * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, count > 0 { fill(0..<size.height, base) }
            initialized = count
        }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }
}
