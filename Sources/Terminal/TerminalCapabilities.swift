import Pixels

/// What the terminal can do and how big it is, as the encoders need it.
public struct TerminalCapabilities: Sendable, Equatable {
    /// The kitty graphics protocol answered our query with OK.
    public var kittyGraphics: Bool
    /// DA1 lists attribute 4 (sixel graphics).
    public var sixel: Bool
    /// Sixel colour registers, when XTSMGRAPHICS answered.
    public var colorRegisters: Int?
    /// Largest sixel image the terminal will show; larger ones are dropped.
    public var sixelMaxSize: PixelSize?
    /// Pixels per character cell; nil when nothing told us (callers then
    /// assume 10x20).
    public var cellSize: PixelSize?
    /// Text area in pixels.
    public var windowPixels: PixelSize?
    /// Text area in cells: width = columns, height = rows.
    public var windowCells: PixelSize
    /// DECRQM says mode 2026 exists, so frames can be wrapped in
    /// `CSI ? 2026 h` … `CSI ? 2026 l` to avoid tearing.
    public var synchronizedOutput: Bool

    public init(
        kittyGraphics: Bool, sixel: Bool, colorRegisters: Int?, sixelMaxSize: PixelSize?,
        cellSize: PixelSize?, windowPixels: PixelSize?, windowCells: PixelSize, synchronizedOutput: Bool
    ) {
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.colorRegisters = colorRegisters
        self.sixelMaxSize = sixelMaxSize
        self.cellSize = cellSize
        self.windowPixels = windowPixels
        self.windowCells = windowCells
        self.synchronizedOutput = synchronizedOutput
    }
}

/// Combines probe replies with the kernel's idea of the window size.
///
/// Pixel sizes prefer TIOCGWINSZ, which tracks resizes without a round trip;
/// the XTWINOPS replies fill in for terminals that leave ws_xpixel at zero.
/// Cell size is, in order: TIOCGWINSZ pixels / cells, the `CSI 16 t` reply,
/// the `CSI 14 t` reply / cells, else nil.
public func capabilities(from replies: ProbeReplies, winsize: WindowSize) -> TerminalCapabilities {
    let cells = winsize.cells
    func perCell(_ pixels: PixelSize) -> PixelSize? {
        guard !cells.isEmpty else { return nil }
        let size = PixelSize(width: pixels.width / cells.width, height: pixels.height / cells.height)
        return size.isEmpty ? nil : size
    }
    let cellSize = winsize.pixels.flatMap(perCell)
        ?? replies.cellPixels
        ?? replies.textAreaPixels.flatMap(perCell)
    let attributes = replies.deviceAttributes ?? []
    // DA1's first number is the conformance level (62, 63, 64...), not a feature.
    let sixel = attributes.dropFirst().contains(4)
    let syncStatus = replies.synchronizedOutputStatus
    return TerminalCapabilities(
        kittyGraphics: replies.kittyGraphicsMessage == "OK",
        sixel: sixel,
        colorRegisters: replies.colorRegisters,
        sixelMaxSize: replies.sixelMaxGeometry,
        cellSize: cellSize,
        windowPixels: winsize.pixels ?? replies.textAreaPixels,
        windowCells: cells,
        synchronizedOutput: syncStatus == 1 || syncStatus == 2)
}
