import Terminal
import Testing

@testable import Explorer

/// When pictures may be drawn inside tmux, and when they are drawn again.
@Suite struct PaneWatchTests {
    static func pane(left: Int = 0, width: Int = 80, active: Bool = true, window: Bool = true, zoomed: Bool = false)
        -> TmuxPaneState
    {
        TmuxPaneState(
            left: left, top: 0, width: width, height: 24, paneActive: active, windowActive: window, windowZoomed: zoomed)
    }

    @Test func picturesAreDrawnOnlyWhileThePaneIsShown() {
        var watch = PaneWatch(mode: .asking, pane: Self.pane())
        #expect(watch.mayDraw(nowMs: 0) && watch.origin == CellOffset(column: 0, row: 0))
        // A split: the pane moves and shrinks, and is no longer the active one.
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false)) == .redraw)
        #expect(watch.origin == CellOffset(column: 41, row: 0) && watch.mayDraw(nowMs: 0))
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false)) == .none)
        // Another window: nothing is drawn until it comes back.
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false, window: false)) == .hidden)
        #expect(!watch.mayDraw(nowMs: 0))
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false, window: false)) == .none)
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false)) == .redraw)
        #expect(watch.mayDraw(nowMs: 0))
        // Another pane zoomed over this one hides it too.
        #expect(watch.update(Self.pane(left: 41, width: 39, active: false, zoomed: true)) == .hidden)
        // tmux not answering changes nothing.
        #expect(watch.update(nil) == .none && !watch.mayDraw(nowMs: 0))
    }

    @Test func theFirstAnswerDecides() {
        var hidden = PaneWatch(mode: .asking)
        #expect(hidden.mayDraw(nowMs: 0))
        #expect(hidden.update(Self.pane(window: false)) == .hidden)
        var shown = PaneWatch(mode: .asking)
        #expect(shown.update(Self.pane()) == .redraw)
    }

    /// Where tmux cannot be asked, only pxview's own keys say its pane is
    /// the active one: pictures are drawn that soon after one, never on a
    /// timer or a resize alone.
    @Test func withoutTmuxToAskPicturesFollowKeys() {
        var watch = PaneWatch(mode: .keys, nowMs: 1000)
        #expect(watch.mayDraw(nowMs: 1000 + PaneWatch.remoteKeyWindowMs))
        #expect(!watch.mayDraw(nowMs: 1001 + PaneWatch.remoteKeyWindowMs))
        #expect(watch.update(Self.pane()) == .none && watch.origin == nil)
        watch.keyArrived(nowMs: 5000)
        #expect(watch.mayDraw(nowMs: 5500))
    }

    @Test func aRelayoutIsDrawnOnceMoreWhenTmuxHasRedrawn() {
        var watch = PaneWatch(mode: .asking, pane: Self.pane())
        var due = watch.takeSettleRedraw(nowMs: 10_000)
        #expect(!due)
        watch.laidOut(nowMs: 100)
        #expect(watch.settleRedrawAt == 100 + PaneWatch.settleRedrawMs)
        due = watch.takeSettleRedraw(nowMs: 99 + PaneWatch.settleRedrawMs)
        #expect(!due)
        due = watch.takeSettleRedraw(nowMs: 100 + PaneWatch.settleRedrawMs)
        #expect(due)
        due = watch.takeSettleRedraw(nowMs: 10_000)
        #expect(!due, "once only")
    }
}
