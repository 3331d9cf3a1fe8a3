import Pixels
import Terminal

/// Where and how an image is drawn: the protocol, the pixel box to fit into,
/// the pixel size of one cell, and the sixel colour budget.
public struct DisplayTarget: Equatable, Sendable {
    public var graphics: GraphicsProtocol
    public var tmuxPassthrough: Bool
    /// The box in screen pixels.
    public var box: PixelSize
    /// One character cell in screen pixels.
    public var cellSize: PixelSize
    /// Sixel palette size: `sixelPaletteColors` unless the terminal reports fewer registers.
    public var colorRegisters: Int

    /// Colours in a sixel palette. Sixel bytes grow with the colours each
    /// six-row band uses, so a full 256 costs more than it shows. Measured
    /// with pxbench on 30 photos into 800x600 (median bytes / PSNR):
    /// 256 colours 521 KB / 37.7 dB, 128: 393 KB / 36.1 dB, 112: 378 KB /
    /// 35.7 dB, 96: 354 KB / 35.3 dB; chafa 521 KB / 33.8 dB and img2sixel
    /// 405 KB / 32.8 dB. 112 stays under img2sixel's bytes with room to
    /// spare and about 2 dB above chafa's PSNR.
    public static let sixelPaletteColors = 112

    /// When nothing is known about the terminal: 80x24 cells of 10x20 pixels.
    public static let fallbackCellSize = PixelSize(width: 10, height: 20)
    public static let fallbackCells = PixelSize(width: 80, height: 24)
    /// The largest box side pxview draws into (cells x cell size can exceed it).
    public static let maxBoxSide = 16384

    public init(
        graphics: GraphicsProtocol, tmuxPassthrough: Bool = false, box: PixelSize,
        cellSize: PixelSize = DisplayTarget.fallbackCellSize, colorRegisters: Int = DisplayTarget.sixelPaletteColors
    ) {
        self.graphics = graphics
        self.tmuxPassthrough = tmuxPassthrough
        self.box = box
        self.cellSize = cellSize
        self.colorRegisters = max(2, min(256, colorRegisters))
    }

    /// The box in whole cells (at least 1x1).
    public var cells: PixelSize {
        PixelSize(width: max(1, box.width / max(1, cellSize.width)), height: max(1, box.height / max(1, cellSize.height)))
    }

    /// Works out the box the way `pxview show` documents it: `--size` pixels,
    /// else `--cells` times the cell size, else the terminal's window (less
    /// one row for the prompt), else 80x24 cells. Sixel boxes are capped by the
    /// terminal's maximum sixel geometry, since xterm drops larger images.
    public static func resolve(
        decision: ProtocolDecision, capabilities: TerminalCapabilities?, size: PixelSize?, cells: PixelSize?,
        cellSize: PixelSize?, reservePromptRow: Bool = true
    ) -> DisplayTarget {
        let cell = cellSize ?? capabilities?.cellSize ?? fallbackCellSize
        var box: PixelSize
        if let size {
            box = size
        } else if let cells {
            box = PixelSize(width: cells.width * cell.width, height: cells.height * cell.height)
        } else if let capabilities, !capabilities.windowCells.isEmpty {
            let pixels = capabilities.windowPixels.flatMap { $0.isEmpty ? nil : $0 }
                ?? PixelSize(
                    width: capabilities.windowCells.width * cell.width,
                    height: capabilities.windowCells.height * cell.height)
            // A cell's worth of pixels per cell, whatever border the terminal adds.
            let usableRows = max(1, capabilities.windowCells.height - (reservePromptRow ? 1 : 0))
            box = PixelSize(
                width: min(pixels.width, capabilities.windowCells.width * cell.width),
                height: min(pixels.height, usableRows * cell.height))
        } else {
            box = PixelSize(
                width: fallbackCells.width * cell.width,
                height: (fallbackCells.height - (reservePromptRow ? 1 : 0)) * cell.height)
        }
        // Nothing a terminal shows is larger; a bigger box would only cost memory.
        box = PixelSize(width: min(box.width, maxBoxSide), height: min(box.height, maxBoxSide))
        if decision.graphics == .sixel, let limit = capabilities?.sixelMaxSize, !limit.isEmpty {
            box = PixelSize(width: min(box.width, limit.width), height: min(box.height, limit.height))
        }
        return DisplayTarget(
            graphics: decision.graphics, tmuxPassthrough: decision.tmuxPassthrough, box: box, cellSize: cell,
            colorRegisters: min(capabilities?.colorRegisters ?? sixelPaletteColors, sixelPaletteColors))
    }
}
