import Encoding
import Pixels
import Rendering
import Terminal
import Testing

@Suite struct InlineBackendTests {
    private func backend(_ method: DrawingMethod, _ multiplexer: Multiplexer = .none) -> any GraphicsBackend {
        DrawingPlan(
            method: method,
            geometry: TerminalGeometry(
                windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16)),
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

    /// In xterm the cursor after a sixel stays on its last band's row: the
    /// rows are reserved, the cursor saved and put back below the picture
    /// (3x2 cells here). Elsewhere (mlterm, a file) a carriage return.
    @Test func aSixelInXtermPutsTheCursorBelowIt() {
        var drawing = DrawingPlan(
            method: .sixel,
            geometry: TerminalGeometry(
                windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16)),
            traits: TerminalTraits(version: "XTerm(379)"))
        let xterm = String(decoding: drawing.makeBackend().inline(pixels, imageID: 1).bytes, as: UTF8.self)
        #expect(xterm.hasPrefix("\n\n\r\u{1B}[2A\u{1B}7\u{1B}P"))
        #expect(xterm.hasSuffix("\u{1B}\\\u{1B}8\r\u{1B}[2B"))
        drawing.traits = TerminalTraits(version: "mlterm(3.9.0)")
        let mlterm = String(decoding: drawing.makeBackend().inline(pixels, imageID: 1).bytes, as: UTF8.self)
        #expect(mlterm.hasPrefix("\u{1B}P") && mlterm.hasSuffix("\u{1B}\\\r"))
        // As tall as the window: nothing to reserve, a new line after.
        drawing.traits = TerminalTraits(version: "XTerm(379)")
        drawing.geometry = TerminalGeometry(
            windowCells: CellCount(width: 80, height: 2), cellPixels: PixelSize(width: 8, height: 16))
        let tall = String(decoding: drawing.makeBackend().inline(pixels, imageID: 1).bytes, as: UTF8.self)
        #expect(tall.hasPrefix("\u{1B}P") && tall.hasSuffix("\u{1B}\\\r\n"))
    }

    /// `joined()` gives `bytes`, whatever the picture's shape.
    @Test(arguments: DrawingMethod.allCases)
    func joinedIsBytes(method: DrawingMethod) {
        for multiplexer in [Multiplexer.none, .tmux(passthrough: true)] {
            let picture = backend(method, multiplexer).inline(pixels, imageID: 3)
            #expect(picture.joined() == picture.bytes)
        }
    }

    /// Only kitty through the pty draws from rows as it makes them (`show`
    /// asks no other backend to), and hands `write` in parts the bytes
    /// `inline` joins for the whole picture.
    @Test(arguments: DrawingMethod.allCases)
    func onlyKittyDrawsRowsAsMade(method: DrawingMethod) {
        #expect(backend(method).drawsRowsAsMade == (method == .kitty))
        #expect(!backend(method, .tmux(passthrough: true)).drawsRowsAsMade)
    }

    @Test func kittyDrawnFromRowsIsJoined() {
        var photo = RGBAImage(width: 400, height: 300)
        for y in 0..<300 { for x in 0..<400 { photo[x, y] = RGBA(r: UInt8(x % 256), g: UInt8(y % 256), b: 90) } }
        var parts: [UInt8] = []
        #expect(
            backend(.kitty).drawInline(PixelRows(photo), imageID: 4) {
                parts += $0
                return true
            })
        #expect(parts == backend(.kitty).inline(photo, imageID: 4).joined())
    }

    /// kitty's own example: image 33554474 (42 + 2 << 24) names its low
    /// byte in the colour and its high byte in a third mark, U+030E.
    @Test func placeholdersAreRowsOfText() {
        let picture = backend(.kittyPlaceholders, .tmux(passthrough: true)).inline(pixels, imageID: 42 + (2 << 24))
        #expect(picture.cells == CellCount(width: 3, height: 2))
        #expect(picture.lines.count == 2)
        let first = String(decoding: picture.lines[0], as: UTF8.self)
        // The upload, then its virtual placement as a command of its own
        // (kitty redraws placeholder cells after a command that carries U=1).
        #expect(first.hasPrefix("\u{1B}_Ga=t,f=100,i=33554474,q=2;"))
        #expect(
            first.hasSuffix(
                "\u{1B}_Ga=p,U=1,i=33554474,p=1,c=3,r=2,q=2\u{1B}\\"
                    + "\u{1B}[38;5;42m\u{10EEEE}\u{0305}\u{0305}\u{030E}\u{10EEEE}\u{10EEEE}\u{1B}[39m"))
        #expect(first.components(separatedBy: "U=1").count == 2)
        #expect(
            String(decoding: picture.lines[1], as: UTF8.self)
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

    /// kitty 0.48.2 sometimes left the last picture placed undrawn until
    /// more came: after a frame with a picture on screen, a nudge that
    /// changes nothing (`d=i` of an id never used) follows.
    @Test func kittyNudgesAfterAFrameWithPictures() {
        let kitty = backend(.kitty)
        #expect(kitty.followUp().isEmpty, "nothing on screen, nothing to nudge")
        let area = CellRect(column: 2, row: 2, columns: 10, rows: 4)
        _ = kitty.draw(Picture.centred(image: pixels, key: PictureKey(id: 1), area: area, screen: kitty.screen), slot: 3)
        #expect(kitty.followUpDelaysMs == [50, 400])
        #expect(String(decoding: kitty.followUp(), as: UTF8.self) == "\u{1B}_Ga=d,d=i,i=4294967295,q=2\u{1B}\\")
        _ = kitty.erase(slot: 3)
        #expect(kitty.followUp().isEmpty)
        #expect(backend(.sixel).followUpDelaysMs.isEmpty && backend(.sixel).followUp().isEmpty)
    }

    /// Pictures drawn once at the prompt by shared memory (or a file) are
    /// nudged 30 ms later, before the command ends (kitty 0.48.2 showed
    /// none until a key); through the pty, and for sixel and text, nothing.
    @Test func kittyNudgesAfterPicturesDrawnOnceByMemory() {
        var drawing = DrawingPlan(
            method: .kitty,
            geometry: TerminalGeometry(windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16))
        )
        #expect(drawing.makeBackend().inlineFollowUp == nil)
        for medium in [KittyMedium.sharedMemory, .file] {
            drawing.kittyMedium = medium
            let followUp = drawing.makeBackend().inlineFollowUp
            #expect(followUp?.delayMs == 30)
            #expect(followUp.map { String(decoding: $0.bytes, as: UTF8.self) } == "\u{1B}_Ga=d,d=i,i=4294967295,q=2\u{1B}\\")
        }
        #expect(backend(.sixel).inlineFollowUp == nil && backend(.symbols).inlineFollowUp == nil)
        // Placeholders inside tmux (kitty 0.48.2 left them black until a key).
        let placeholders = backend(.kittyPlaceholders, .tmux(passthrough: true)).inlineFollowUp
        #expect(placeholders?.delayMs == 30 && placeholders?.bytes == KittyEncoder().nudge())
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
