/// A size in whole pixels (or cells). Width and height are never negative.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Pixel count, the figure decompression-bomb limits are checked against.
    public var area: Int { width * height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var description: String { "\(width)x\(height)" }
}

/// A point in whole pixels: an offset inside a cell or a box.
public struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public var description: String { "\(x),\(y)" }
}

/// An integer rectangle: a crop of an image or a place on screen.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle with fractional edges: the part of an image a view shows,
/// in source-image pixels. Resamplers take it as-is, so zoom and pan stay
/// smooth instead of snapping to whole pixels.
public struct SourceRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of an image of this size.
    public init(covering size: PixelSize) {
        self.init(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
