import ControlSequences
import Pixels

/// Draws an image with `▀` / `▄` cells in 24-bit colour: two pixels per
/// character cell, for terminals without sixel or kitty graphics.
///
/// The caller resizes the image to `columns` x `rows * 2` pixels first; the
/// encoder maps pixel (x, 2r) to the upper half and (x, 2r + 1) to the lower
/// half of cell (x, r). Pixels outside the image count as transparent.
///
/// Transparent (alpha < 128) halves show the terminal's default background:
/// - both halves opaque: `▀`, foreground = top, background = bottom;
/// - only the top opaque: `▀`, foreground = top, default background (`ESC[49m`);
/// - only the bottom opaque: `▄`, foreground = bottom, default background;
/// - neither: a space on the default background.
///
/// Colour codes (`ESC[38;2;r;g;bm`, `ESC[48;2;r;g;bm`, `ESC[39m`, `ESC[49m`)
/// are written only when the colour changes along a line. The output starts
/// with `ESC[0m` (the terminal's state before is unknown) and every line
/// ends with `ESC[0m`, so nothing leaks into the next line or the prompt.
public struct HalfBlockEncoder: Sendable {
    /// How lines are separated.
    public enum LineLayout: Sendable, Equatable {
        /// `\r\n` between lines (none after the last): for printing at the
        /// cursor, e.g. in a shell. Scrolls if the image reaches the bottom.
        case crlf
        /// Every line starts with a cursor position `ESC[row;columnH`, the
        /// first at (`row`, `column`), 1-based: for drawing in place in a
        /// full-screen UI, never scrolling and unaffected by the pending
        /// wrap state at the right margin.
        case positioned(row: Int, column: Int)
    }

    public var layout: LineLayout

    public init(layout: LineLayout = .crlf) {
        self.layout = layout
    }

    /// - Parameter rows: cell rows to draw; by default enough for every image row.
    public func encode(_ image: RGBAImage, columns: Int, rows: Int? = nil) -> [UInt8] {
        let columns = max(0, columns)
        let rows = max(0, rows ?? (image.height + 1) / 2)
        var out = ByteWriter(capacity: rows * columns * 40 + 16)
        out.append(TerminalCommand.resetAttributes)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<rows {
                switch layout {
                case .crlf:
                    if row > 0 {
                        out.ensureSpare(2)
                        out.appendASCII("\r\n")
                    }
                case .positioned(let top, let left):
                    out.append(TerminalCommand.moveTo(row: max(1, top) + row, column: max(1, left)))
                }
                // Per cell at most two colours (`CSI 38;2;255;255;255m`, 19
                // bytes each) and a 3-byte glyph.
                out.ensureSpare(columns * 41)
                var foreground = CellColor.terminalDefault
                var background = CellColor.terminalDefault
                for x in 0..<columns {
                    let top = Self.pixel(pixels, image: image, x: x, y: 2 * row)
                    let bottom = Self.pixel(pixels, image: image, x: x, y: 2 * row + 1)
                    let glyph: StaticString
                    let wantedForeground: CellColor?
                    let wantedBackground: CellColor
                    switch (top, bottom) {
                    case (.some(let upper), .some(let lower)):
                        glyph = "▀"
                        wantedForeground = .rgb(upper)
                        wantedBackground = .rgb(lower)
                    case (.some(let upper), nil):
                        glyph = "▀"
                        wantedForeground = .rgb(upper)
                        wantedBackground = .terminalDefault
                    case (nil, .some(let lower)):
                        glyph = "▄"
                        wantedForeground = .rgb(lower)
                        wantedBackground = .terminalDefault
                    case (nil, nil):
                        glyph = " "
                        wantedForeground = nil  // a space shows no foreground
                        wantedBackground = .terminalDefault
                    }
                    if let wantedForeground, wantedForeground != foreground {
                        wantedForeground.appendSGR(foreground: true, to: &out)
                        foreground = wantedForeground
                    }
                    if wantedBackground != background {
                        wantedBackground.appendSGR(foreground: false, to: &out)
                        background = wantedBackground
                    }
                    out.appendASCII(glyph)
                }
                out.append(TerminalCommand.resetAttributes)
            }
        }
        return out.finish()
    }

    /// The opaque colour at (x, y), or nil when transparent or outside the image.
    @inline(__always)
    private static func pixel(_ pixels: UnsafeBufferPointer<UInt8>, image: RGBAImage, x: Int, y: Int) -> RGB? {
        guard x < image.width, y < image.height else { return nil }
        let i = (y * image.width + x) * 4
        guard pixels[i + 3] >= 128 else { return nil }
        return RGB(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }

    private enum CellColor: Equatable {
        case terminalDefault
        case rgb(RGB)

        /// The numbers go within the row's spare room.
        func appendSGR(foreground: Bool, to out: inout ByteWriter) {
            switch self {
            case .terminalDefault:
                out.append(foreground ? TerminalCommand.defaultForeground : TerminalCommand.defaultBackground)
            case .rgb(let color):
                out.append(foreground ? TerminalCommand.foregroundRGBPrefix : TerminalCommand.backgroundRGBPrefix)
                out.appendDecimal(Int(color.r))
                out.append(UInt8(ascii: ";"))
                out.appendDecimal(Int(color.g))
                out.append(UInt8(ascii: ";"))
                out.appendDecimal(Int(color.b))
                out.append(UInt8(ascii: "m"))
            }
        }
    }
}
