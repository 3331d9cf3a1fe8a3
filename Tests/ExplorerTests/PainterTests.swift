import Pixabay
import Rendering
import Pixels
import Terminal
import Testing

@testable import Explorer

/// A 40x12-cell window of 8x16-px cells: the viewer's view is 320x176 px.
func smallGeometry(_ graphics: GraphicsProtocol) -> ScreenGeometry {
    ScreenGeometry(graphics: graphics, windowCells: PixelSize(width: 40, height: 12), cellPixels: PixelSize(width: 8, height: 16))
}

/// A 96x64 gradient, small enough for debug builds.
func gradient(width: Int = 96, height: Int = 64) -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width { pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), 128, 255] }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

func smallViewer(_ graphics: GraphicsProtocol) -> ViewerState {
    ViewerState(
        title: "g.png", fullSize: PixelSize(width: 96, height: 64), decodedSize: PixelSize(width: 96, height: 64),
        layout: ViewerLayout(geometry: smallGeometry(graphics)), openedDirectly: true)
}

extension Array where Element == UInt8 {
    func count(of text: String) -> Int {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return 0 }
        return (0...(count - needle.count)).filter { self[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }
}

@Suite struct ViewerPainterTests {
    @Test func kittyTransmitsOnceThenOnlyReplacesWithACrop() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), geometry: smallGeometry(.kitty))
        let first = painter.frame(for: state)
        #expect(first.count(of: "\u{1B}_Ga=t,") == 1)
        // Fit: 96x64 at 2.75 = 264x176 px from x = 28: cells 3 to 36 (0-based), 34 of them.
        #expect(first.count(of: "\u{1B}[1;4H\u{1B}_Ga=p,i=1,p=1,c=34,r=11,x=0,y=0,w=96,h=64,C=1,q=2\u{1B}\\") == 1)
        _ = state.handle(key("z"))
        let zoomed = painter.frame(for: state)
        #expect(zoomed.count(of: "a=t") == 0)
        #expect(zoomed == Array("\u{1B}[1;1H\u{1B}_Ga=p,i=1,p=1,c=40,r=11,x=18,y=16,w=58,h=32,C=1,q=2\u{1B}\\".utf8))
        #expect(painter.teardown() == Array("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\".utf8))
    }

    @Test func kittyHelpHidesThePlacementAndComesBack() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), geometry: smallGeometry(.kitty))
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

    @Test func sixelRedrawsTheViewAndErasesWhatAShrunkPictureLeft() {
        var state = smallViewer(.sixel)
        let painter = ViewerPainter(image: gradient(), geometry: smallGeometry(.sixel), resampler: .init(threads: 1))
        let first = painter.frame(for: state)
        #expect(first.count(of: "\u{1B}P0;1;0q") >= 1)
        // An unchanged view is not encoded again.
        _ = state.handle(key(.left))
        #expect(painter.frame(for: state).count(of: "\u{1B}P") == 0)
        _ = state.handle(key("-"))
        let smaller = painter.frame(for: state)
        #expect(smaller.count(of: "\u{1B}P0;1;0q") >= 1)
        // Rows 1 and 11 (1-based) are outside the 0.8x picture: erased whole.
        #expect(smaller.count(of: "\u{1B}[1;1H\u{1B}[0m\u{1B}[40X") == 1)
        #expect(smaller.count(of: "\u{1B}[11;1H\u{1B}[0m\u{1B}[40X") == 1)
    }

    @Test func statusLineIsWrittenOnlyWhenItChanges() {
        var state = smallViewer(.kitty)
        let painter = ViewerPainter(image: gradient(), geometry: smallGeometry(.kitty))
        #expect(painter.frame(for: state).count(of: "? keys") == 1)
        _ = state.handle(key("+"))
        #expect(painter.frame(for: state).count(of: "? keys") == 0)
        _ = state.handle(key("i"))
        #expect(painter.frame(for: state).count(of: "g.png  96x64  zoom 1.25x  fit contain  …") == 1)
    }

    @Test func blocksDrawHalfBlocksOnly() {
        let state = smallViewer(.blocks)
        let painter = ViewerPainter(image: gradient(), geometry: smallGeometry(.blocks), resampler: .init(threads: 1))
        let frame = painter.frame(for: state)
        #expect(frame.count(of: "▀") > 100)
        #expect(frame.count(of: "\u{1B}P") == 0 && frame.count(of: "\u{1B}_G") == 0)
    }
}

@Suite struct BrowserPainterTests {
    @Test func slotsRedrawOnlyWhenTheirContentChanges() {
        var state = BrowserState(
            layout: BrowserLayout(geometry: ScreenGeometry(
                graphics: .kitty, windowCells: PixelSize(width: 100, height: 20), cellPixels: PixelSize(width: 8, height: 16))),
            query: "", offline: true)
        _ = state.start()
        _ = state.handle(.searchFinished(
            query: "", page: 1, result: .page(hits: (1...4).map(sampleHit), totalHits: 4, totalPages: 1, note: "offline")))
        let painter = BrowserPainter(geometry: state.layout.geometry)
        var thumbnails: [Int: RGBAImage] = [:]
        let first = painter.frame(for: state, thumbnails: thumbnails)
        #expect(first.count(of: "loading…") == state.layout.slots.count)
        #expect(first.count(of: "page 1 of 1, 4 hits · offline") == 1)
        #expect(painter.frame(for: state, thumbnails: thumbnails).isEmpty)
        thumbnails[1] = gradient(width: 30, height: 20)
        _ = state.handle(.thumbnailFinished(id: 1, loaded: true))
        let arrived = painter.frame(for: state, thumbnails: thumbnails)
        #expect(arrived.count(of: "_Ga=T,") == 1)
        #expect(arrived.count(of: "i=100,") == 1)
        _ = state.handle(press(.right))
        let moved = painter.frame(for: state, thumbnails: thumbnails)
        #expect(moved.count(of: "_Ga=T") == 0)
        #expect(moved.count(of: "#2  1920x1280  by user2") == 1)
        #expect(moved.count(of: "┌") == 1)
        #expect(state.layout.slots.count == 3)
    }

    @Test func untrustedTextCannotEscape() {
        var hit = sampleHit(9)
        hit.tags = "evil\u{1B}]0;pwned\u{07}, tag"
        hit.user = "x\u{1B}[2J"
        var state = BrowserState(layout: browserLayout(), query: "", offline: true)
        _ = state.handle(.searchFinished(query: "", page: 1, result: .page(hits: [hit], totalHits: 1, totalPages: 1, note: nil)))
        let frame = BrowserPainter(geometry: state.layout.geometry).frame(for: state, thumbnails: [:])
        #expect(frame.count(of: "\u{1B}]0") == 0)
        #expect(frame.count(of: "\u{1B}[2J") == 0)
        #expect(frame.count(of: "tags: evil\u{FFFD}]0;pwned\u{FFFD}, tag") == 1)
    }
}
