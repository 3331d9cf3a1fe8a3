import Photos
import Pixabay
import Pixels
import Rendering
import Scaling
import Terminal
import TestSupport
import Testing

@testable import Explorer

/// A 120x40-cell window of 10x20-pixel cells: the picture gets 120x39 cells,
/// a 1200x780 view, and the 1920x1280 photo fits at 0.609.
func viewerLayout(_ graphics: DrawingMethod = .kitty) -> ViewerLayout {
    ViewerLayout(
        screen: BackendGeometry(
            graphics: graphics, windowCells: CellCount(width: 120, height: 40), cellPixels: PixelSize(width: 10, height: 20)))
}

/// The viewer on `photo`, by default the file storm.jpg.
func viewer(
    directly: Bool = true, photo: Photo = filePhoto(1, "storm.jpg"), decoded: PixelSize = PixelSize(width: 1920, height: 1280)
) -> ViewerState {
    ViewerState(
        photo: photo, fullSize: PixelSize(width: 1920, height: 1280), decodedSize: decoded,
        layout: viewerLayout(), openedDirectly: directly)
}

func key(_ character: Character) -> ViewerEvent { .input(.key(Key(.char(character))), timeMs: 0) }
func key(_ code: KeyCode, _ modifiers: Modifiers = []) -> ViewerEvent { .input(.key(Key(code, modifiers)), timeMs: 0) }
func mouse(_ kind: MouseEvent.Kind, x: Int, y: Int, at time: Int = 0) -> ViewerEvent {
    .input(.mouse(MouseEvent(kind: kind, x: x, y: y)), timeMs: time)
}

func sampleHit(_ id: Int) -> PixabayHit {
    PixabayHit(
        id: id, pageURL: "https://pixabay.com/photos/\(id)/", type: "photo", tags: "tag\(id), sky",
        previewURL: "p\(id)", previewWidth: 150, previewHeight: 100, webformatURL: "w\(id)", webformatWidth: 640,
        webformatHeight: 427, largeImageURL: "l\(id)", imageWidth: 1920, imageHeight: 1280, imageSize: 1000,
        views: 1, downloads: 1, collections: 0, likes: id % 100, comments: 0, userID: 7, user: "user\(id)",
        userImageURL: "")
}

/// `sampleHit(id)` as the explorer sees it.
func samplePhoto(_ id: Int) -> Photo { Photo(hit: sampleHit(id)) }

/// A local file of the folder grid or the files given to `show`, `id` its place.
func filePhoto(_ id: Int, _ name: String, bytes: Int = 1000) -> Photo {
    Photo(id: id, file: LocalFile(name: name, byteCount: bytes))
}

/// The image point (fraction) at the view's middle, which pinch steps must keep.
func centrePoint(_ state: ViewerState) -> (Double, Double) {
    let viewport = state.viewport
    let middle = viewport.outputPoint(fromViewPoint: (Double(viewport.viewSize.width) / 2, Double(viewport.viewSize.height) / 2))
    let point = viewport.imagePoint(atViewPoint: middle)
    return (point.x / Double(viewport.imageSize.width), point.y / Double(viewport.imageSize.height))
}

@Suite struct ViewerStateTests {
    /// `S` starts a slideshow: the first tick after it sets the time, the
    /// tick when it is due asks for the next photo (once an interval), `S`
    /// again stops it; the status line says it runs.
    @Test func sStartsAndStopsTheSlideshow() {
        var state = viewer()
        #expect(state.nextWakeMs(now: 0) == nil)
        _ = state.handle(.input(.key(Key(.char("S"))), timeMs: 1000))
        #expect(state.slideshowMs == 5000 && state.message == "slideshow: 5 s a photo")
        #expect(ViewerPlan(state).status.hasSuffix("slideshow 5 s · 100% · ? keys · q quit"))
        #expect(state.nextWakeMs(now: 1000) == 6000)
        #expect(state.handle(.tick(timeMs: 5999)).isEmpty)
        #expect(state.handle(.tick(timeMs: 6000)) == [.slideshowNext])
        #expect(state.handle(.tick(timeMs: 6001)).isEmpty && state.nextWakeMs(now: 6001) == 11000)
        _ = state.handle(.input(.key(Key(.char("S"))), timeMs: 7000))
        #expect(state.slideshowMs == nil && state.message == "slideshow stopped" && state.nextWakeMs(now: 7000) == nil)
        // A photo opened during a slideshow: its time starts at its first tick.
        var next = ViewerState(
            photo: filePhoto(2, "b.jpg"), fullSize: PixelSize(width: 1920, height: 1280),
            decodedSize: PixelSize(width: 1920, height: 1280), layout: viewerLayout(), openedDirectly: true, slideshowMs: 1500)
        #expect(next.nextWakeMs(now: 20000) == 20000)
        #expect(next.handle(.tick(timeMs: 20000)).isEmpty && next.nextWakeMs(now: 20000) == 21500)
        #expect(ViewerPlan(next).status.contains("slideshow 1.5 s"))
    }

    /// `g`/`G` ask for the first and last photo (issue 29, as in the grid);
    /// the status line says where the photo is among those `n` steps through.
    @Test func gAndGGoToTheEndsAndTheStatusSaysWhere() {
        var state = ViewerState(
            photo: filePhoto(2, "b.jpg"), fullSize: PixelSize(width: 1920, height: 1280),
            decodedSize: PixelSize(width: 1920, height: 1280), layout: viewerLayout(), openedDirectly: true,
            position: "2/3")
        #expect(state.handle(key("g")) == [.stepToEnd(last: false)])
        #expect(state.handle(key("G")) == [.stepToEnd(last: true)])
        #expect(ViewerPlan(state).status == "b.jpg" + String(repeating: " ", count: 87) + "2/3 · 100% · ? keys · q quit")
        #expect(!ViewerPlan(viewer()).status.contains("/"))
    }

    @Test func opensFittedAndCentred() {
        let state = viewer()
        #expect(state.viewport.zoom == 1)
        #expect(state.viewport.fit == .contain)
        #expect(state.viewport.viewSize == PixelSize(width: 1200, height: 780))
        #expect(state.viewport.outputSize == PixelSize(width: 1170, height: 780))
        #expect(state.viewport.placement.x == 15)
    }

    @Test func plusAndEqualsZoomByAQuarterAboutTheCentre() {
        var state = viewer()
        _ = state.handle(key("+"))
        #expect(abs(state.viewport.zoom - 1.25) < 1e-9)
        _ = state.handle(key(.right))  // off-centre, so the anchor matters
        let before = centrePoint(state)
        _ = state.handle(key("="))
        #expect(abs(state.viewport.zoom - 1.5625) < 1e-9)
        let after = centrePoint(state)
        #expect(abs(before.0 - after.0) < 1e-6 && abs(before.1 - after.1) < 1e-6)
    }

    @Test func minusZoomsOutAndZoomIsBounded() {
        var state = viewer()
        _ = state.handle(key("-"))
        #expect(abs(state.viewport.zoom - 0.8) < 1e-9)
        for _ in 0..<20 { _ = state.handle(key("-")) }
        #expect(state.viewport.zoom == Viewport.minZoom)
        for _ in 0..<60 { _ = state.handle(key("+")) }
        // 16 screen pixels per image pixel at most.
        #expect(abs(state.viewport.scale - 16) < 1e-9)
    }

    @Test func zTogglesOneAndTwoAndBack() {
        var state = viewer()
        _ = state.handle(key("z"))
        #expect(state.viewport.zoom == 2)
        _ = state.handle(key("z"))
        #expect(state.viewport.zoom == 1)
    }

    @Test func arrowsAndVimKeysPanByAFifthOfTheView() {
        var state = viewer()
        _ = state.handle(key("z"))
        let start = state.viewport.centerX
        _ = state.handle(key(.right))
        let step = 0.2 * 1200 / state.viewport.scale / 1920
        #expect(abs(state.viewport.centerX - (start + step)) < 1e-9)
        _ = state.handle(key("h"))
        #expect(abs(state.viewport.centerX - start) < 1e-9)
        _ = state.handle(key("l"))
        #expect(abs(state.viewport.centerX - (start + step)) < 1e-9)
        let top = state.viewport.centerY
        _ = state.handle(key("j"))
        #expect(state.viewport.centerY > top)
        _ = state.handle(key("k"))
        #expect(abs(state.viewport.centerY - top) < 1e-9)
        _ = state.handle(key(.down))
        _ = state.handle(key(.up))
        #expect(abs(state.viewport.centerY - top) < 1e-9)
        _ = state.handle(key(.left))
        #expect(abs(state.viewport.centerX - start) < 1e-9)
    }

    @Test func panningIsClamped() {
        var state = viewer()
        _ = state.handle(key("z"))
        for _ in 0..<20 { _ = state.handle(key(.right)) }
        #expect(state.viewport.sourceRect.x + state.viewport.sourceRect.width <= 1920 + 1e-9)
        // At fit nothing can pan.
        var fitted = viewer()
        _ = fitted.handle(key(.right))
        #expect(fitted.viewport.centerX == 0.5)
    }

    @Test func shiftedVimKeysJumpToTheEdges() {
        var state = viewer()
        _ = state.handle(key("z"))
        _ = state.handle(key("H"))
        #expect(abs(state.viewport.sourceRect.x) < 1e-9)
        _ = state.handle(key("L"))
        #expect(abs(state.viewport.sourceRect.x + state.viewport.sourceRect.width - 1920) < 1e-9)
        _ = state.handle(key("K"))
        #expect(abs(state.viewport.sourceRect.y) < 1e-9)
        _ = state.handle(key("J"))
        #expect(abs(state.viewport.sourceRect.y + state.viewport.sourceRect.height - 1280) < 1e-9)
    }

    @Test func zeroAndRResetToFitCentred() {
        for reset: Character in ["0", "r"] {
            var state = viewer()
            _ = state.handle(key("z"))
            _ = state.handle(key(.right))
            _ = state.handle(key(reset))
            #expect(state.viewport == viewer().viewport)
        }
    }

    @Test func fCyclesContainCoverActual() {
        var state = viewer()
        _ = state.handle(key("f"))
        #expect(state.viewport.fit == .cover)
        #expect(state.message == "fit: cover")
        _ = state.handle(key("f"))
        #expect(state.viewport.fit == .actual)
        #expect(state.viewport.scale == 1)
        _ = state.handle(key("f"))
        #expect(state.viewport.fit == .contain)
    }

    @Test func iTogglesInfoAndQuestionMarkShowsHelpUntilAnyKey() {
        var state = viewer()
        _ = state.handle(key("i"))
        #expect(state.showInfo)
        _ = state.handle(key("?"))
        #expect(state.showHelp)
        // The key that closes the help does nothing else, even q.
        #expect(state.handle(key("q")) == [])
        #expect(!state.showHelp)
        _ = state.handle(key("i"))
        #expect(!state.showInfo)
    }

    @Test func saveAndFavouriteAreEffects() {
        var state = viewer(photo: samplePhoto(5))
        #expect(state.handle(key("s")) == [.save(folder: nil)])
        #expect(state.handle(key("*")) == [.toggleFavourite])
        _ = state.handle(.favouriteChanged(isFavourite: true))
        #expect(state.isFavourite)
        var file = viewer()
        #expect(file.handle(key("*")) == [])
        #expect(file.message == "favourites are for Pixabay images")
        // The title is the photo's: `#ID`, or the file's name, whatever it looks like.
        #expect(state.title == "#5" && file.title == "storm.jpg")
        var named = viewer(photo: filePhoto(42, "pixabay-42.jpg"))
        #expect(named.title == "pixabay-42.jpg")
        #expect(named.handle(key("*")) == [])
        // A file's copy goes where the user says (`ViewerQuestionTests`).
        #expect(named.handle(key("s")) == [] && named.question == .saveFolder(""))
        // The 3rd file of a folder is not Pixabay's photo 3, a favourite or not.
        let third = ViewerState(
            photo: filePhoto(3, "c.jpg"), fullSize: PixelSize(width: 10, height: 10),
            decodedSize: PixelSize(width: 10, height: 10),
            layout: viewerLayout(), openedDirectly: false, isFavourite: true)
        #expect(!third.isFavourite)
    }

    @Test func qAndEscapeCloseOrQuit() {
        var direct = viewer(directly: true)
        #expect(direct.handle(key("q")) == [.quit])
        #expect(direct.handle(key(.escape)) == [.quit])
        var fromBrowser = viewer(directly: false)
        #expect(fromBrowser.handle(key("q")) == [.close])
        #expect(fromBrowser.handle(key(.escape)) == [.close])
        #expect(fromBrowser.handle(key(.char("c"), .control)) == [.quit])
    }

    @Test func wheelZoomsAboutThePointer() {
        var state = viewer()
        // Cell (31, 11) 1-based: its middle is view point (305, 210).
        let before = state.viewport.imagePoint(atViewPoint: state.viewport.outputPoint(fromViewPoint: (305, 210)))
        _ = state.handle(mouse(.wheelUp, x: 31, y: 11))
        #expect(abs(state.viewport.zoom - 1.25) < 1e-9)
        let after = state.viewport.imagePoint(atViewPoint: state.viewport.outputPoint(fromViewPoint: (305, 210)))
        #expect(abs(before.x - after.x) < 1e-6 && abs(before.y - after.y) < 1e-6)
        _ = state.handle(mouse(.wheelDown, x: 31, y: 11))
        #expect(abs(state.viewport.zoom - 1) < 1e-9)
    }

    @Test func doubleClickTogglesAtThePointButSlowClicksDoNot() {
        var state = viewer()
        _ = state.handle(mouse(.press(.left), x: 31, y: 11, at: 1000))
        _ = state.handle(mouse(.release(.left), x: 31, y: 11, at: 1050))
        _ = state.handle(mouse(.press(.left), x: 31, y: 11, at: 1200))
        #expect(state.viewport.zoom == 2)
        let anchor = state.viewport.imagePoint(atViewPoint: state.viewport.outputPoint(fromViewPoint: (305, 210)))
        let fitted = viewer().viewport
        let original = fitted.imagePoint(atViewPoint: fitted.outputPoint(fromViewPoint: (305, 210)))
        #expect(abs(anchor.x - original.x) < 1e-6 && abs(anchor.y - original.y) < 1e-6)
        var slow = viewer()
        _ = slow.handle(mouse(.press(.left), x: 31, y: 11, at: 1000))
        _ = slow.handle(mouse(.press(.left), x: 31, y: 11, at: 2000))
        #expect(slow.viewport.zoom == 1)
    }

    @Test func dragPansTheImageWithThePointer() {
        var state = viewer()
        _ = state.handle(key("z"))
        let start = state.viewport.centerX
        _ = state.handle(mouse(.press(.left), x: 60, y: 20))
        _ = state.handle(mouse(.drag(.left), x: 50, y: 20))
        // Pulling the picture 10 cells left shows 100 screen pixels more on the right.
        #expect(abs(state.viewport.centerX - (start + 100 / state.viewport.scale / 1920)) < 1e-9)
        _ = state.handle(mouse(.release(.left), x: 50, y: 20))
        _ = state.handle(mouse(.drag(.left), x: 40, y: 20))
        #expect(abs(state.viewport.centerX - (start + 100 / state.viewport.scale / 1920)) < 1e-9)
    }

    @Test func zoomBeyondTheDecodedPixelsAsksForTheFullImageOnce() {
        // Decoded at 2/3: at fit 0.61 x 1.5 = 0.91 screen px per decoded px.
        var state = viewer(decoded: PixelSize(width: 1280, height: 853))
        #expect(state.handle(key("i")) == [])
        #expect(state.handle(key("+")) == [.needFullResolution])
        #expect(state.handle(key("+")) == [])
        _ = state.handle(.fullResolutionDecoded(PixelSize(width: 1920, height: 1280)))
        #expect(state.decodedSize == PixelSize(width: 1920, height: 1280))
        // A full decode never asks.
        var full = viewer()
        for _ in 0..<10 { #expect(full.handle(key("+")) == []) }
    }

    @Test func resizeKeepsZoomAndCentre() {
        var state = viewer()
        _ = state.handle(key("z"))
        _ = state.handle(key(.right))  // off-centre, so a reset centre would show
        let centre = (state.viewport.centerX, state.viewport.centerY)
        #expect(centre.0 != 0.5)
        let smaller = ViewerLayout(
            screen: BackendGeometry(
                graphics: .kitty, windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 10, height: 20)))
        _ = state.handle(.resized(smaller))
        #expect(state.viewport.zoom == 2)
        #expect(state.viewport.viewSize == PixelSize(width: 800, height: 460))
        #expect(abs(state.viewport.centerX - centre.0) < 1e-9 && abs(state.viewport.centerY - centre.1) < 1e-9)
    }
}

@Suite struct ViewerLayoutTests {
    @Test func aCappedViewIsCentredInTheWindow() {
        // xterm: 120x40 cells of 9x19 px, sixel pictures at most 1000x1000.
        let drawing = DrawingPlan(
            method: .sixel,
            geometry: TerminalGeometry(
                windowCells: CellCount(width: 120, height: 40), cellPixels: PixelSize(width: 9, height: 19),
                sixelMaxSize: PixelSize(width: 1000, height: 1000)))
        let layout = ViewerLayout(screen: drawing.makeBackend().screen)
        #expect(layout.imageArea == CellRect(column: 4, row: 0, columns: 112, rows: 39))
        #expect(layout.viewSize == PixelSize(width: 1000, height: 741))
        #expect(layout.statusRow == 39)
        // Uncapped, the view is the window less the status row.
        let kitty = ViewerLayout(
            screen: BackendGeometry(
                graphics: .kitty, windowCells: CellCount(width: 120, height: 40), cellPixels: PixelSize(width: 9, height: 18)))
        #expect(kitty.imageArea == CellRect(column: 0, row: 0, columns: 120, rows: 39))
    }
}

@Suite struct CellSizeReportTests {
    @Test func aCellSizeReportIsReadAndNothingElseIs() {
        // The decoder hands the loop `CSI 6 ; h ; w t` as an unknown sequence.
        var decoder = InputDecoder()
        let events = decoder.feed(Array("\u{1B}[6;18;9t".utf8))
        guard case .unknown(let bytes)? = events.first else {
            Issue.record("not an unknown sequence: \(events)")
            return
        }
        #expect(cellSizeReport(bytes) == PixelSize(width: 9, height: 18))
        #expect(cellSizeReport(Array("\u{1B}[4;630;900t".utf8)) == nil)
        #expect(cellSizeReport(Array("\u{1B}[A".utf8)) == nil)
    }
}

/// Settle-then-diffuse: a view that keeps moving draws fast, the view that
/// stops is drawn again as `show` draws it. Times come from the test clock,
/// in the milliseconds the loop's events carry.
@Suite struct ViewerSettleTests {
    let clock = TestClock()
    var now: Int { Int((clock.now.timeIntervalSince1970 * 1000).rounded()) }

    func press(_ code: KeyCode, _ state: inout ViewerState) {
        _ = state.handle(.input(.key(Key(code)), timeMs: now))
    }

    /// What the loop does when it wakes: a tick once the wake-up is due.
    func wake(after seconds: Double, _ state: inout ViewerState) {
        clock.advance(by: seconds)
        if let due = state.nextWakeMs(now: now), due <= now { _ = state.handle(.tick(timeMs: now)) }
    }

    @Test func aViewJustOpenedIsSettledAndAsksForNoWakeUp() {
        let state = viewer()
        #expect(state.drawsSettled)
        #expect(state.nextWakeMs(now: now) == nil)
    }

    @Test func heldKeysDrawFastAndTheViewSettlesAfterTheLast() {
        var state = viewer()
        press(.char("+"), &state)
        #expect(!state.drawsSettled)
        #expect(state.nextWakeMs(now: now) == now + ViewerState.settleMs)
        // A held key repeats every 40 ms: each push puts the settling off.
        for _ in 0..<6 {
            wake(after: 0.04, &state)
            press(.char("+"), &state)
            #expect(!state.drawsSettled)
        }
        let last = now
        #expect(state.nextWakeMs(now: now) == last + ViewerState.settleMs)
        wake(after: Double(ViewerState.settleMs - 1) / 1000, &state)
        #expect(!state.drawsSettled)
        wake(after: 0.001, &state)
        #expect(state.drawsSettled)
        #expect(state.settlesAtMs == nil && state.nextWakeMs(now: now) == nil)
    }

    @Test func keysThatLeaveTheViewAloneKeepItSettled() {
        var state = viewer()
        // The info line, the help, and a pan the fitted view cannot make.
        for code in [KeyCode.char("i"), .char("?"), .char("x"), .left] {
            press(code, &state)
            #expect(state.drawsSettled, "after \(code)")
        }
        press(.char("+"), &state)
        press(.char("i"), &state)
        #expect(!state.drawsSettled)
    }

    @Test func aPlayingAnimationDrawsFastAndAPausedOneSettles() {
        var state = ViewerState(
            photo: filePhoto(1, "anim.gif"), fullSize: PixelSize(width: 400, height: 250),
            decodedSize: PixelSize(width: 400, height: 250),
            layout: viewerLayout(), openedDirectly: true, frameDelays: Array(repeating: 80, count: 12), plays: 0)
        _ = state.handle(.tick(timeMs: now))
        #expect(state.isSettled && !state.drawsSettled)
        _ = state.handle(.input(.key(Key(.char("a"), .control)), timeMs: now))
        #expect(state.drawsSettled)
        // Stepping a frame moves the picture: fast, then settled again.
        press(.char("."), &state)
        #expect(!state.drawsSettled && state.nextWakeMs(now: now) == now + ViewerState.settleMs)
        wake(after: Double(ViewerState.settleMs) / 1000, &state)
        #expect(state.drawsSettled)
    }
}
