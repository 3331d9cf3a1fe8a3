import Pixels

/// What the terminal can do and how big it is, as the encoders need it.
package struct TerminalCapabilities: Sendable, Equatable {
    /// The kitty graphics protocol answered our query with OK.
    package var kittyGraphics: Bool
    /// DA1 lists attribute 4 (sixel graphics).
    package var sixel: Bool
    /// Sixel colour registers, when XTSMGRAPHICS answered.
    package var colorRegisters: Int?
    /// Largest sixel image the terminal will show; larger ones are dropped.
    package var sixelMaxSize: PixelSize?
    /// Pixels per character cell; nil when nothing told us (callers then
    /// assume 10x20).
    package var cellSize: PixelSize?
    /// Text area in pixels.
    package var windowPixels: PixelSize?
    /// Text area in cells: width = columns, height = rows.
    package var windowCells: CellCount
    /// DECRQM says mode 2026 exists, so frames can be wrapped in
    /// `CSI ? 2026 h` … `CSI ? 2026 l` to avoid tearing.
    package var synchronizedOutput: Bool
    /// XTVERSION's answer, e.g. "kitty(0.26.5)"; nil when it did not answer.
    package var terminalVersion: String?
    /// The terminal it names, when the table knows it (`TerminalTable`).
    package var terminal: TerminalIdentity? { terminalVersion.flatMap(TerminalIdentity.init(naming:)) }
    /// The default background colour (OSC 11), when the terminal said.
    package var backgroundColor: RGBA?
    /// The terminal answered `CSI 16 t` (so it can be asked again after a resize).
    package var reportsCellSize: Bool
    /// Replies that were out of bounds and ignored, for `PXVIEW_DEBUG`.
    package var ignoredReplies: [String]
    /// How kitty can be sent pixels: shared memory or a file when it said
    /// it could read ours (it runs on this machine), else through the pty.
    package var kittyMedium: KittyMedium = .direct

    package init(
        kittyGraphics: Bool, sixel: Bool, colorRegisters: Int?, sixelMaxSize: PixelSize?,
        cellSize: PixelSize?, windowPixels: PixelSize?, windowCells: CellCount, synchronizedOutput: Bool,
        terminalVersion: String? = nil, backgroundColor: RGBA? = nil, reportsCellSize: Bool = false,
        ignoredReplies: [String] = []
    ) {
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.colorRegisters = colorRegisters
        self.sixelMaxSize = sixelMaxSize
        self.cellSize = cellSize
        self.windowPixels = windowPixels
        self.windowCells = windowCells
        self.synchronizedOutput = synchronizedOutput
        self.terminalVersion = terminalVersion
        self.backgroundColor = backgroundColor
        self.reportsCellSize = reportsCellSize
        self.ignoredReplies = ignoredReplies
    }
}

/// The sizes a terminal may report before pxview stops believing it. A
/// reply beyond them is ignored (and named under `PXVIEW_DEBUG`): a cell
/// size of 999999999 px once made the viewer render a 16384x16384 canvas,
/// 30 s of CPU and 300 MB per frame. The bounds match the flags'
/// (`--cell-size` at most 256x256, `--size` at most 16384x16384).
package enum TerminalLimits {
    /// No font makes a cell larger.
    package static let maxCellSide = 256
    /// Window text areas and sixel geometries: larger than any screen.
    package static let maxPixelSide = 16384
    /// The window in cells, as TIOCGWINSZ gives it: the bound `--cells` has.
    /// A broken or hostile terminal once reported 65535x65535 cells, and
    /// the grid grew by 20 MB/s laying out tiles for it; no screen is near
    /// 2048 columns (an 8K display at a 4-pixel font).
    package static let maxWindowCells = 2048
    /// Sixel colour registers: XTSMGRAPHICS answers up to 1024 (mlterm);
    /// 65536 leaves room for any real terminal.
    package static let maxColorRegisters = 65536

    /// A cell size the terminal may report.
    package static func cell(_ size: PixelSize) -> Bool {
        (1...maxCellSide).contains(size.width) && (1...maxCellSide).contains(size.height)
    }

    static func pixels(_ size: PixelSize) -> Bool {
        (1...maxPixelSide).contains(size.width) && (1...maxPixelSide).contains(size.height)
    }
}

/// Combines probe replies with the kernel's idea of the window size.
///
/// Pixel sizes prefer TIOCGWINSZ, which tracks resizes without a round trip;
/// the XTWINOPS replies fill in for terminals that leave ws_xpixel at zero.
/// Cell size is, in order: TIOCGWINSZ pixels / cells, the `CSI 16 t` reply,
/// the `CSI 14 t` reply / cells, the cell tmux knows for its client, else
/// nil. Every size outside `TerminalLimits` is dropped and listed in
/// `ignoredReplies`.
package func capabilities(from replies: ProbeReplies, winsize: WindowSize, tmuxCell: PixelSize? = nil)
    -> TerminalCapabilities
{
    var ignored: [String] = []
    func bounded(_ size: PixelSize?, _ name: String, _ check: (PixelSize) -> Bool) -> PixelSize? {
        guard let size else { return nil }
        if check(size) { return size }
        ignored.append("\(name) \(size.width)x\(size.height)")
        return nil
    }
    let cells = winsize.cells
    let kernelPixels = bounded(winsize.pixels, "window pixels (TIOCGWINSZ)", TerminalLimits.pixels)
    let textArea = bounded(replies.textAreaPixels, "text area (CSI 14 t)", TerminalLimits.pixels)
    let cellReply = bounded(replies.cellPixels, "cell size (CSI 16 t)", TerminalLimits.cell)
    let sixelLimit = bounded(replies.sixelMaxGeometry, "sixel geometry (XTSMGRAPHICS)", TerminalLimits.pixels)
    var registers = replies.colorRegisters
    if let count = registers, count > TerminalLimits.maxColorRegisters {
        ignored.append("colour registers \(count)")
        registers = nil
    }
    func perCell(_ pixels: PixelSize) -> PixelSize? {
        guard !cells.isEmpty else { return nil }
        let size = PixelSize(width: pixels.width / cells.width, height: pixels.height / cells.height)
        return TerminalLimits.cell(size) ? size : nil
    }
    let cellSize = kernelPixels.flatMap(perCell) ?? cellReply ?? textArea.flatMap(perCell) ?? tmuxCell
    let attributes = replies.deviceAttributes ?? []
    // DA1's first number is the conformance level (62, 63, 64...), not a feature.
    let sixel = attributes.dropFirst().contains(4)
    let syncStatus = replies.synchronizedOutputStatus
    var capabilities = TerminalCapabilities(
        kittyGraphics: replies.kittyGraphicsMessage == "OK",
        sixel: sixel,
        colorRegisters: registers,
        sixelMaxSize: sixelLimit,
        cellSize: cellSize,
        windowPixels: kernelPixels ?? textArea,
        windowCells: cells,
        synchronizedOutput: syncStatus == 1 || syncStatus == 2,
        terminalVersion: replies.terminalVersion,
        backgroundColor: replies.backgroundColor,
        reportsCellSize: cellReply != nil,
        ignoredReplies: ignored)
    // Shared memory first: nothing touches the disk.
    if replies.kittyMediumMessages[KittyTransfer.sharedMemoryQueryID] == "OK" {
        capabilities.kittyMedium = .sharedMemory
    } else if replies.kittyMediumMessages[KittyTransfer.fileQueryID] == "OK" {
        capabilities.kittyMedium = .file
    }
    return capabilities
}
