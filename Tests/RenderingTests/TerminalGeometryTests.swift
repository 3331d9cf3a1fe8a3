import Pixels
import Rendering
import Terminal
import Testing

@Suite struct TerminalGeometryTests {
    private let xterm = TerminalGeometry(
        windowCells: CellCount(width: 100, height: 35), cellPixels: PixelSize(width: 9, height: 19),
        windowPixels: PixelSize(width: 904, height: 669))

    @Test func shrinkingXtermKeepsTheMeasuredCell() {
        // xterm shrunk to 600x400 px: 66x20 cells, TIOCGWINSZ 600x400 with its
        // border; 400 / 20 = 20 px rows would be a pixel off.
        let small = xterm.resized(
            to: WindowSize(cells: CellCount(width: 66, height: 20), pixels: PixelSize(width: 600, height: 400)))
        #expect(small.cellPixels == PixelSize(width: 9, height: 19))
        #expect(small.windowCells == CellCount(width: 66, height: 20))
        #expect(small.windowPixels == PixelSize(width: 600, height: 400))
        // And growing again.
        let grown = small.resized(
            to: WindowSize(cells: CellCount(width: 110, height: 36), pixels: PixelSize(width: 994, height: 688)))
        #expect(grown.cellPixels == PixelSize(width: 9, height: 19))
    }

    @Test func aFontChangeGivesANewCell() {
        // kitty after Ctrl+Shift+=: the same 900x612 window in 75x25 cells of 12x24.
        let kitty = TerminalGeometry(
            windowCells: CellCount(width: 100, height: 34), cellPixels: PixelSize(width: 9, height: 18),
            windowPixels: PixelSize(width: 900, height: 612))
        let bigger = kitty.resized(
            to: WindowSize(cells: CellCount(width: 75, height: 25), pixels: PixelSize(width: 900, height: 612)))
        #expect(bigger.cellPixels == PixelSize(width: 12, height: 24))
    }

    @Test func withoutPixelsOrWithAFixedCellNothingIsRemeasured() {
        let noPixels = xterm.resized(to: WindowSize(cells: CellCount(width: 50, height: 10), pixels: nil))
        #expect(noPixels.cellPixels == xterm.cellPixels && noPixels.windowPixels == nil)
        var fixed = xterm
        fixed.cellSizeFixed = true
        let resized = fixed.resized(
            to: WindowSize(cells: CellCount(width: 75, height: 25), pixels: PixelSize(width: 900, height: 612)))
        #expect(resized.cellPixels == xterm.cellPixels)
        // Hostile pixel fields are not believed.
        let hostile = xterm.resized(
            to: WindowSize(cells: CellCount(width: 10, height: 10), pixels: PixelSize(width: 60000, height: 60000)))
        #expect(hostile.cellPixels == xterm.cellPixels && hostile.windowPixels == nil)
    }

    @Test func aReportedCellSizeWinsWithinBounds() {
        #expect(xterm.withReportedCellSize(PixelSize(width: 10, height: 20)).cellPixels == PixelSize(width: 10, height: 20))
        #expect(xterm.withReportedCellSize(PixelSize(width: 999_999, height: 20)).cellPixels == xterm.cellPixels)
        #expect(xterm.withReportedCellSize(PixelSize(width: 0, height: 20)).cellPixels == xterm.cellPixels)
    }

    @Test func aHostileCellReplyCannotBlowUpTheCanvas() {
        // CSI 6;999999999;999999999 t with no kernel pixels: ignored, the
        // fallback cell is used and the viewer's view stays window-sized.
        var replies = ProbeReplies()
        replies.cellPixels = PixelSize(width: 999_999_999, height: 999_999_999)
        replies.deviceAttributes = [62, 4]
        let caps = capabilities(from: replies, winsize: WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil))
        let geometry = TerminalGeometry(capabilities: caps, window: nil)
        #expect(geometry.cellPixels == TerminalGeometry.fallbackCellSize)
        let screen = DrawingPlan(method: .sixel, geometry: geometry).makeBackend().screen
        #expect(screen.unitBox(cells: CellCount(width: 80, height: 23)) == PixelSize(width: 800, height: 460))
    }

    @Test func sixelRegistersAreCappedAtThePaletteSize() {
        let caps = TerminalCapabilities(
            kittyGraphics: false, sixel: true, colorRegisters: 1024, sixelMaxSize: nil, cellSize: nil, windowPixels: nil,
            windowCells: CellCount(width: 80, height: 24), synchronizedOutput: false)
        #expect(TerminalGeometry(capabilities: caps, window: nil).colorRegisters == TerminalGeometry.sixelPaletteColors)
        var few = caps
        few.colorRegisters = 16
        #expect(TerminalGeometry(capabilities: few, window: nil).colorRegisters == 16)
    }
}
