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
