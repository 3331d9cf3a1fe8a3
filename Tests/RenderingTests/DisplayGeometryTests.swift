import Pixels
import Rendering
import Terminal
import Testing

@Suite struct DisplayGeometryTests {
    private let xterm = DisplayGeometry(
        windowCells: PixelSize(width: 100, height: 35), cellPixels: PixelSize(width: 9, height: 19),
        windowPixels: PixelSize(width: 904, height: 669))

    @Test func shrinkingXtermKeepsTheMeasuredCell() {
        // xterm shrunk to 600x400 px: 66x20 cells, TIOCGWINSZ 600x400 with its
        // border; 400 / 20 = 20 px rows would be a pixel off.
        let small = xterm.resized(to: WindowSize(cells: PixelSize(width: 66, height: 20), pixels: PixelSize(width: 600, height: 400)))
        #expect(small.cellPixels == PixelSize(width: 9, height: 19))
        #expect(small.windowCells == PixelSize(width: 66, height: 20))
        #expect(small.windowPixels == PixelSize(width: 600, height: 400))
        // And growing again.
        let grown = small.resized(to: WindowSize(cells: PixelSize(width: 110, height: 36), pixels: PixelSize(width: 994, height: 688)))
        #expect(grown.cellPixels == PixelSize(width: 9, height: 19))
    }

    @Test func aFontChangeGivesANewCell() {
        // kitty after Ctrl+Shift+=: the same 900x612 window in 75x25 cells of 12x24.
        let kitty = DisplayGeometry(
            windowCells: PixelSize(width: 100, height: 34), cellPixels: PixelSize(width: 9, height: 18),
            windowPixels: PixelSize(width: 900, height: 612))
        let bigger = kitty.resized(to: WindowSize(cells: PixelSize(width: 75, height: 25), pixels: PixelSize(width: 900, height: 612)))
        #expect(bigger.cellPixels == PixelSize(width: 12, height: 24))
    }

    @Test func withoutPixelsOrWithAFixedCellNothingIsRemeasured() {
        let noPixels = xterm.resized(to: WindowSize(cells: PixelSize(width: 50, height: 10), pixels: nil))
        #expect(noPixels.cellPixels == xterm.cellPixels && noPixels.windowPixels == nil)
        var fixed = xterm
        fixed.cellSizeFixed = true
        let resized = fixed.resized(to: WindowSize(cells: PixelSize(width: 75, height: 25), pixels: PixelSize(width: 900, height: 612)))
        #expect(resized.cellPixels == xterm.cellPixels)
        // Hostile pixel fields are not believed.
        let hostile = xterm.resized(to: WindowSize(cells: PixelSize(width: 10, height: 10), pixels: PixelSize(width: 60000, height: 60000)))
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
        let caps = capabilities(from: replies, winsize: WindowSize(cells: PixelSize(width: 80, height: 24), pixels: nil))
        let geometry = DisplayGeometry(capabilities: caps, window: nil)
        #expect(geometry.cellPixels == DisplayGeometry.fallbackCellSize)
        let screen = Display(method: .sixel, geometry: geometry).makeBackend().screen
        #expect(screen.unitBox(cells: PixelSize(width: 80, height: 23)) == PixelSize(width: 800, height: 460))
    }

    @Test func sixelRegistersAreCappedAtThePaletteSize() {
        let caps = TerminalCapabilities(
            kittyGraphics: false, sixel: true, colorRegisters: 1024, sixelMaxSize: nil, cellSize: nil, windowPixels: nil,
            windowCells: PixelSize(width: 80, height: 24), synchronizedOutput: false)
        #expect(DisplayGeometry(capabilities: caps, window: nil).colorRegisters == DisplayGeometry.sixelPaletteColors)
        var few = caps
        few.colorRegisters = 16
        #expect(DisplayGeometry(capabilities: few, window: nil).colorRegisters == 16)
    }
}

@Suite struct BackgroundTests {
    private func logo(_ colour: RGBA) -> RGBAImage {
        var image = RGBAImage(width: 64, height: 64)
        for y in 16..<48 { for x in 16..<48 { image[x, y] = colour } }
        return image
    }

    @Test func choicesParse() {
        #expect(BackgroundChoice(parsing: "auto") == .auto)
        #expect(BackgroundChoice(parsing: "none") == BackgroundChoice.none)
        #expect(BackgroundChoice(parsing: "checker") == .checker)
        #expect(BackgroundChoice(parsing: "#FF8000") == .color(RGBA(r: 255, g: 128, b: 0)))
        #expect(BackgroundChoice(parsing: "202020") == .color(RGBA(r: 32, g: 32, b: 32)))
        #expect(BackgroundChoice(parsing: "white") == .color(RGBA(r: 255, g: 255, b: 255)))
        #expect(BackgroundChoice(parsing: "#12345") == nil)
        #expect(BackgroundChoice(parsing: "purple-ish") == nil)
        #expect(BackgroundChoice.color(RGBA(r: 255, g: 128, b: 0)).description == "#ff8000")
    }

    @Test func autoUsesTheTerminalsBackgroundUnlessThePictureWouldVanish() {
        let white = RGBA(r: 255, g: 255, b: 255)
        let black = RGBA(r: 0, g: 0, b: 0)
        let whiteLogo = logo(white)
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: black) == .color(black))
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: white) == .checker)
        #expect(BackgroundChoice.auto.fill(for: whiteLogo, terminal: nil) == nil)
        #expect(BackgroundChoice.none.fill(for: whiteLogo, terminal: white) == nil)
        // Opaque pictures are never touched.
        #expect(BackgroundChoice.checker.fill(for: RGBAImage(width: 4, height: 4, fill: white), terminal: white) == nil)
    }

    @Test func compositingMakesEveryPixelOpaque() {
        var image = RGBAImage(width: 2, height: 1)
        image[0, 0] = RGBA(r: 255, g: 0, b: 0, a: 128)
        image[1, 0] = RGBA(r: 0, g: 0, b: 255, a: 255)
        let over = BackgroundFill.color(RGBA(r: 0, g: 0, b: 0)).composite(image)
        #expect(over[0, 0] == RGBA(r: 128, g: 0, b: 0, a: 255))
        #expect(over[1, 0] == RGBA(r: 0, g: 0, b: 255, a: 255))
        let checker = BackgroundFill.checker.composite(RGBAImage(width: 64, height: 64))
        #expect(checker[0, 0] == RGBA(r: 0x99, g: 0x99, b: 0x99) && checker[2, 0] == RGBA(r: 0x66, g: 0x66, b: 0x66))
        #expect(!checker.hasTransparency)
    }
}

@Suite struct InlineBackendTests {
    private func backend(_ method: DrawingMethod, _ multiplexer: Multiplexer = .none) -> any GraphicsBackend {
        Display(
            method: method, geometry: DisplayGeometry(windowCells: PixelSize(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16)),
            multiplexer: multiplexer
        ).makeBackend()
    }

    private let pixels = RGBAImage(width: 20, height: 20, fill: RGBA(r: 10, g: 200, b: 30))

    @Test func kittyInsideTmuxUploadsThenPlacesInOneCommand() {
        let picture = backend(.kitty, .tmux(passthrough: true)).inline(pixels, imageID: 7)
        let text = String(decoding: picture.bytes, as: UTF8.self)
        // 20x20 px is 3x2 cells of 8x16: two rows reserved, then the upload,
        // then a placement of its own, then the cursor below.
        #expect(text.hasPrefix("\n\n\r\u{1B}[2A\u{1B}_Ga=t,f=100,i=7,q=2;"))
        #expect(text.hasSuffix("\u{1B}_Ga=p,i=7,p=1,C=1,q=2\u{1B}\\\r\n\n"))
        let direct = String(decoding: backend(.kitty).inline(pixels, imageID: 7).bytes, as: UTF8.self)
        #expect(direct.hasPrefix("\u{1B}_Ga=T,f=100,i=7,p=1,C=1,q=2;"))
    }

    /// kitty's own example: image 33554474 (42 + 2 << 24) names its low
    /// byte in the colour and its high byte in a third mark, U+030E.
    @Test func placeholdersAreRowsOfText() {
        let picture = backend(.kittyPlaceholders, .tmux(passthrough: true)).inline(pixels, imageID: 42 + (2 << 24))
        #expect(picture.cells == PixelSize(width: 3, height: 2))
        #expect(picture.lines.count == 2)
        let first = String(decoding: picture.lines[0], as: UTF8.self)
        #expect(first.hasPrefix("\u{1B}_Ga=T,f=100,i=33554474,U=1,c=3,r=2,q=2;"))
        #expect(first.hasSuffix("\u{1B}[38;5;42m\u{10EEEE}\u{0305}\u{0305}\u{030E}\u{10EEEE}\u{10EEEE}\u{1B}[39m"))
        #expect(String(decoding: picture.lines[1], as: UTF8.self)
            == "\u{1B}[38;5;42m\u{10EEEE}\u{030D}\u{0305}\u{030E}\u{10EEEE}\u{10EEEE}\u{1B}[39m")
        #expect(String(decoding: picture.bytes, as: UTF8.self).hasSuffix("\u{1B}[39m\r\n"))
    }

    @Test func sixelInsideTmuxGoesInBandsUnderItsPassthroughLimit() {
        // 3000 px wide, 16 px rows: 400000 px a band is 8 rows (384000 px).
        let wide = RGBAImage(width: 3000, height: 300, fill: RGBA(r: 200, g: 10, b: 10))
        let picture = backend(.sixel, .tmux(passthrough: true)).inline(wide, imageID: 1)
        // 300 px of 16 px rows: 19 rows in bands of 8.
        #expect(picture.lineRows == [0, 8, 16])
        #expect(picture.lines.allSatisfy { String(decoding: $0, as: UTF8.self).hasPrefix("\u{1B}P0;1;0q") })
        // After the last band (row 16) the cursor goes 3 rows down: below the 19.
        let text = String(decoding: picture.bytes, as: UTF8.self)
        #expect(text.hasSuffix("\r\u{1B}[3B"))
        #expect(text.components(separatedBy: "\r\u{1B}[8B").count == 3)
        #expect(backend(.sixel).inline(wide, imageID: 1).lines.count == 1)
    }

    /// A tile whose new thumbnail has the old one's size and place is
    /// placed again: replacing the old image took its placement with it.
    @Test func kittyPlacesAReplacedPictureAgain() {
        let kitty = backend(.kitty)
        let area = CellRect(column: 2, row: 2, columns: 10, rows: 4)
        let first = Picture.centred(image: pixels, key: PictureKey(id: 1), area: area, screen: kitty.screen)
        let second = Picture.centred(image: pixels, key: PictureKey(id: 2), area: area, screen: kitty.screen)
        #expect(String(decoding: kitty.draw(first, slot: 3), as: UTF8.self).contains("a=p,i=7,"))
        let replaced = String(decoding: kitty.draw(second, slot: 3), as: UTF8.self)
        #expect(replaced.contains("a=d,d=i,i=7,") && replaced.contains("a=t,") && replaced.contains("a=p,i=7,"))
        // Never `d=I` while the session goes on: kitty would free every unplaced image with it.
        #expect(!replaced.contains("d=I"))
    }
}
