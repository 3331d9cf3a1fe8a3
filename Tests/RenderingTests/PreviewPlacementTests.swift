import Encoding
import Pixels
import Rendering
import Terminal
import Testing

/// A file manager's preview: the box, the alignment, the no-scroll rule,
/// and the exact bytes of one placed picture and one clear per protocol.
@Suite struct PreviewPlacementTests {
    private func backend(_ method: DrawingMethod) -> any GraphicsBackend {
        DrawingPlan(
            method: method,
            geometry: TerminalGeometry(windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16))
        ).makeBackend()
    }

    @Test func theBoxStaysInTheWindowAndASixelNeverTouchesTheLastRow() {
        let window = CellCount(width: 80, height: 24)
        let box = CellRect(column: 40, row: 1, columns: 60, rows: 30)
        #expect(
            PreviewPlacement.usableBox(box, window: window, method: .kitty)
                == CellRect(column: 40, row: 1, columns: 40, rows: 23))
        // A sixel ending on the last row scrolls the screen: one row less.
        #expect(
            PreviewPlacement.usableBox(box, window: window, method: .sixel)
                == CellRect(column: 40, row: 1, columns: 40, rows: 22))
        let inside = CellRect(column: 0, row: 0, columns: 10, rows: 5)
        #expect(PreviewPlacement.usableBox(inside, window: window, method: .sixel) == inside)
        #expect(
            PreviewPlacement.usableBox(CellRect(column: 90, row: 0, columns: 5, rows: 5), window: window, method: .kitty) == nil)
        // The last row is inside the window: one row for kitty and text, none for sixel.
        let lastRow = CellRect(column: 0, row: 23, columns: 10, rows: 10)
        #expect(PreviewPlacement.clamped(lastRow, window: window) == CellRect(column: 0, row: 23, columns: 10, rows: 1))
        #expect(PreviewPlacement.usableBox(lastRow, window: window, method: .kitty)?.rows == 1)
        #expect(PreviewPlacement.usableBox(lastRow, window: window, method: .sixel) == nil)
        #expect(
            PreviewPlacement.clamped(CellRect(column: 0, row: 0, columns: 2048, rows: 2048), window: window)
                == CellRect(column: 0, row: 0, columns: 80, rows: 24))
        #expect(CellRect(placeText: "40x20@60,1") == CellRect(column: 60, row: 1, columns: 40, rows: 20))
        for bad in ["40x20", "40x20@60", "0x5@1,1", "4x5@-1,1", "axb@1,1", "4x5@1,1,1", ""] {
            #expect(CellRect(placeText: bad) == nil, "\(bad)")
        }
    }

    /// kitty: the cursor saved, the picture (`C=1`: the cursor does not
    /// move, nothing scrolls) centred in the box under a new id, then the
    /// last preview deleted by its own id, the cursor restored; nothing else.
    @Test func aKittyPreviewsExactBytes() {
        let image = RGBAImage(width: 16, height: 16, fill: RGBA(r: 255, g: 0, b: 0))
        #expect(PreviewPlacement.kittyImageID(after: nil, random: { 0xFF00_0042 }) == 0xFF00_0042)
        // Apart from every id a running grid or viewer uses, placeholders' (high bytes 1...254) too.
        #expect(PreviewPlacement.kittyImageIDs.allSatisfy { KittyPlaceholders.canName($0) && $0 >> 24 == 0xFF })
        #expect((0..<50).allSatisfy { _ in PreviewPlacement.kittyImageIDs.contains(PreviewPlacement.kittyImageID(after: nil)) })
        #expect(PreviewPlacement.kittyImageID(after: 0xFF00_0001) == 0xFF00_0002)
        #expect(PreviewPlacement.kittyImageID(after: 0xFF00_00FF) == 0xFF00_0001)
        #expect(PreviewPlacement.kittyImageID(after: 0x7078_7601, random: { 0xFF00_0007 }) == 0xFF00_0007)
        let picture = backend(.kitty).inline(image, imageID: 0xFF00_0002)
        let bytes = PreviewPlacement.bytes(
            of: picture, in: CellRect(column: 10, row: 2, columns: 8, rows: 5), alignment: .center, method: .kitty,
            replacing: 0xFF00_0001)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}7\u{1B}[5;14H\u{1B}_Ga=T,f=100,i=4278190082,p=1,C=1,q=2;"))
        #expect(text.hasSuffix("\u{1B}\\\u{1B}_Ga=d,d=I,i=4278190081,q=2\u{1B}\\\u{1B}8"))
        // Top-left: the box's own corner; the first preview deletes nothing.
        let topLeft = PreviewPlacement.bytes(
            of: picture, in: CellRect(column: 10, row: 2, columns: 8, rows: 5), alignment: .topLeft, method: .kitty)
        let topLeftText = String(decoding: topLeft, as: UTF8.self)
        #expect(topLeftText.hasPrefix("\u{1B}7\u{1B}[3;11H\u{1B}_Ga=T"))
        #expect(!topLeftText.contains("a=d"))
        #expect(
            PreviewPlacement.clearingBytes(nil, method: .kitty, kittyImageIDs: [0xFF00_0002])
                == Array("\u{1B}7\u{1B}_Ga=d,d=I,i=4278190082,q=2\u{1B}\\\u{1B}8".utf8))
        // Nothing remembered: every preview id, and the old single one.
        #expect(
            PreviewPlacement.clearingBytes(nil, method: .kitty, kittyImageIDs: nil)
                == Array(
                    ("\u{1B}7\u{1B}_Ga=d,d=R,x=4278190081,y=4278190335,q=2\u{1B}\\"
                        + "\u{1B}_Ga=d,d=I,i=1886942721,q=2\u{1B}\\\u{1B}8").utf8))
        #expect(PreviewPlacement.clearingBytes(nil, method: .kitty, kittyImageIDs: []).isEmpty)
    }

    /// kitty's placeholders are text in tmux's grid: the box is blanked
    /// before a new picture and by `clear`, with the image deleted.
    @Test func placeholderPreviewsBlankTheirCells() {
        let box = CellRect(column: 3, row: 1, columns: 2, rows: 2)
        let blank = "\u{1B}[2;4H\u{1B}[0m\u{1B}[2X\u{1B}[3;4H\u{1B}[0m\u{1B}[2X"
        let picture = backend(.kittyPlaceholders).inline(
            RGBAImage(width: 8, height: 16, fill: RGBA(r: 1, g: 2, b: 3)), imageID: 0xFF00_0002)
        let text = String(
            decoding: PreviewPlacement.bytes(of: picture, in: box, alignment: .topLeft, method: .kittyPlaceholders), as: UTF8.self
        )
        #expect(text.hasPrefix("\u{1B}7" + blank + "\u{1B}[2;4H\u{1B}_Ga=t,"))
        #expect(
            String(
                decoding: PreviewPlacement.clearingBytes(box, method: .kittyPlaceholders, kittyImageIDs: [0xFF00_0002]),
                as: UTF8.self)
                == "\u{1B}7\u{1B}_Ga=d,d=I,i=4278190082,q=2\u{1B}\\" + blank + "\u{1B}8")
    }

    /// Sixel and half-blocks: the box blanked first (ECH, which takes old
    /// sixel pixels away), then the picture row by row.
    @Test func sixelAndHalfBlockPreviewsExactBytes() {
        let image = RGBAImage(width: 8, height: 2, fill: RGBA(r: 0, g: 0, b: 255))
        let box = CellRect(column: 3, row: 1, columns: 2, rows: 2)
        let blocks = backend(.blocks).inline(RGBAImage(width: 1, height: 2, fill: RGBA(r: 0, g: 0, b: 255)), imageID: 1)
        #expect(
            String(decoding: PreviewPlacement.bytes(of: blocks, in: box, alignment: .topLeft, method: .blocks), as: UTF8.self)
                == "\u{1B}7\u{1B}[2;4H\u{1B}[0m\u{1B}[2X\u{1B}[3;4H\u{1B}[0m\u{1B}[2X\u{1B}[2;4H"
                + String(decoding: blocks.lines[0], as: UTF8.self) + "\u{1B}8")
        let sixel = backend(.sixel).inline(image, imageID: 1)
        let sixelText = String(
            decoding: PreviewPlacement.bytes(of: sixel, in: box, alignment: .center, method: .sixel), as: UTF8.self)
        #expect(
            sixelText.hasPrefix(
                "\u{1B}7\u{1B}[2;4H\u{1B}[0m\u{1B}[2X\u{1B}[3;4H\u{1B}[0m\u{1B}[2X\u{1B}[2;4H\u{1B}P0;1;0q\"1;1;8;2"))
        #expect(sixelText.hasSuffix("\u{1B}\\\u{1B}8"))
        #expect(
            PreviewPlacement.clearingBytes(box, method: .sixel, kittyImageIDs: nil)
                == Array("\u{1B}7\u{1B}[2;4H\u{1B}[0m\u{1B}[2X\u{1B}[3;4H\u{1B}[0m\u{1B}[2X\u{1B}8".utf8))
        #expect(
            PreviewPlacement.clearingBytes(nil, method: .sixel, kittyImageIDs: nil).isEmpty, "no box known: nothing to blank")
    }
}
