import GraphicsReadback
import Pixels
import Rendering
import Scaling
import Terminal
import Testing

@testable import Explorer

/// The animation clock: times in, frames and wake-ups out, exactly.
@Suite struct AnimationStateTests {
    /// Three frames of 100, 200 and 300 ms, played twice.
    func clock(plays: Int = 2) -> AnimationState { AnimationState(delays: [100, 200, 300], plays: plays) }

    @Test func theFirstTickStartsTheClockOnFrameZero() {
        var clock = clock()
        #expect(clock.wakeTime(now: 5000) == 5000)
        let moved1 = clock.advance(to: 5000)
        #expect(!moved1)
        #expect(clock.frame == 0)
        #expect(clock.deadline == 5100)
        #expect(clock.wakeTime(now: 5050) == 5100)
    }

    @Test func framesShowForTheirDelaysCountedFromWhenTheyWereDue() {
        var clock = clock()
        clock.advance(to: 0)
        let moved2 = clock.advance(to: 99)
        #expect(!moved2)
        let moved3 = clock.advance(to: 100)
        #expect(moved3 && clock.frame == 1 && clock.deadline == 300)
        // Drawn late (at 340): frame 2 is still due at 300 + 300, not 340 + 300.
        let moved4 = clock.advance(to: 340)
        #expect(moved4 && clock.frame == 2 && clock.deadline == 600)
        let moved5 = clock.advance(to: 600)
        #expect(moved5 && clock.frame == 0 && clock.completedPlays == 1 && clock.deadline == 700)
    }

    @Test func aSlowDrawSkipsFramesToKeepThePace() {
        var clock = clock(plays: 0)
        clock.advance(to: 0)
        // At 450 ms frames 0 (to 100) and 1 (to 300) are over: frame 2 shows, due at 600.
        let moved6 = clock.advance(to: 450)
        #expect(moved6 && clock.frame == 2 && clock.deadline == 600)
    }

    @Test func moreThanAPassBehindItStartsAfresh() {
        var clock = clock(plays: 0)
        clock.advance(to: 0)
        // A process stopped for 10 s: one step on, timed from now.
        let moved7 = clock.advance(to: 10_000)
        #expect(moved7 && clock.frame == 1 && clock.deadline == 10_200)
    }

    @Test func itStopsOnTheLastFrameAfterItsPlays() {
        var clock = clock(plays: 2)
        clock.advance(to: 0)
        for time in [100, 300, 600, 700, 900] { clock.advance(to: time) }
        #expect(clock.frame == 2 && clock.completedPlays == 1 && clock.deadline == 1200)
        let moved8 = clock.advance(to: 1200)
        #expect(!moved8)
        #expect(clock.isFinished && clock.frame == 2 && clock.completedPlays == 2)
        #expect(clock.deadline == nil && clock.wakeTime(now: 1300) == nil)
        let moved9 = clock.advance(to: 5000)
        #expect(!moved9 && clock.frame == 2)
        // Toggling plays every pass again from the start.
        clock.togglePause(at: 6000)
        #expect(!clock.isFinished && clock.frame == 0 && clock.completedPlays == 0 && clock.deadline == 6100)
    }

    @Test func zeroPlaysLoopForEver() {
        var clock = clock(plays: 0)
        clock.advance(to: 0)
        var time = 0
        for _ in 0..<300 {
            time += clock.delays[clock.frame]
            let moved = clock.advance(to: time)
            #expect(moved)
        }
        #expect(clock.completedPlays == 100 && clock.frame == 0 && !clock.isFinished)
    }

    @Test func pausingStopsTheClockAndResumingGivesTheFrameItsWholeDelay() {
        var clock = clock()
        clock.advance(to: 0)
        clock.advance(to: 150)
        clock.togglePause(at: 250)
        #expect(clock.isPaused && clock.frame == 1 && clock.wakeTime(now: 250) == nil)
        let moved10 = clock.advance(to: 9000)
        #expect(!moved10 && clock.frame == 1)
        clock.togglePause(at: 10_000)
        #expect(!clock.isPaused && clock.deadline == 10_200)
        let moved11 = clock.advance(to: 10_200)
        #expect(moved11 && clock.frame == 2)
    }

    @Test func steppingPausesAndWraps() {
        var clock = clock()
        clock.advance(to: 0)
        clock.step(-1)
        #expect(clock.isPaused && clock.frame == 2 && clock.deadline == nil)
        clock.step(1)
        clock.step(1)
        #expect(clock.frame == 1)
        clock.togglePause(at: 500)
        #expect(clock.deadline == 700)
    }
}

/// The viewer with an animation: its keys, its ticks, its status line.
@Suite struct ViewerAnimationTests {
    func animated(plays: Int = 0) -> ViewerState {
        ViewerState(
            photo: filePhoto(1, "anim.gif"), fullSize: PixelSize(width: 400, height: 250),
            decodedSize: PixelSize(width: 400, height: 250),
            layout: viewerLayout(), openedDirectly: true, frameDelays: Array(repeating: 80, count: 12), plays: plays)
    }

    let ctrlA = ViewerEvent.input(.key(Key(.char("a"), .control)), timeMs: 1000)

    @Test func ticksPlayItAtTheFilesPace() {
        var state = animated()
        #expect(state.nextWakeMs(now: 0) == 0)
        _ = state.handle(.tick(timeMs: 0))
        #expect(state.frameIndex == 0 && state.nextWakeMs(now: 1) == 80)
        _ = state.handle(.tick(timeMs: 80))
        _ = state.handle(.tick(timeMs: 165))
        #expect(state.frameIndex == 2 && state.nextWakeMs(now: 165) == 240)
        #expect(ViewerPlan(state).status.hasSuffix("frame 3/12 · 100% · ? keys · q quit"))
    }

    @Test func ctrlAPausesAndResumesAndCommaAndDotStep() {
        var state = animated()
        _ = state.handle(.tick(timeMs: 0))
        _ = state.handle(.tick(timeMs: 80))
        #expect(state.handle(ctrlA) == [])
        #expect(state.animation?.isPaused == true && state.nextWakeMs(now: 1000) == nil)
        #expect(ViewerPlan(state).status.hasSuffix("paused 2/12 · 100% · ? keys · q quit"))
        _ = state.handle(key("."))
        _ = state.handle(key("."))
        #expect(state.frameIndex == 3)
        _ = state.handle(key(","))
        _ = state.handle(key(","))
        _ = state.handle(key(","))
        _ = state.handle(key(","))
        #expect(state.frameIndex == 11)
        // The stepped frame settles (it is drawn again diffused), then plays on.
        #expect(state.nextWakeMs(now: 0) == ViewerState.settleMs)
        _ = state.handle(.tick(timeMs: ViewerState.settleMs))
        _ = state.handle(.input(.key(Key(.char("a"), .control)), timeMs: 2000))
        #expect(state.animation?.isPaused == false && state.nextWakeMs(now: 2000) == 2080)
        _ = state.handle(.tick(timeMs: 2080))
        #expect(state.frameIndex == 0)
    }

    @Test func playsAsTheFileSaysThenStops() {
        var state = animated(plays: 1)
        var time = 0
        _ = state.handle(.tick(timeMs: time))
        while let wake = state.nextWakeMs(now: time) {
            time = wake
            _ = state.handle(.tick(timeMs: time))
        }
        #expect(time == 12 * 80 && state.frameIndex == 11)
        #expect(ViewerPlan(state).status.hasSuffix("stopped 12/12 · 100% · ? keys · q quit"))
    }

    @Test func zoomPanAndOneTwoWorkWhilePlaying() {
        var state = animated()
        _ = state.handle(.tick(timeMs: 0))
        _ = state.handle(key("z"))
        _ = state.handle(.tick(timeMs: 80))
        _ = state.handle(key(.right))
        _ = state.handle(.tick(timeMs: 160))
        #expect(abs(state.viewport.zoom - 2) < 1e-9)
        #expect(state.frameIndex == 2)
        #expect(state.viewport.centerX > 0.5)
        #expect(state.animation?.isPaused == false && state.nextWakeMs(now: 160) == 240)
    }

    @Test func aStillImageHasNoClock() {
        var state = viewer()
        #expect(state.animation == nil && state.nextWakeMs(now: 0) == nil)
        _ = state.handle(.input(.key(Key(.char("a"), .control)), timeMs: 0))
        #expect(state.message == "not an animation")
        _ = state.handle(key("."))
        #expect(state.message == "not an animation" && state.frameIndex == 0)
        #expect(ViewerPlan(state).status.hasSuffix(" 100% · ? keys · q quit"))
    }
}

/// An animation through the painter: each frame its own picture, drawn in
/// turn; zooming while it plays re-places, and leaving removes it all.
@Suite struct AnimatedPainterTests {
    let colours = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 200, b: 0), RGBA(r: 0, g: 0, b: 255)]
    var frames: [RGBAImage] { colours.map { RGBAImage(width: 96, height: 64, fill: $0) } }

    func animatedViewer(_ graphics: DrawingMethod) -> ViewerState {
        ViewerState(
            photo: filePhoto(1, "a.gif"), fullSize: PixelSize(width: 96, height: 64),
            decodedSize: PixelSize(width: 96, height: 64),
            layout: ViewerLayout(screen: smallGeometry(graphics)), openedDirectly: true, frameDelays: [100, 100, 100],
            plays: 0)
    }

    @Test func kittyUploadsEachFrameAndZoomOnlyReplaces() throws {
        var state = animatedViewer(.kitty)
        let painter = ViewerPainter(frames: frames, backend: smallBackend(.kitty))
        _ = state.handle(.tick(timeMs: 0))
        var uploads: [[(id: Int, size: PixelSize)]] = [try kittyUploads(painter.frame(for: state))]
        for time in [100, 200] {
            _ = state.handle(.tick(timeMs: time))
            uploads.append(try kittyUploads(painter.frame(for: state)))
        }
        // Each frame (96x64, enlarged by kitty to the 264x176 view) goes up
        // once under the slot's id, replacing the one before.
        #expect(uploads.map { $0.map(\.id) } == [[1], [1], [1]])
        #expect(uploads.allSatisfy { $0.first?.size == PixelSize(width: 96, height: 64) })
        // Redrawn unchanged: nothing.
        #expect(painter.frame(for: state).isEmpty)
        // Zooming and panning the frame shown only re-place it.
        _ = state.handle(key("z"))
        let zoomed = painter.frame(for: state)
        #expect(try kittyUploads(zoomed).isEmpty && zoomed.count(of: "a=p,") == 1)
        _ = state.handle(key(.left))
        #expect(try kittyUploads(painter.frame(for: state)).isEmpty)
        _ = state.handle(.tick(timeMs: 300))
        #expect(state.frameIndex == 0)
        #expect(try kittyUploads(painter.frame(for: state)).map(\.size) == [PixelSize(width: 96, height: 64)])
        #expect(painter.teardown() == Array("\u{1B}_Ga=d,d=i,i=1,q=2\u{1B}\\".utf8))
    }

    @Test func sixelDrawsEachFrameInTurnWithOnePalette() throws {
        var state = animatedViewer(.sixel)
        let painter = ViewerPainter(frames: frames, backend: smallBackend(.sixel))
        var drawn: [RGBA] = []
        for (index, time) in [0, 100, 200, 300].enumerated() {
            _ = state.handle(.tick(timeMs: time))
            let bytes = painter.frame(for: state)
            let sixel = try #require(bytes.firstSixel, "frame \(index)")
            let picture = try SixelDecoder.decode(sixel).image
            drawn.append(picture[picture.width / 2, picture.height / 2])
            #expect(bytes.sixels.count == 1)
        }
        #expect(
            drawn.map { [$0.r > 128, $0.g > 100, $0.b > 128] } == [
                [true, false, false], [false, true, false], [false, false, true], [true, false, false],
            ])
    }

    /// xterm paints each sixel as it comes: two bands of one frame would
    /// show the new frame's top over the old one's bottom in between.
    @Test func anAnimationFrameIsOneSixelWhereAStillIsBanded() {
        let backend = testDrawing(.sixel, cells: smallCells, cell: smallCell).makeBackend(resampler: Resampler(threads: 2))
        let still = ViewerPainter(image: frames[0], backend: backend)
        #expect(still.frame(for: smallViewer(.sixel)).sixels.count == 2)
        let animated = ViewerPainter(
            frames: frames,
            backend: testDrawing(.sixel, cells: smallCells, cell: smallCell).makeBackend(resampler: Resampler(threads: 2)))
        var state = animatedViewer(.sixel)
        _ = state.handle(.tick(timeMs: 0))
        #expect(animated.frame(for: state).sixels.count == 1)
    }

    @Test func blocksRedrawEachFrame() {
        var state = animatedViewer(.blocks)
        let painter = ViewerPainter(frames: frames, backend: smallBackend(.blocks))
        _ = state.handle(.tick(timeMs: 0))
        let first = painter.frame(for: state)
        _ = state.handle(.tick(timeMs: 100))
        let second = painter.frame(for: state)
        // Flat frames: spaces on each frame's colour.
        #expect(first.count(of: "48;2;255;0;0m") > 0)
        #expect(second.count(of: "48;2;0;200;0m") > 0 && second.count(of: "48;2;255;0;0m") == 0)
    }

    @Test func aFullDecodeReplacesFramesOnlyAllTogether() {
        let painter = ViewerPainter(frames: frames, backend: smallBackend(.kitty))
        #expect(!painter.replaceFrames(Array(frames.prefix(2))))
        #expect(painter.frames == frames)
        #expect(painter.replaceFrames(frames.reversed()))
        #expect(painter.frames.first == frames.last)
    }
}
