import Pixels
import Terminal

/// The terminal's measurements, taken once from the probe and TIOCGWINSZ
/// and updated on every resize: the window in cells (and pixels, when
/// known), one cell in pixels, the largest sixel picture, the sixel colour
/// budget and the background colour. Everything that draws reads it from
/// here; nothing measures the terminal a second time.
package struct TerminalGeometry: Equatable, Sendable {
    /// width = columns, height = rows.
    package var windowCells: CellCount
    /// One character cell in screen pixels.
    package var cellPixels: PixelSize
    /// The text area in pixels, when the kernel or the terminal said.
    package var windowPixels: PixelSize?
    /// Sixel pictures larger than this are dropped by xterm (XTSMGRAPHICS).
    package var sixelMaxSize: PixelSize?
    /// Sixel palette size: `sixelPaletteColors`, or the terminal's fewer registers.
    package var colorRegisters: Int
    /// The terminal's default background (OSC 11).
    package var background: RGBA?
    /// `--cell-size` was given: no measurement replaces it.
    package var cellSizeFixed: Bool

    /// Colours in a sixel palette. Sixel bytes grow with the colours each
    /// six-row band uses, so a full 256 costs more than it shows. Measured
    /// with pxbench on 30 photos into 800x600 (median bytes / PSNR):
    /// 256 colours 521 KB / 37.7 dB, 128: 393 KB / 36.1 dB, 112: 378 KB /
    /// 35.7 dB, 96: 354 KB / 35.3 dB; chafa 521 KB / 33.8 dB and img2sixel
    /// 405 KB / 32.8 dB. 112 stays under img2sixel's bytes with room to
    /// spare and about 2 dB above chafa's PSNR.
    package static let sixelPaletteColors = 112
    /// When nothing is known about the terminal: 80x24 cells of 10x20 pixels.
    package static let fallbackCellSize = PixelSize(width: 10, height: 20)
    package static let fallbackCells = CellCount(width: 80, height: 24)
    /// The largest box side pxview draws into (cells x cell size can exceed it).
    package static let maxBoxSide = 16384
    /// The most pixels a box the window sets may hold: an 8K UHD screen
    /// (7680x4320, 133 MB of RGBA). Sides alone are not enough: a terminal
    /// reporting 65535x65535 cells of unknown size made a 16384x16384
    /// viewer canvas, 1.1 GB and a minute of work per frame.
    package static let maxWindowBoxPixels = 7680 * 4320

    /// `box` scaled down, aspect kept, to at most `maxWindowBoxPixels`.
    package static func limitingArea(_ box: PixelSize) -> PixelSize {
        let area = Double(box.width) * Double(box.height)
        guard area > Double(maxWindowBoxPixels) else { return box }
        let scale = (Double(maxWindowBoxPixels) / area).squareRoot()
        return PixelSize(
            width: max(1, Int(Double(box.width) * scale)), height: max(1, Int(Double(box.height) * scale)))
    }

    package init(
        windowCells: CellCount, cellPixels: PixelSize = TerminalGeometry.fallbackCellSize, windowPixels: PixelSize? = nil,
        sixelMaxSize: PixelSize? = nil, colorRegisters: Int = TerminalGeometry.sixelPaletteColors, background: RGBA? = nil,
        cellSizeFixed: Bool = false
    ) {
        self.windowCells = CellCount(width: max(1, windowCells.width), height: max(1, windowCells.height))
        self.cellPixels = PixelSize(width: max(1, cellPixels.width), height: max(1, cellPixels.height))
        self.windowPixels = windowPixels
        self.sixelMaxSize = sixelMaxSize
        self.colorRegisters = max(2, min(TerminalGeometry.sixelPaletteColors, colorRegisters))
        self.background = background
        self.cellSizeFixed = cellSizeFixed
    }

    /// The geometry the probe found (`capabilities`, already bounded by
    /// `TerminalLimits`), the window as it is now, and `--cell-size`.
    package init(capabilities: TerminalCapabilities?, window: WindowSize?, cellSizeOverride: PixelSize? = nil) {
        let cells =
            window.map(\.cells).flatMap { $0.isEmpty ? nil : $0 }
            ?? capabilities.map(\.windowCells).flatMap { $0.isEmpty ? nil : $0 } ?? Self.fallbackCells
        self.init(
            windowCells: cells,
            cellPixels: cellSizeOverride ?? capabilities?.cellSize ?? Self.fallbackCellSize,
            windowPixels: capabilities?.windowPixels,
            sixelMaxSize: capabilities?.sixelMaxSize,
            colorRegisters: capabilities?.colorRegisters ?? Self.sixelPaletteColors,
            background: capabilities?.backgroundColor,
            cellSizeFixed: cellSizeOverride != nil)
    }

    /// The geometry after a resize (SIGWINCH). The cell size measured at
    /// start is kept while the new window still fits it: the terminal's
    /// pixel fields may include a border and leftover pixels, and dividing
    /// them by the cells can be a pixel off (xterm shrunk to 600x400 px
    /// reports 400 px for 20 rows of 19 px: 20 px rows made the two sixel
    /// bands of a view overlap). Only pixel fields no longer consistent
    /// with the old cell (a font size change) give a new cell size.
    package func resized(to window: WindowSize?) -> TerminalGeometry {
        guard let window, !window.cells.isEmpty else { return self }
        var next = self
        next.windowCells = window.cells
        guard let pixels = window.pixels, TerminalLimits.maxPixelSide >= max(pixels.width, pixels.height) else {
            next.windowPixels = nil
            return next
        }
        next.windowPixels = pixels
        if cellSizeFixed || Self.fits(cell: cellPixels, cells: window.cells, pixels: pixels) { return next }
        let measured = PixelSize(width: pixels.width / window.cells.width, height: pixels.height / window.cells.height)
        if TerminalLimits.cell(measured) { next.cellPixels = measured }
        return next
    }

    /// The terminal answered `CSI 16 t` again: its word beats any division.
    package func withReportedCellSize(_ cell: PixelSize) -> TerminalGeometry {
        guard !cellSizeFixed, TerminalLimits.cell(cell) else { return self }
        var next = self
        next.cellPixels = cell
        return next
    }

    /// True when `cells` of `cell` fit in `pixels` with less than two cells
    /// to spare on each axis (one for leftover pixels, one for a border).
    static func fits(cell: PixelSize, cells: CellCount, pixels: PixelSize) -> Bool {
        func axis(_ size: Int, _ count: Int, _ total: Int) -> Bool {
            count * size <= total && total < (count + 2) * size
        }
        return axis(cell.width, cells.width, pixels.width) && axis(cell.height, cells.height, pixels.height)
    }

    /// The pixel box `pxview show` draws into: `--size`, else `--cells`
    /// times the cell size, else the window less one row for the prompt
    /// (at most `maxWindowBoxPixels`), never past `maxBoxSide`.
    package func box(size: PixelSize?, cells: CellCount?, reservePromptRow: Bool = true) -> PixelSize {
        var box: PixelSize
        if let size {
            box = size
        } else if let cells {
            box = PixelSize(width: cells.width * cellPixels.width, height: cells.height * cellPixels.height)
        } else {
            let rows = max(1, windowCells.height - (reservePromptRow ? 1 : 0))
            box = PixelSize(width: windowCells.width * cellPixels.width, height: rows * cellPixels.height)
            // A cell's worth of pixels per cell, whatever border the terminal adds.
            if let pixels = windowPixels {
                box = PixelSize(width: min(box.width, pixels.width), height: min(box.height, pixels.height))
            }
            box = Self.limitingArea(box)
        }
        return PixelSize(width: min(box.width, Self.maxBoxSide), height: min(box.height, Self.maxBoxSide))
    }
}
