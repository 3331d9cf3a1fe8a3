import Photos
import Pixels
import Rendering
import Terminal
import Testing

@testable import Explorer

/// The loop's jobs, each its own type: the files `n`/`p` step through, and
/// how long the loop may sleep inside tmux.
@Suite struct ExplorerPartsTests {
    @Test func theFilesGivenToShowStepToTheirEnds() throws {
        let photos = [filePhoto(1, "a.jpg"), filePhoto(2, "b.png"), filePhoto(3, "c.gif")]
        var sequence = PhotoSequence(photos, showing: photos[1])
        /// The message a step gives, nil when it stepped.
        func refusal(_ result: Result<Photo, ExplorerMessage>) -> String? {
            if case .failure(let message) = result { return message.text }
            return nil
        }
        #expect(try sequence.step(by: 1).get().id == 3)
        #expect(refusal(sequence.step(by: 1)) == "this is the last photo")
        #expect(try sequence.step(by: -2).get().id == 1)
        #expect(refusal(sequence.step(by: -1)) == "this is the first photo")
        var single = PhotoSequence([photos[0]], showing: photos[0])
        #expect(refusal(single.step(by: 1)) == "this is the only photo")
    }

    /// The viewer before its first photo: the viewer's keys that make sense
    /// without a photo (quit, step), nothing else; the status line says
    /// what it waits for and the keys; failures are kept, and say whether
    /// another photo is left to try.
    @Test func theViewerWaitingForItsFirstPhotoAnswersQuitAndStep() {
        #expect(OpeningState.effect(for: Key(.char("q"))) == .quit)
        #expect(OpeningState.effect(for: Key(.escape)) == .quit)
        #expect(OpeningState.effect(for: Key(.char("n"))) == .step(1))
        #expect(OpeningState.effect(for: Key(.char(" "))) == .step(1))
        #expect(OpeningState.effect(for: Key(.char("p"))) == .step(-1))
        #expect(OpeningState.effect(for: Key(.char("+"))) == nil)
        #expect(OpeningState.effect(for: Key(.char("s"))) == nil)
        var state = OpeningState(title: "a.jpg", hasNext: true)
        #expect(state.status == "opening a.jpg… · q quits · n skips to the next")
        let another = state.failed("cannot decode a.jpg: not an image")
        #expect(another)
        state.title = "b.jpg"
        state.hasNext = false
        #expect(state.status == "opening b.jpg… · q quits")
        state.message = "this is the last photo"
        #expect(state.status == "opening b.jpg… · this is the last photo")
        let yetAnother = state.failed("cannot read b.jpg: no such file")
        #expect(!yetAnother)
        #expect(state.failures == ["cannot decode a.jpg: not an image", "cannot read b.jpg: no such file"])
        let frame = ViewerPainter.waitingFrame(
            state, layout: ViewerLayout(screen: smallGeometry(.sixel)), glyphs: .ascii)
        // Every row blanked, then the status line (inverse, cut to the 40 columns).
        let blank = (1...12).map { "\u{1B}[\($0);1H\u{1B}[0m\u{1B}[40X" }.joined()
        #expect(
            String(decoding: frame, as: UTF8.self)
                == blank + "\u{1B}[12;1H\u{1B}[0m\u{1B}[7mopening b.jpg... - this is the last...  \u{1B}[0m")
    }

    /// Outside tmux's passthrough nothing changes the loop's sleep and
    /// pictures may always be drawn; a tmux that cannot be asked draws only
    /// after a key of pxview's own, and wakes for nothing.
    @Test func thePaneKeeperOnlyActsInsideTmux() {
        let plain = DrawingPlan(method: .sixel, geometry: TerminalGeometry(windowCells: CellCount(width: 80, height: 24)))
        let outside = PaneKeeper(drawing: plain, environment: [:], nowMs: 0)
        #expect(outside.watch == nil && outside.tmux == nil && outside.mayDraw(nowMs: 0))
        #expect(outside.pollTimeout(-1, nowMs: 0) == -1 && outside.pollTimeout(40, nowMs: 0) == 40)
        #expect(!outside.checkDue(nowMs: 10_000))

        var remote = plain
        remote.multiplexer = .tmux(passthrough: true)
        var keeper = PaneKeeper(drawing: remote, environment: [:], nowMs: 0)
        #expect(keeper.watch?.mode == .keys && keeper.tmux == nil)
        #expect(keeper.mayDraw(nowMs: 0))
        #expect(!keeper.mayDraw(nowMs: PaneWatch.remoteKeyWindowMs + 1))
        keeper.keyArrived(nowMs: 5000)
        #expect(keeper.mayDraw(nowMs: 5000 + PaneWatch.remoteKeyWindowMs - 1))
        #expect(keeper.pollTimeout(-1, nowMs: 0) == -1)
    }
}
