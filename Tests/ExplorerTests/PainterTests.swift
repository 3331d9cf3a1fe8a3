import Decoding
import Encoding
import Foundation
import GraphicsReadback
import Photos
import Pixabay
import Pixels
import Scaling
import Terminal
import Testing

@testable import Explorer
@testable import Rendering

#if canImport(Glibc)
    import Glibc
#endif

/// A 40x12-cell window of 8x16-px cells: the viewer's view is 320x176 px.
let smallCells = CellCount(width: 40, height: 12)
let smallCell = PixelSize(width: 8, height: 16)

func smallGeometry(_ graphics: DrawingMethod) -> BackendGeometry {
    BackendGeometry(graphics: graphics, windowCells: smallCells, cellPixels: smallCell)
}

/// The backend for the small window; kitty as kitty 0.26.5 (pixel offsets) unless told otherwise.
func smallBackend(
    _ method: DrawingMethod, traits: TerminalTraits = TerminalTraits(version: "kitty(0.26.5)"),
    background: RGBA? = nil
) -> any GraphicsBackend {
    testDrawing(method, cells: smallCells, cell: smallCell, traits: traits, background: background)
        .makeBackend(resampler: Resampler(threads: 1))
}

/// A 96x64 gradient, small enough for debug builds.
func gradient(width: Int = 96, height: Int = 64) -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width { pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), 128, 255] }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

func smallViewer(_ graphics: DrawingMethod, size: PixelSize = PixelSize(width: 96, height: 64)) -> ViewerState {
    ViewerState(
        photo: filePhoto(1, "g.png"), fullSize: size, decodedSize: size, layout: ViewerLayout(screen: smallGeometry(graphics)),
        openedDirectly: true)
}

extension Array where Element == UInt8 {
    /// The first sixel DCS, `ESC P` to `ESC \`.
    var firstSixel: [UInt8]? {
        guard let start = indices.dropLast().first(where: { self[$0] == 0x1B && self[$0 + 1] == UInt8(ascii: "P") }),
            let end = (start..<(count - 1)).first(where: { self[$0] == 0x1B && self[$0 + 1] == UInt8(ascii: "\\") })
        else { return nil }
        return Array(self[start...(end + 1)])
    }

    /// Every sixel DCS, in order.
    var sixels: [[UInt8]] {
        var found: [[UInt8]] = []
        var rest = self[...]
        while let start = rest.indices.dropLast().first(where: { rest[$0] == 0x1B && rest[$0 + 1] == UInt8(ascii: "P") }),
            let end = (start..<(rest.endIndex - 1)).first(where: { rest[$0] == 0x1B && rest[$0 + 1] == UInt8(ascii: "\\") })
        {
            found.append(Array(rest[start...(end + 1)]))
            rest = rest[(end + 2)...]
        }
        return found
    }

    func offset(of text: String) -> Int? {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return nil }
        return (0...(count - needle.count)).first { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func count(of text: String) -> Int {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return 0 }
        return (0...(count - needle.count)).filter { self[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }
}

@Suite struct ViewerPainterTests {
    @Test func kittyTransmitsOnceThenOnlyReplacesWithACropOfTheBoxAspect() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), backend: smallBackend(.kitty))
        let first = painter.frame(for: state)
        #expect(first.count(of: "\u{1B}_Ga=t,") == 1)
        // Fit: 96x64 at 2.75 = 264x176 px from x = 28. The box ends on the
        // last cell boundary (x 288) and starts 4 px into cell 3; the crop
        // (95x64 of 96x64) has the box's 260x175 aspect, so nothing stretches.
        #expect(first.count(of: "\u{1B}[1;4H\u{1B}_Ga=p,i=1,p=1,c=33,r=11,x=1,y=0,w=95,h=64,X=4,Y=1,C=1,q=2\u{1B}\\") == 1)
        _ = state.handle(key("z"))
        let zoomed = painter.frame(for: state)
        #expect(zoomed.count(of: "a=t") == 0)
        // One placement, then the status line (its zoom figure changed).
        let placement = Array("\u{1B}[1;1H\u{1B}_Ga=p,i=1,p=1,c=40,r=11,x=19,y=16,w=58,h=32,X=1,Y=0,C=1,q=2\u{1B}\\".utf8)
        #expect(Array(zoomed.prefix(placement.count)) == placement)
        #expect(zoomed.count(of: "_G") == 1 && zoomed.count(of: "200% · ? keys") == 1)
        // Leaving the viewer hides its picture; kitty frees it when the next photo replaces it.
        #expect(painter.teardown() == Array("\u{1B}_Ga=d,d=i,i=1,q=2\u{1B}\\".utf8))
    }

    @Test func kittyBoxesKeepTheCropsAspect() throws {
        // Every zoom step: the drawn box (c*w - X by r*h - Y) and the crop
        // differ in aspect by less than one output pixel.
        var state = smallViewer(.kitty)
        let backend = smallBackend(.kitty)
        let painter = ViewerPainter(image: gradient(), backend: backend)
        // Every step places the picture again: none may pass unchecked.
        for step in ["", "+", "+", "+", "-", "-", "-", "-", "z"] {
            if let character = step.first { _ = state.handle(key(character)) }
            let frame = String(decoding: painter.frame(for: state), as: UTF8.self)
            let range = try #require(frame.range(of: "a=p,"), "step \(step) placed nothing")
            let end = try #require(frame[range.upperBound...].firstIndex(of: "\u{1B}"))
            var keys: [String: Int] = [:]
            for pair in frame[range.upperBound..<end].split(separator: ",") {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let value = Int(parts[1]) { keys[String(parts[0])] = value }
            }
            let boxWidth = Double(keys["c", default: 0] * 8 - keys["X", default: 0])
            let boxHeight = Double(keys["r", default: 0] * 16 - keys["Y", default: 0])
            let cropWidth = Double(keys["w", default: 1])
            let cropHeight = Double(keys["h", default: 1])
            let heightForWidth = boxWidth * cropHeight / cropWidth
            #expect(
                abs(heightForWidth - boxHeight) <= 1.0,
                "step \(step): box \(boxWidth)x\(boxHeight), crop \(cropWidth)x\(cropHeight)")
        }
    }

    @Test func kittyElsewhereStartsTheBoxOnACell() {
        // Konsole shifts a scaled placement by X/Y instead of shrinking it:
        // whole cells, no offsets.
        let state = smallViewer(.kitty)
        let painter = ViewerPainter(
            image: gradient(), backend: smallBackend(.kitty, traits: TerminalTraits(version: "Konsole 22.12.3")))
        let first = painter.frame(for: state)
        #expect(first.count(of: "\u{1B}[1;5H\u{1B}_Ga=p,i=1,p=1,c=33,r=11,x=0,y=0,w=96,h=64,C=1,q=2\u{1B}\\") == 1)
    }

    @Test func kittyShowsAFittedPhotoFromItsOwnResampleOneToOne() {
        // A 640x352 image fitted to 320x176 is uploaded a second time at
        // that size and placed without scaling; zooming in uses the decoded
        // pixels with a crop, zooming back uses the fitted copy again.
        let size = PixelSize(width: 640, height: 352)
        var state = smallViewer(.kitty, size: size)
        let painter = ViewerPainter(image: gradient(width: 640, height: 352), backend: smallBackend(.kitty))
        let first = painter.frame(for: state)
        #expect(first.count(of: "\u{1B}_Ga=t,") == 1)
        #expect(first.count(of: "s=320,v=176") == 0)  // PNG: size inside the payload
        #expect(first.count(of: "\u{1B}[1;1H\u{1B}_Ga=p,i=2,p=1,C=1,q=2\u{1B}\\") == 1)
        _ = state.handle(key("+"))
        let zoomed = painter.frame(for: state)
        #expect(zoomed.count(of: "\u{1B}_Ga=t,") == 1)
        #expect(zoomed.count(of: "a=p,i=1,p=1,c=40,r=11") == 1)
        #expect(zoomed.count(of: "\u{1B}_Ga=d,d=i,i=2,q=2\u{1B}\\") == 1)
        _ = state.handle(key("0"))
        let back = painter.frame(for: state)
        #expect(back.count(of: "\u{1B}_Ga=t,") == 0)
        #expect(back.count(of: "\u{1B}[1;1H\u{1B}_Ga=p,i=2,p=1,C=1,q=2\u{1B}\\") == 1)
        _ = state.handle(key("+"))
        #expect(painter.frame(for: state).count(of: "\u{1B}_Ga=t,") == 0)
    }

    @Test func kittyHelpHidesThePlacementAndComesBack() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), backend: smallBackend(.kitty))
        _ = painter.frame(for: state)
        _ = state.handle(key("?"))
        let help = painter.frame(for: state)
        #expect(help.count(of: "a=d,d=i,i=1") == 1)
        #expect(help.count(of: "zoom in") == 1)
        _ = state.handle(key(" "))
        let back = painter.frame(for: state)
        #expect(back.count(of: "a=p,i=1,p=1") == 1)
        #expect(back.count(of: "zoom in") == 0)
    }

    @Test func sixelPadsWithNothingAndErasesWhatAShrunkPictureLeft() throws {
        var state = smallViewer(.sixel)
        let painter = ViewerPainter(image: gradient(), backend: smallBackend(.sixel))
        let first = painter.frame(for: state)
        // 264x176 from x = 28 on cells 3...36: a 272 px canvas, 4 px of it
        // unpainted on each side (transparent, never black).
        #expect(first.count(of: "\u{1B}[1;4H\u{1B}P0;1;0q\"1;1;272;176") == 1)
        let canvas = try SixelDecoder.decode(try #require(first.firstSixel)).image
        for y in stride(from: 0, to: canvas.height, by: 7) {
            #expect(canvas[0, y].a == 0 && canvas[3, y].a == 0 && canvas[271, y].a == 0 && canvas[4, y].a == 255)
        }
        // An unchanged view is not encoded again.
        _ = state.handle(key(.left))
        #expect(painter.frame(for: state).count(of: "\u{1B}P") == 0)
        _ = state.handle(key("-"))
        let smaller = painter.frame(for: state)
        #expect(smaller.count(of: "\u{1B}P0;1;0q") >= 1)
        // Rows 1 and 11 (1-based) are outside the 0.8x picture: erased whole.
        #expect(smaller.count(of: "\u{1B}[1;4H\u{1B}[0m\u{1B}[34X") == 1)
        #expect(smaller.count(of: "\u{1B}[11;4H\u{1B}[0m\u{1B}[34X") == 1)
    }

    @Test func sixelSetsRegisterZeroToTheBackgroundWhenKnown() {
        // Konsole paints unpainted sixel pixels with register 0: the
        // terminal's background, so padding looks transparent there too.
        let painter = ViewerPainter(
            image: gradient(), backend: smallBackend(.sixel, background: RGBA(r: 255, g: 255, b: 255)))
        let frame = painter.frame(for: smallViewer(.sixel))
        #expect(frame.count(of: "\"1;1;272;176#0;2;100;100;100#") == 1)
    }

    @Test func konsoleSixelPicturesAreDeletedNotJustErased() {
        var state = smallViewer(.sixel)
        let painter = ViewerPainter(
            image: gradient(), backend: smallBackend(.sixel, traits: TerminalTraits(version: "Konsole 22.12.3")))
        _ = painter.frame(for: state)
        _ = state.handle(key("-"))
        // The old picture covered cells 3...36 by rows 0...10 (one band):
        // deleted by its middle cell, 0-based as Konsole reads it.
        #expect(painter.frame(for: state).count(of: "\u{1B}_Ga=d,d=p,x=20,y=5,q=2\u{1B}\\") == 1)
    }

    @Test func statusLineIsWrittenOnlyWhenItChanges() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), backend: smallBackend(.kitty))
        #expect(painter.frame(for: state).count(of: "? keys") == 1)
        _ = state.handle(key("+"))
        // The zoom figure changed: the line is written again.
        #expect(painter.frame(for: state).count(of: "125% · ? keys · q quit") == 1)
        #expect(painter.frame(for: state).count(of: "? keys") == 0)
        _ = state.handle(key("i"))
        // 40 columns: the info line takes the row above; the status line,
        // the same, is not written again.
        let info = painter.frame(for: state)
        #expect(info.count(of: "? keys") == 0)
        #expect(info.count(of: "\u{1B}[11;1H\u{1B}[0m\u{1B}[7m96x64  fit contain  view 0,6 96x51") == 1)
    }

    /// `i` where the info does not fit beside the title and the zoom (80
    /// columns cut it at "fit c…"): a row of its own above the status line,
    /// the picture a row shorter; `i` again gives the row back.
    @Test func theInfoLineTakesARowOfItsOwnWhenItMust() {
        let geometry = BackendGeometry(
            graphics: .sixel, windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16))
        let size = PixelSize(width: 1920, height: 1280)
        var state = ViewerState(
            photo: filePhoto(1, "IMG_20240412_101010.jpg"), fullSize: size, decodedSize: size,
            layout: ViewerLayout(screen: geometry),
            openedDirectly: true)
        let painter = ViewerPainter(
            image: gradient(),
            backend: testDrawing(.sixel, cells: geometry.windowCells, cell: geometry.cellPixels).makeBackend(
                resampler: Resampler(threads: 1)))
        _ = painter.frame(for: state)
        let fitted = state.layout
        _ = state.handle(key("i"))
        #expect(state.layout.infoRow == 22 && state.layout.imageArea.rows < fitted.imageArea.rows)
        let plan = ViewerPlan(state)
        #expect(plan.info == "1920x1280  fit contain  view 0,0 1920x1280" + String(repeating: " ", count: 38))
        #expect(plan.status.hasPrefix("IMG_20240412_101010.jpg  ") && plan.status.hasSuffix("  100% · ? keys · q quit"))
        let shown = painter.frame(for: state)
        #expect(shown.count(of: "\u{1B}[23;1H") == 1 && shown.count(of: "view 0,0 1920x1280") == 1)
        _ = state.handle(key("i"))
        #expect(state.layout == fitted && ViewerPlan(state).info == nil)
        #expect(painter.frame(for: state).count(of: "\u{1B}[23;1H") >= 1)  // its row erased, the picture back
        // 120 columns: room for it all on one line.
        var wide = ViewerState(
            photo: filePhoto(1, "IMG_20240412_101010.jpg"), fullSize: size, decodedSize: size,
            layout: ViewerLayout(
                screen: BackendGeometry(
                    graphics: .kitty, windowCells: CellCount(width: 120, height: 24), cellPixels: PixelSize(width: 8, height: 16))
            ),
            openedDirectly: true)
        _ = wide.handle(key("i"))
        #expect(wide.layout.infoRow == nil && ViewerPlan(wide).status.contains("fit contain  view 0,0 1920x1280"))
        // Whether it fits is judged with the zoom and an animation's frame
        // at their widest: the photo's largest zoom, the last frame stopped.
        let moving = ViewerState(
            photo: filePhoto(1, "IMG_20240412_101010.jpg"), fullSize: size, decodedSize: size, layout: wide.layout,
            openedDirectly: true, frameDelays: Array(repeating: 80, count: 12))
        #expect(ViewerPlan.rightText(wide, widest: true) == "5565% · ? keys · q quit")
        #expect(ViewerPlan.rightText(moving, widest: true) == "stopped 12/12 · 5565% · ? keys · q quit")
        #expect(ViewerPlan.rightText(moving) == "frame 1/12 · 100% · ? keys · q quit")
        // Whatever the width, an info line kept beside the zoom is never cut
        // as the zoom grows to the photo's largest.
        for columns in 90...130 {
            var state = ViewerState(
                photo: filePhoto(1, "IMG_20240412_101010.jpg"), fullSize: size, decodedSize: size,
                layout: ViewerLayout(
                    screen: BackendGeometry(
                        graphics: .kitty, windowCells: CellCount(width: columns, height: 24),
                        cellPixels: PixelSize(width: 8, height: 16))),
                openedDirectly: true)
            _ = state.handle(key("i"))
            guard state.layout.infoRow == nil else { continue }
            for _ in 0..<30 { _ = state.handle(key("+")) }
            #expect(!ViewerPlan(state).status.contains("…"), "\(columns) columns: \(ViewerPlan(state).status)")
        }
    }

    /// 40 columns: the message wins over the title and info, is cut with an
    /// ellipsis, and the zoom and the hint stay.
    @Test func messagesComeFirstAndTheZoomAndHintAlwaysShow() {
        var state = ViewerState(
            photo: filePhoto(1, "a-rather-long-photo-name.jpg"), fullSize: PixelSize(width: 96, height: 64),
            decodedSize: PixelSize(width: 96, height: 64), layout: ViewerLayout(screen: smallGeometry(.kitty)),
            openedDirectly: false)
        #expect(ViewerPlan(state).status == "a-rather-long-p…  100% · ? keys · q back")
        _ = state.handle(.message("saved pxview-a-rather-long-photo-name.jpg (12 KB)"))
        _ = state.handle(key("i"))
        _ = state.handle(.message("saved pxview-a-rather-long-photo-name.jpg (12 KB)"))
        #expect(ViewerPlan(state).status == "saved pxview-a-…  100% · ? keys · q back")
        #expect(TerminalText.displayWidth(ViewerPlan(state).status) == 40)
    }

    /// In a C locale the line is composed in ASCII: a name of accents and
    /// emoji is `?`s, the cut is `...`, the dots `-`, and it is exactly the
    /// window's width (a UTF-8 `…` drawn as three Latin-1 cells wrapped it).
    @Test func anASCIIStatusLineFitsTheWidth() {
        var state = ViewerState(
            photo: filePhoto(1, "café ☕ a-rather-long-photo-name.jpg"), fullSize: PixelSize(width: 96, height: 64),
            decodedSize: PixelSize(width: 96, height: 64), layout: ViewerLayout(screen: smallGeometry(.kitty)),
            openedDirectly: false, isFavourite: true)
        #expect(ViewerPlan(state, glyphs: .ascii).status == "caf? ? a-rath...  100% - ? keys - q back")
        _ = state.handle(key("i"))
        let status = ViewerPlan(state, glyphs: .ascii).status
        #expect(status.utf8.count == 40 && status.utf8.allSatisfy { $0 < 0x80 })
    }

    /// The grid in ASCII: the selected tile's frame is `+-|`, the likes `<3`.
    @Test func anASCIIGridFramesWithPlusMinusBar() {
        var state = BrowserState(layout: BrowserLayout(screen: smallGeometry(.kitty)), query: "", offline: false)
        _ = state.start()
        let hit = PixabayHit(
            id: 7, pageURL: "", type: "photo", tags: "été, ☕", previewURL: "", webformatURL: "", largeImageURL: "",
            imageWidth: 10, imageHeight: 10, likes: 3, userID: 1, user: "Zoë")
        _ = state.handle(
            .searchFinished(query: "", page: 1, result: .page(photos: [Photo(hit: hit)], totalHits: 1, totalPages: 1, note: nil)))
        let frame = BrowserPainter(backend: smallBackend(.kitty), glyphs: .ascii).frame(for: state, thumbnails: [:])
        #expect(!frame.contains { $0 >= 0x80 })
        #expect(frame.count(of: "+" + String(repeating: "-", count: state.layout.tileFrames[0].columns - 2) + "+") == 2)
        #expect(frame.count(of: "#7  10x10  by Zo?  <3 3") == 1)
        #expect(frame.count(of: "tags: ?t?, ?") == 1)
        #expect(frame.count(of: "1 of 1 - Images from Pixabay") == 1)
    }

    /// The text picture in a C locale: coloured spaces, one colour a cell.
    @Test func anASCIITextPictureIsColouredSpaces() {
        var drawing = testDrawing(.blocks, cells: smallCells, cell: smallCell)
        drawing.glyphs = .ascii
        let backend = drawing.makeBackend(resampler: Resampler(threads: 1))
        #expect(backend.screen.unitsPerCell == PixelSize(width: 1, height: 1))
        let red = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 9, 9, 9, 0])
        #expect(
            backend.inline(red, imageID: 1).lines
                == [Array("\u{1B}[0m\u{1B}[48;2;255;0;0m \u{1B}[49m \u{1B}[0m".utf8)])
        let frame = ViewerPainter(image: gradient(), backend: backend, glyphs: .ascii).frame(for: smallViewer(.blocks))
        #expect(!frame.contains { $0 >= 0x80 })
        #expect(frame.count(of: "\u{1B}[48;2;") > 100)
    }

    @Test func theHelpColumnsAlign() {
        let lines = ViewerState.helpLines
        // Every action starts in the same column, two cells after the widest keys.
        let widest = KeyHelp.viewer.map(\.keys.count).max() ?? 0
        #expect(lines.allSatisfy { $0.count > widest + 2 })
        #expect(lines.allSatisfy { String($0.dropFirst(widest + 2).prefix(1)) != " " })
        #expect(lines.allSatisfy { $0.prefix(widest + 2).hasSuffix("  ") })
        #expect(lines.first { $0.hasPrefix("z, double-click") } == "z, double-click  toggle 1x / 2x")
        #expect(lines.first { $0.hasPrefix("arrows") } == "arrows, h j k l  pan by a fifth of the view")
    }

    @Test func blocksDrawHalfBlocksOnly() {
        let state = smallViewer(.blocks)
        let painter = ViewerPainter(image: gradient(), backend: smallBackend(.blocks))
        let frame = painter.frame(for: state)
        #expect(frame.count(of: "▄") > 100)
        #expect(frame.count(of: "\u{1B}P") == 0 && frame.count(of: "\u{1B}_G") == 0)
    }

    @Test func placeholdersUploadTheViewAndWriteItsCells() {
        var state = smallViewer(.kittyPlaceholders)
        let backend = testDrawing(.kittyPlaceholders, cells: smallCells, cell: smallCell).makeBackend(
            resampler: Resampler(threads: 1))
        let painter = ViewerPainter(image: gradient(), backend: backend)
        let first = painter.frame(for: state)
        let high = 1 + 2 * (UInt32(getpid()) % 127)
        // The 272x176 canvas of cells 3...36, rows 0...10, as a virtual placement.
        #expect(first.count(of: "\u{1B}_Ga=p,U=1,i=\(1 | high << 24),p=1,c=34,r=11,q=2") == 1)
        let row0 = String(
            decoding: Array(KittyPlaceholders.row(imageID: 1 | high << 24, row: 0, columns: 34)), as: UTF8.self)
        #expect(first.count(of: "\u{1B}[1;4H" + row0) == 1)
        #expect(first.count(of: "\u{1B}[38;5;1m") == 11)
        _ = state.handle(key("-"))
        let smaller = painter.frame(for: state)
        // The next view goes under the slot's other id, so every cell's text
        // changes and the old view stays until the new cells arrive.
        let other = 1 | (high + 1) << 24
        #expect(smaller.count(of: ",U=1,") == 1)
        #expect(smaller.count(of: "\u{1B}_Ga=t,f=100,i=\(other),q=2") == 1)
        #expect(smaller.count(of: "\u{1B}_Ga=p,U=1,i=\(other),") == 1)
        #expect(smaller.count(of: "i=\(1 | high << 24),") == 0)
        #expect(smaller.count(of: "\u{1B}[1;4H\u{1B}[0m\u{1B}[34X") == 1)
        // The upload comes before any cell names it, the virtual placement
        // after them all (kitty draws placeholder cells again after a U=1 command).
        #expect(smaller.offset(of: "_Ga=t,")! < smaller.offset(of: "\u{10EEEE}")!)
        #expect(smaller.offset(of: "_Ga=p,U=1")! > smaller.offset(of: "\u{1B}[11;4H")!)
        // A little later the views are placed again (kitty sometimes showed
        // nothing until it drew the window again).
        #expect(backend.followUpDelaysMs == [150, 800])
        #expect(String(decoding: backend.followUp(), as: UTF8.self) == "\u{1B}_Ga=p,U=1,i=\(other),p=1,c=28,r=9,q=2\u{1B}\\")
        // A third view reuses the first id; leaving frees both.
        _ = state.handle(key("-"))
        #expect(painter.frame(for: state).count(of: "i=\(1 | high << 24),") == 2)
        let gone = painter.teardown()
        #expect(gone.count(of: "a=d,d=i,i=\(1 | high << 24),") == 1 && gone.count(of: "a=d,d=i,i=\(other),") == 1)
    }
}

@Suite struct BrowserPainterTests {
    /// 80x24 cells of 8x16 px, kitty: 3x2 tiles.
    /// 80x24 cells of 8x16 px drawn with `method`: 3x2 tiles.
    func grid(_ method: DrawingMethod, hits: Int) -> (BrowserState, BrowserPainter) {
        let cells = CellCount(width: 80, height: 24)
        let cell = PixelSize(width: 8, height: 16)
        var state = BrowserState(
            layout: BrowserLayout(screen: BackendGeometry(graphics: method, windowCells: cells, cellPixels: cell)),
            query: "", offline: true)
        _ = state.start()
        _ = state.handle(
            .searchFinished(
                query: "", page: 1,
                result: .page(photos: (1...hits).map(samplePhoto), totalHits: hits, totalPages: 1, note: "offline")))
        let backend = testDrawing(method, cells: cells, cell: cell).makeBackend(resampler: Resampler(threads: 1))
        return (state, BrowserPainter(backend: backend))
    }

    func kittyGrid(hits: Int) -> (BrowserState, BrowserPainter) { grid(.kitty, hits: hits) }

    @Test func slotsRedrawOnlyWhenTheirContentChanges() {
        var (state, painter) = kittyGrid(hits: 4)
        var thumbnails: [Int: RGBAImage] = [:]
        let first = painter.frame(for: state, thumbnails: thumbnails)
        #expect(first.count(of: "loading…") == 4)
        #expect(first.count(of: "1 of 4 · offline") == 1)
        #expect(first.count(of: "? keys · q quit") == 1)
        #expect(painter.frame(for: state, thumbnails: thumbnails).isEmpty)
        thumbnails[1] = gradient(width: 30, height: 20)
        _ = state.handle(.thumbnailFinished(id: 1, loaded: true))
        let arrived = painter.frame(for: state, thumbnails: thumbnails)
        // Uploaded once under the hit's own id, then placed at its own size.
        let id = 0x4000_0000 | 1
        #expect(arrived.count(of: "_Ga=t,") == 1)
        #expect(arrived.count(of: "_Ga=p,i=\(id),p=1,") == 1)
        _ = state.handle(press(.right))
        let moved = painter.frame(for: state, thumbnails: thumbnails)
        #expect(moved.count(of: "_Ga=t") == 0 && moved.count(of: "_Ga=p") == 0)
        #expect(moved.count(of: "#2  1920x1280  by user2") == 1)
        #expect(moved.count(of: "┌") == 1)
    }

    /// Moving the selection sends no pixel data: only the two changed
    /// frames (text). Scrolling re-places tiles kitty already holds.
    @Test func kittyUploadsEachTileOnceThenOnlyPlacesIt() {
        var (state, painter) = kittyGrid(hits: 12)
        let thumbnails = Dictionary(uniqueKeysWithValues: (1...12).map { ($0, gradient(width: 30 + $0, height: 20)) })
        for id in 1...12 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        let first = painter.frame(for: state, thumbnails: thumbnails)
        #expect(first.count(of: "_Ga=t,") == 6)
        _ = state.handle(press(.right))
        let moved = painter.frame(for: state, thumbnails: thumbnails)
        #expect(moved.count(of: "_G") == 0)
        #expect(moved.count(of: "┌") == 1 && moved.count(of: "└") == 1)
        // Down twice: the grid scrolls a row; three new tiles are uploaded,
        // three move up (placed again), three leave (placements deleted).
        _ = state.handle(press(.down))
        _ = painter.frame(for: state, thumbnails: thumbnails)
        _ = state.handle(press(.down))
        let scrolled = painter.frame(for: state, thumbnails: thumbnails)
        #expect(scrolled.count(of: "_Ga=t,") == 3)
        #expect(scrolled.count(of: "_Ga=p,") == 6)
        // Back up: every tile is already in kitty, only placed.
        _ = state.handle(press(.up))
        _ = state.handle(press(.up))
        let back = painter.frame(for: state, thumbnails: thumbnails)
        #expect(back.count(of: "_Ga=t,") == 0)
        #expect(back.count(of: "_Ga=p,") == 6)
        // Leaving for the viewer hides the tiles and keeps their uploads.
        let hidden = painter.teardown()
        #expect(hidden.count(of: "d=I") == 0 && hidden.count(of: "d=i") == 6)
    }

    /// A folder's thumbnail decoded again (larger tiles) is uploaded again
    /// under the same id, once; the others stay as they are.
    @Test func aReplacedThumbnailIsUploadedAgain() {
        var (state, painter) = kittyGrid(hits: 3)
        var thumbnails = Dictionary(uniqueKeysWithValues: (1...3).map { ($0, gradient(width: 30, height: 20)) })
        for id in 1...3 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        #expect(painter.frame(for: state, thumbnails: thumbnails).count(of: "_Ga=t,") == 3)
        thumbnails[2] = gradient(width: 60, height: 40)
        painter.thumbnailReplaced(id: 2)
        let again = painter.frame(for: state, thumbnails: thumbnails)
        // Tile 2, under its own id: uploaded (PNG through the pty) and placed.
        #expect(again.count(of: "_Ga=t,") == 1)
        #expect(again.count(of: "_Ga=t,f=100,i=\(0x4000_0000 | 2),") == 1)
        #expect(again.count(of: "_Ga=p,i=\(0x4000_0000 | 2),") == 1)
        #expect(painter.frame(for: state, thumbnails: thumbnails).isEmpty)
    }

    @Test func sixelSelectionMovesResendOnlyTwoFramesAndScrollingReusesEncodings() {
        var (state, painter) = grid(.sixel, hits: 12)
        let thumbnails = Dictionary(uniqueKeysWithValues: (1...12).map { ($0, gradient(width: 30 + $0, height: 20)) })
        for id in 1...12 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        let first = painter.frame(for: state, thumbnails: thumbnails)
        #expect(first.count(of: "\u{1B}P") == 6)
        _ = state.handle(press(.right))
        let moved = painter.frame(for: state, thumbnails: thumbnails)
        #expect(moved.count(of: "\u{1B}P") == 0)
        #expect(moved.count(of: "┌") == 1 && moved.count(of: "└") == 1)
        _ = state.handle(press(.down))
        _ = state.handle(press(.down))
        let scrolled = painter.frame(for: state, thumbnails: thumbnails)
        #expect(scrolled.count(of: "\u{1B}P") == 6)
        // The tile that moved up a row is the same bytes at its new place.
        let tile4 = first.sixels[3]
        #expect(scrolled.sixels.contains(tile4))
    }

    /// The selected tile's frame is written after its picture: Konsole
    /// hides text one column past a sixel's right edge when the text came
    /// first, so a frame drawn before its tile lost its right side.
    @Test func theSelectionsFrameComesAfterItsPicture() throws {
        var (state, painter) = grid(.sixel, hits: 3)
        _ = painter.frame(for: state, thumbnails: [:])
        let thumbnails = Dictionary(uniqueKeysWithValues: (1...3).map { ($0, gradient(width: 30, height: 20)) })
        for id in 1...3 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        let arrived = String(decoding: painter.frame(for: state, thumbnails: thumbnails), as: UTF8.self)
        let firstPicture = try #require(arrived.range(of: "\u{1B}P"))
        let frameAfter = try #require(arrived.range(of: "┌", range: firstPicture.upperBound..<arrived.endIndex))
        // Only the selection's frame, and before the next tile's picture.
        #expect(arrived.components(separatedBy: "┌").count == 2)
        #expect(arrived.range(of: "\u{1B}P", range: firstPicture.upperBound..<frameAfter.lowerBound) == nil)
    }

    /// `+`: every tile comes down and is drawn again, larger, at its new place.
    @Test func largerTilesAreDrawnAnew() {
        var (state, painter) = grid(.sixel, hits: 12)
        let thumbnails = Dictionary(uniqueKeysWithValues: (1...12).map { ($0, gradient(width: 96, height: 64)) })
        for id in 1...12 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        let first = painter.frame(for: state, thumbnails: thumbnails)
        #expect(first.count(of: "\u{1B}P") == 6)
        _ = state.handle(press("+"))
        let larger = painter.frame(for: state, thumbnails: thumbnails)
        #expect(larger.count(of: "\u{1B}P") == state.layout.tileFrames.count)
        #expect(painter.frame(for: state, thumbnails: thumbnails).count(of: "\u{1B}P") == 0)
    }

    /// A folder's tiles carry their file names, one line under each tile,
    /// cut in the middle, centred; `...` in ASCII. Pixabay's tiles have none.
    @Test func aFoldersTilesShowTheirNames() {
        let geometry = BackendGeometry(
            graphics: .sixel, windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16))
        let names = ["IMG_20240412_101010_the_longest.jpg", "b.png", "été.jpg"]
        var state = BrowserState(
            layout: BrowserLayout(screen: geometry, nameLines: true), query: "", offline: true, folder: "~/Pictures")
        _ = state.start()
        let photos = names.enumerated().map { filePhoto($0.offset + 1, $0.element, bytes: 0) }
        _ = state.handle(
            .searchFinished(query: "", page: 1, result: .page(photos: photos, totalHits: 3, totalPages: 1, note: nil)))
        #expect(state.layout.tileCells.width == 24)
        let backend = testDrawing(.sixel, cells: geometry.windowCells, cell: geometry.cellPixels).makeBackend()
        let frame = BrowserPainter(backend: backend).frame(for: state, thumbnails: [:])
        let name = state.layout.nameArea(slot: 0)!
        #expect(name.row == state.layout.tileFrames[0].row + state.layout.tileFrames[0].rows - 2)
        #expect(frame.count(of: "IMG_20240412…longest.jpg") == 1)
        #expect(frame.count(of: "         b.png") == 1)
        #expect(frame.count(of: "été.jpg") == 1)
        let ascii = BrowserPainter(backend: backend, glyphs: .ascii).frame(for: state, thumbnails: [:])
        #expect(ascii.count(of: "IMG_2024041...ongest.jpg") == 1 && ascii.count(of: "?t?.jpg") == 1)
        // Pixabay's grid: the tags only in the selection's details.
        let online = loadedBrowser(hits: 3, totalPages: 1)
        #expect(!online.layout.nameLines && online.layout.nameArea(slot: 0) == nil)
        #expect(BrowserPainter(backend: backend).frame(for: online, thumbnails: [:]).count(of: "tag1, sky") == 1)
    }

    /// Typing a long query keeps its end in sight, the cursor block last.
    @Test func theSearchFieldShowsTheEndOfALongQuery() {
        var state = BrowserState(layout: browserLayout(), query: "", offline: true)
        _ = state.handle(press("/"))
        let typed = "a very long query about red foxes in the snow at dawn near a lake"
        for character in typed { _ = state.handle(press(character)) }
        let header = BrowserPlan(state, hasPicture: { _ in false }).rows[0]?.text ?? ""
        #expect(header.hasPrefix("Search: …"))
        #expect(header.contains("near a lake█"))
        #expect(header.hasSuffix("Enter search · Esc cancel"))
        #expect(TerminalText.displayWidth(header) == 80)
    }

    @Test func untrustedTextCannotEscape() {
        var hit = sampleHit(9)
        hit.tags = "evil\u{1B}]0;pwned\u{07}, tag"
        hit.user = "x\u{1B}[2J"
        var state = BrowserState(layout: browserLayout(), query: "", offline: true)
        _ = state.start()
        _ = state.handle(
            .searchFinished(query: "", page: 1, result: .page(photos: [Photo(hit: hit)], totalHits: 1, totalPages: 1, note: nil)))
        let frame = BrowserPainter(
            backend: testDrawing(.sixel, cells: CellCount(width: 80, height: 24), cell: PixelSize(width: 10, height: 20))
                .makeBackend()
        )
        .frame(for: state, thumbnails: [:])
        #expect(frame.count(of: "\u{1B}]0") == 0)
        #expect(frame.count(of: "\u{1B}[2J") == 0)
        #expect(frame.count(of: "tags: evil\u{FFFD}]0;pwned\u{FFFD}, tag") == 1)
    }
}

/// The crop (x, y, w, h) of a frame's first kitty placement.
func kittyCrop(_ frame: [UInt8]) -> PixelRect? {
    let text = String(decoding: frame, as: UTF8.self)
    guard let start = text.range(of: "a=p,"), let end = text[start.upperBound...].firstIndex(of: "\u{1B}") else { return nil }
    var keys: [String: Int] = [:]
    for pair in text[start.upperBound..<end].split(separator: ",") {
        let parts = pair.split(separator: "=")
        if parts.count == 2, let value = Int(parts[1]) { keys[String(parts[0])] = value }
    }
    guard let x = keys["x"], let y = keys["y"], let w = keys["w"], let h = keys["h"] else { return nil }
    return PixelRect(x: x, y: y, width: w, height: h)
}

/// The images a frame uploads to kitty: id and pixel size, in order.
func kittyUploads(_ frame: [UInt8]) throws -> [(id: Int, size: PixelSize)] {
    var found: [(id: Int, size: PixelSize)] = []
    var data: [UInt8] = []
    var id: Int?
    // Only the graphics commands: the frame also moves the cursor and writes text.
    var apcs: [UInt8] = []
    var i = 0
    while i + 2 < frame.count {
        if frame[i] == 0x1B, frame[i + 1] == UInt8(ascii: "_"), frame[i + 2] == UInt8(ascii: "G"),
            let end = (i..<(frame.count - 1)).first(where: { frame[$0] == 0x1B && frame[$0 + 1] == UInt8(ascii: "\\") })
        {
            apcs += frame[i...(end + 1)]
            i = end + 2
        } else {
            i += 1
        }
    }
    for command in try KittyDecoder.commands(apcs) {
        if command.keys["a"] == "t" || command.keys["a"] == "T" {
            id = command.keys["i"].flatMap { Int($0) }
            data = []
        }
        guard let current = id else { continue }
        data += [UInt8](Data(base64Encoded: Data(command.payload)) ?? Data())
        if command.keys["m"] != "1" {
            if let width = command.keys["s"].flatMap({ Int($0) }), let height = command.keys["v"].flatMap({ Int($0) }) {
                found.append((current, PixelSize(width: width, height: height)))
            } else {
                found.append((current, try decodeImage(data).image.size))
            }
            id = nil
        }
    }
    return found
}

@Suite struct KittyRegionTests {
    let image = PixelSize(width: 6000, height: 4000)
    /// A 1200x800 view at a fifth of the image's pixels: 6000x4000 shown.
    let view = SourceRect(x: 2000, y: 1000, width: 1500, height: 1000)

    @Test func aRegionIsTheViewAndAQuarterOnEachSideAtTheOutputScale() {
        let region = KittyRegion.around(view, outputScale: 0.8, image: image)
        #expect(region.source == PixelRect(x: 1625, y: 750, width: 2250, height: 1500))
        #expect(region.size == PixelSize(width: 1800, height: 1200))
        #expect(region.show(view) == SourceRect(x: 300, y: 200, width: 1200, height: 800))
        // Never more pixels than the image has; cut at its edges.
        let corner = KittyRegion.around(SourceRect(x: 0, y: 0, width: 600, height: 400), outputScale: 2, image: image)
        #expect(corner.source == PixelRect(x: 0, y: 0, width: 750, height: 500))
        #expect(corner.size == PixelSize(width: 750, height: 500))
    }

    @Test func panningInsideTheMarginAndZoomingOutAStepKeepTheRegion() {
        let region = KittyRegion.around(view, outputScale: 0.8, image: image)
        func panned(_ fraction: Double) -> SourceRect {
            SourceRect(x: view.x + view.width * fraction, y: view.y, width: view.width, height: view.height)
        }
        #expect(region.covers(view, outputScale: 0.8))
        #expect(region.covers(panned(0.2), outputScale: 0.8))
        #expect(!region.covers(panned(0.4), outputScale: 0.8))
        // Zoom out a step (1.25) about the centre: held; two steps: too far out.
        let out = SourceRect(x: 2750 - 937.5, y: 1500 - 625, width: 1875, height: 1250)
        #expect(region.covers(out, outputScale: 0.64))
        #expect(!region.covers(view, outputScale: 0.8 / 1.5625))
        // Zooming in needs more pixels.
        #expect(!region.covers(SourceRect(x: 2150, y: 1100, width: 1200, height: 800), outputScale: 1.0))
        // Past the image's own pixels the region holds them all: zooming on is a placement.
        let full = KittyRegion.around(view, outputScale: 1.5, image: image)
        #expect(full.covers(SourceRect(x: 2300, y: 1200, width: 900, height: 600), outputScale: 2))
    }

    @Test func onlyImagesWellPastTheWindowUseRegions() {
        let window = PixelSize(width: 1200, height: 800)
        #expect(!KittyRegion.isWanted(image: PixelSize(width: 1920, height: 1280), window: window))
        #expect(KittyRegion.isWanted(image: image, window: window))
    }

    /// The viewer zoomed into a large picture: kitty gets the region, not
    /// the image; a pan inside the margin is one placement; a pan past it
    /// sends the next region under the slot's other region id and frees the
    /// old one after placing the new.
    @Test func theViewerUploadsRegionsOfALargePicture() throws {
        // 1200x880 in a 320x192-px window, regions from any size on (not 4 MP: debug builds are slow).
        let size = PixelSize(width: 1200, height: 880)
        var state = smallViewer(.kitty, size: size)
        let backend = KittyBackend(
            drawing: testDrawing(.kitty, cells: smallCells, cell: smallCell, traits: TerminalTraits(version: "kitty(0.26.5)")),
            resampler: Resampler(threads: 1), regionMinimumPixels: 0)
        let painter = ViewerPainter(image: RGBAImage(width: 1200, height: 880, fill: RGBA(r: 9, g: 99, b: 199)), backend: backend)
        #expect(try kittyUploads(painter.frame(for: state)).map(\.size) == [PixelSize(width: 240, height: 176)])
        for _ in 0..<4 { _ = state.handle(key("+")) }
        // At 2.44x the fit: 320x176 of output shows 524x288 of the image.
        let zoomed = painter.frame(for: state)
        let uploads = try kittyUploads(zoomed)
        #expect(uploads.map(\.id) == [0x2000_0000])
        #expect(uploads.allSatisfy { $0.size.width <= 482 && $0.size.height <= 266 }, "\(uploads)")
        #expect(zoomed.count(of: "a=p,i=\(0x2000_0000),p=1") == 1)
        _ = state.handle(key("l"))
        let panned = painter.frame(for: state)
        #expect(try kittyUploads(panned).isEmpty)
        #expect(panned.count(of: "a=p,i=\(0x2000_0000),p=1") == 1)
        // The crop moved right by a fifth of its width.
        let before = try #require(kittyCrop(zoomed))
        let after = try #require(kittyCrop(panned))
        #expect(abs(Double(after.x - before.x) - 0.2 * Double(before.width)) <= 1, "\(before) then \(after)")
        for _ in 0..<3 { _ = state.handle(key("l")) }
        let further = painter.frame(for: state)
        // The next region under the other id; the old one's data swapped for a pixel after.
        #expect(try kittyUploads(further).map(\.id) == [0x2000_0001, 0x2000_0000])
        let place = try #require(further.offset(of: "a=p,i=\(0x2000_0001),p=1"))
        let free = try #require(further.offset(of: "a=t,f=24,s=1,v=1,i=\(0x2000_0000)"))
        #expect(place < free)
        #expect(further.count(of: "d=I") == 0)
        // Back to the fit: the fitted copy uploaded first is placed again, nothing sent.
        _ = state.handle(key("0"))
        let fit = painter.frame(for: state)
        #expect(try kittyUploads(fit).isEmpty)
        #expect(fit.count(of: "a=p,i=2,p=1") == 1)
    }
}

@Suite struct SixelPanTests {
    /// A pan copies what stays in view and resamples the uncovered strip:
    /// the frame is the one drawn afresh, byte for byte.
    @Test func aPannedFrameIsTheFrameDrawnAfresh() throws {
        var state = smallViewer(.sixel, size: PixelSize(width: 96, height: 64))
        let backend = smallBackend(.sixel)
        let painter = ViewerPainter(image: gradient(), backend: backend)
        _ = painter.frame(for: state)
        for _ in 0..<3 { _ = state.handle(key("+")) }
        _ = painter.frame(for: state)
        for step in ["l", "j", "h", "k", "l"] {
            _ = state.handle(key(Character(step)))
            let panned = painter.frame(for: state).sixels
            let fresh = ViewerPainter(image: gradient(), backend: smallBackend(.sixel)).frame(for: state).sixels
            #expect(!panned.isEmpty)
            #expect(panned == fresh, "after \(step)")
        }
        let sixel = try #require(backend as? SixelBackend)
        #expect(sixel.reusedFrames == 5)
        // A zoom is not a pan.
        _ = state.handle(key("+"))
        _ = painter.frame(for: state)
        #expect(sixel.reusedFrames == 5)
    }

    @Test func onlyWholePixelPansOfTheSameScaleCount() {
        let screen = smallGeometry(.sixel)
        let area = CellRect(column: 0, row: 0, columns: 40, rows: 11)
        func canvas(x: Double, width: Double = 160) -> Canvas {
            Canvas(
                Picture(
                    image: gradient(), key: PictureKey(id: 1), source: SourceRect(x: x, y: 8, width: width, height: 88),
                    area: area, placement: PixelRect(x: 0, y: 0, width: 320, height: 176)),
                screen: screen)
        }
        #expect(canvas(x: 20).pan(from: canvas(x: 10)) == PixelPoint(x: 20, y: 0))
        #expect(canvas(x: 10.25).pan(from: canvas(x: 10)) == nil)
        #expect(canvas(x: 10, width: 150).pan(from: canvas(x: 10)) == nil)
        #expect(canvas(x: 180).pan(from: canvas(x: 10)) == nil)
    }
}

/// The view that stops moving is drawn again the settled way: sixel
/// diffuses it as `show` does, the other ways draw nothing new.
@Suite struct SettledPictureTests {
    static let sky = Banding.gradient(PixelSize(width: 480, height: 300))

    /// Zoomed in and back out, then left alone: the fitted sky's fast frame
    /// and its settled frame, and the view they show.
    func zoomOutAndSettle(_ method: DrawingMethod, image: RGBAImage = sky) -> (
        fast: [UInt8], settled: [UInt8], again: [UInt8], state: ViewerState, backend: any GraphicsBackend
    ) {
        var state = smallViewer(method, size: image.size)
        let backend = smallBackend(method)
        let painter = ViewerPainter(image: image, backend: backend)
        _ = state.handle(.input(.key(Key(.char("+"))), timeMs: 0))
        _ = painter.frame(for: state)
        _ = state.handle(.input(.key(Key(.char("-"))), timeMs: 50))
        let fast = painter.frame(for: state)
        _ = state.handle(.tick(timeMs: 50 + ViewerState.settleMs))
        let settled = painter.frame(for: state)
        return (fast, settled, painter.frame(for: state), state, backend)
    }

    /// The output part of a viewer frame's one sixel, as the terminal shows it.
    func shownOutput(_ frame: [UInt8], state: ViewerState, backend: any GraphicsBackend) throws -> RGBAImage {
        let sixel = try #require(frame.firstSixel)
        let canvas = Canvas(
            Picture.view(
                of: Self.sky, key: PictureKey(id: 1), viewport: state.viewport, area: state.layout.imageArea),
            screen: backend.screen)
        return try SixelDecoder.decode(sixel).image.cropped(
            to: PixelRect(
                x: canvas.outputOrigin.x, y: canvas.outputOrigin.y, width: canvas.output.width, height: canvas.output.height))
    }

    @Test func sixelRedrawsTheSettledSkyOnceWithNoMoreBandingThanShow() throws {
        let (fast, settled, again, state, backend) = zoomOutAndSettle(.sixel)
        #expect(fast.sixels.count == 1 && settled.sixels.count == 1)
        #expect(again.isEmpty)
        let view = Resampler(threads: 1).resample(
            Self.sky, from: state.viewport.sourceRect(inImageOf: Self.sky.size), to: state.viewport.outputSize)
        let reference = (0..<(view.width * view.height)).flatMap { i in (0..<3).map { Float(view.pixels[i * 4 + $0]) } }
        // `show --once` in the same terminal: as many registers.
        let show = Banding.index(
            try SixelDecoder.decode(
                SixelRenderer(options: .init(colorRegisters: backend.drawing.geometry.colorRegisters)).render(view)
            ).image, reference: reference)
        let fastIndex = Banding.index(try shownOutput(fast, state: state, backend: backend), reference: reference)
        let settledIndex = Banding.index(try shownOutput(settled, state: state, backend: backend), reference: reference)
        #expect(settledIndex <= show, "settled \(settledIndex), show \(show)")
        #expect(fastIndex > 1.5 * settledIndex, "fast \(fastIndex), settled \(settledIndex)")
    }

    /// A zoomed view settles with a palette of its own: every register
    /// goes to the colours it shows (the left, red half of a picture whose
    /// right half is blue), where the moving view uses the whole picture's.
    @Test func theSettledViewGetsAPaletteOfItsOwn() throws {
        var pixels: [UInt8] = []
        for y in 0..<300 {
            for x in 0..<480 {
                let t = UInt8((x % 240 + y) * 255 / 539)
                pixels += x < 240 ? [255, t, t / 2, 255] : [t / 2, t, 255, 255]
            }
        }
        let picture = RGBAImage(width: 480, height: 300, pixels: pixels)
        var state = smallViewer(.sixel, size: picture.size)
        let painter = ViewerPainter(image: picture, backend: smallBackend(.sixel))
        for code in [KeyCode.char("+"), .char("+"), .char("+"), .char("H")] {
            _ = state.handle(.input(.key(Key(code)), timeMs: 0))
        }
        let fast = try #require(painter.frame(for: state).firstSixel)
        _ = state.handle(.tick(timeMs: ViewerState.settleMs))
        let settled = try #require(painter.frame(for: state).firstSixel)
        let fastRegisters = try SixelDecoder.decode(fast).registers.count
        let settledRegisters = try SixelDecoder.decode(settled).registers.count
        #expect(2 * settledRegisters > 3 * fastRegisters, "settled \(settledRegisters), moving \(fastRegisters)")
    }

    @Test(arguments: [DrawingMethod.kitty, .blocks])
    func otherWaysDrawNothingNewWhenTheViewSettles(method: DrawingMethod) {
        let (fast, settled, _, _, _) = zoomOutAndSettle(method)
        #expect(!fast.isEmpty)
        #expect(settled.isEmpty)
    }

    @Test func exactColoursAreNotDrawnAgain() {
        let flat = RGBAImage(width: 96, height: 64, fill: RGBA(r: 255, g: 0, b: 0))
        let (fast, settled, _, _, _) = zoomOutAndSettle(.sixel, image: flat)
        #expect(fast.sixels.count == 1)
        #expect(settled.isEmpty)
    }
}
