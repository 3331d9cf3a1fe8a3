/// A palette-index image: what the mapper produces and the sixel encoder reads.
///
/// One byte per pixel (palettes have at most 256 colours), rows top to
/// bottom. Transparency is a separate mask rather than a reserved index
/// because a full 256-colour palette leaves no index free.
package struct IndexedImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width * height` palette indices; the index of a transparent pixel is
    /// meaningless (the mapper writes 0).
    package private(set) var indices: [UInt8]
    /// `width * height` flags, true where nothing is to be painted; nil when
    /// every pixel is painted (the common opaque-photo case skips the checks).
    package private(set) var transparent: [Bool]?

    /// Checks the buffer sizes, since encoders index them without bounds checks.
    package init(width: Int, height: Int, indices: [UInt8], transparent: [Bool]? = nil) throws(IndexedImageError) {
        guard width >= 0, height >= 0 else { throw .negativeSize(width: width, height: height) }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, indices.count == area else {
            throw .indexCountMismatch(expected: width &* height, actual: indices.count)
        }
        if let transparent, transparent.count != area {
            throw .maskCountMismatch(expected: area, actual: transparent.count)
        }
        self.width = width
        self.height = height
        self.indices = indices
        self.transparent = transparent
    }

    /// Rows `range` (clamped to the image) as an image of their own.
    package func rows(_ range: Range<Int>) -> IndexedImage {
        let first = max(0, min(height, range.lowerBound))
        let last = max(first, min(height, range.upperBound))
        let span = (first * width)..<(last * width)
        return IndexedImage(
            checkedWidth: width, height: last - first, indices: Array(indices[span]),
            transparent: transparent.map { Array($0[span]) })
    }

    /// For producers in this module that built the buffers at the right size.
    init(checkedWidth width: Int, height: Int, indices: [UInt8], transparent: [Bool]?) {
        self.width = width
        self.height = height
        self.indices = indices
        self.transparent = transparent
    }
}

/// Why an `IndexedImage` could not be made from the given buffers.
package enum IndexedImageError: Error, Equatable, CustomStringConvertible {
    case negativeSize(width: Int, height: Int)
    case indexCountMismatch(expected: Int, actual: Int)
    case maskCountMismatch(expected: Int, actual: Int)

    package var description: String {
        switch self {
        case .negativeSize(let width, let height):
            return "indexed image size \(width)x\(height) is negative"
        case .indexCountMismatch(let expected, let actual):
            return "indexed image needs \(expected) indices, got \(actual)"
        case .maskCountMismatch(let expected, let actual):
            return "indexed image needs \(expected) transparency flags, got \(actual)"
        }
    }
}
