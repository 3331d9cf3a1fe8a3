import Pixels

/// Byte builders for the cursor and screen control sequences a frame is
/// made of. They append to a frame buffer; nothing is written here.
public enum TerminalCommand {
    /// Moves the cursor to a 1-based row and column (`CSI row ; col H`).
    public static func moveTo(row: Int, column: Int) -> [UInt8] {
        csi("\(max(1, row));\(max(1, column))H")
    }

    /// Erases the whole line the cursor is on (`CSI 2 K`).
    public static let clearLine: [UInt8] = csi("2K")
    /// Erases from the cursor to the end of its line (`CSI K`).
    public static let clearToEndOfLine: [UInt8] = csi("K")
    /// Erases the whole screen (`CSI 2 J`); for the first frame only, as
    /// later frames draw over the previous one.
    public static let clearScreen: [UInt8] = csi("2J")
    /// Back to default colours and attributes (`CSI 0 m`).
    public static let resetAttributes: [UInt8] = csi("0m")
    public static let bold: [UInt8] = csi("1m")
    public static let dim: [UInt8] = csi("2m")
    public static let underline: [UInt8] = csi("4m")
    public static let inverse: [UInt8] = csi("7m")
    public static let hideCursor: [UInt8] = csi("?25l")
    /// Focus reports, with `CSI ? 1004 h`: the window (or pane) gained focus.
    public static let focusIn: [UInt8] = csi("I")
    /// Focus reports: the window (or pane) lost focus.
    public static let focusOut: [UInt8] = csi("O")
    public static let showCursor: [UInt8] = csi("?25h")

    /// 24-bit foreground colour (`CSI 38 ; 2 ; r ; g ; b m`); alpha is ignored.
    public static func foreground(_ colour: RGBA) -> [UInt8] {
        csi("38;2;\(colour.r);\(colour.g);\(colour.b)m")
    }

    /// 24-bit background colour (`CSI 48 ; 2 ; r ; g ; b m`); alpha is ignored.
    public static func background(_ colour: RGBA) -> [UInt8] {
        csi("48;2;\(colour.r);\(colour.g);\(colour.b)m")
    }

    /// One of the 256 indexed foreground colours (`CSI 38 ; 5 ; n m`).
    public static func foreground(palette index: UInt8) -> [UInt8] {
        csi("38;5;\(index)m")
    }

    /// One of the 256 indexed background colours (`CSI 48 ; 5 ; n m`).
    public static func background(palette index: UInt8) -> [UInt8] {
        csi("48;5;\(index)m")
    }

    /// `ESC [` followed by `body`.
    static func csi(_ body: String) -> [UInt8] {
        [0x1B, 0x5B] + Array(body.utf8)
    }
}
