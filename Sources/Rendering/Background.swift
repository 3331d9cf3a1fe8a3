import Pixels

/// What transparent pixels are shown over (`--bg COLOR|checker|none`).
///
/// Only sixel terminals that honour P2=1 and kitty can show transparency
/// at all, and sixel only all-or-nothing (a pixel under 50 % alpha is left
/// unpainted, so soft edges turn jagged). Composited over the terminal's
/// real background (OSC 11) an image looks as it would with true alpha, on
/// light and dark themes alike.
package enum BackgroundChoice: Equatable, Sendable, CustomStringConvertible {
    /// The terminal's background colour when it told us (a checkerboard
    /// when the picture would vanish against it: the catalog's white Debian
    /// logo on a white terminal), else transparency as the protocol allows.
    case auto
    /// Keep transparency.
    case none
    /// A grey checkerboard, as image viewers show transparency.
    case checker
    case color(RGBA)

    /// The names `init(parsing:)` takes besides `#rrggbb`, for help, the
    /// error and completions alike (once `gray` worked and they left it out).
    package static let names = ["auto", "none", "checker", "black", "white", "gray"]

    /// One of `names` (and `grey`, `transparent`, `checkerboard`),
    /// `#rrggbb` or `rrggbb`.
    package init?(parsing text: String) {
        let lower = text.lowercased()
        switch lower {
        case "auto": self = .auto
        case "none", "transparent": self = .none
        case "checker", "checkerboard": self = .checker
        case "black": self = .color(RGBA(r: 0, g: 0, b: 0))
        case "white": self = .color(RGBA(r: 255, g: 255, b: 255))
        case "gray", "grey": self = .color(RGBA(r: 128, g: 128, b: 128))
        default:
            let hex = lower.hasPrefix("#") ? String(lower.dropFirst()) : lower
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
            self = .color(RGBA(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF)))
        }
    }

    package var description: String {
        switch self {
        case .auto: return "auto"
        case .none: return "none"
        case .checker: return "checker"
        case .color(let c):
            let hex = [c.r, c.g, c.b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            return "#" + hex
        }
    }

    /// What to put behind `image` on a terminal whose background is
    /// `terminal`; nil keeps the image as it is (opaque images always are).
    package func fill(for image: RGBAImage, terminal: RGBA?) -> BackgroundFill? {
        guard image.hasTransparency else { return nil }
        switch self {
        case .none: return nil
        case .checker: return .checker
        case .color(let color): return .color(color)
        case .auto:
            guard let terminal else { return nil }
            return Self.vanishes(image, against: terminal) ? .checker : .color(terminal)
        }
    }

    /// True when nearly all that is visible of `image` is the colour of
    /// `background`: at least 90 % of the visible weight (alpha) within
    /// 48 of it (Euclidean RGB distance; a white logo on white is 0, a
    /// light-grey one on white about 60). Sampled: at most ~1 M pixels.
    static func vanishes(_ image: RGBAImage, against background: RGBA) -> Bool {
        let count = image.width * image.height
        let step = max(1, count / 1_000_000)
        var visible = 0.0
        var alike = 0.0
        image.pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < count {
                let o = i * 4
                let alpha = Double(p[o + 3])
                if alpha > 0 {
                    let dr = Double(p[o]) - Double(background.r)
                    let dg = Double(p[o + 1]) - Double(background.g)
                    let db = Double(p[o + 2]) - Double(background.b)
                    visible += alpha
                    if dr * dr + dg * dg + db * db < 48 * 48 { alike += alpha }
                }
                i += step
            }
        }
        return visible > 0 && alike >= 0.9 * visible
    }
}

/// A resolved background to composite over.
package enum BackgroundFill: Equatable, Sendable {
    case color(RGBA)
    case checker

    /// The checkerboard's two greys (as feh and nsxiv use light and dark grey).
    static let checkerLight: UInt8 = 0x99
    static let checkerDark: UInt8 = 0x66

    /// `image` over this background: every pixel opaque. Checker squares
    /// are a 1/32 of the image's longer side, so they look the same at
    /// every decode scale.
    package func composite(_ image: RGBAImage) -> RGBAImage {
        let square = max(2, max(image.width, image.height) / 32)
        var pixels = image.pixels
        let width = image.width
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<image.height {
                for x in 0..<width {
                    let o = (y * width + x) * 4
                    let alpha = Int(p[o + 3])
                    if alpha == 255 { continue }
                    let back: (Int, Int, Int)
                    switch self {
                    case .color(let c): back = (Int(c.r), Int(c.g), Int(c.b))
                    case .checker:
                        let grey = Int((x / square + y / square) % 2 == 0 ? Self.checkerLight : Self.checkerDark)
                        back = (grey, grey, grey)
                    }
                    p[o] = UInt8((Int(p[o]) * alpha + back.0 * (255 - alpha) + 127) / 255)
                    p[o + 1] = UInt8((Int(p[o + 1]) * alpha + back.1 * (255 - alpha) + 127) / 255)
                    p[o + 2] = UInt8((Int(p[o + 2]) * alpha + back.2 * (255 - alpha) + 127) / 255)
                    p[o + 3] = 255
                }
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
