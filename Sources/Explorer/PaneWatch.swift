import Terminal

/// Whether pictures may be drawn now, inside tmux, and when they must be
/// drawn again: a pure state machine fed what tmux says about pxview's
/// pane (`Tmux.paneState`, asked every `interval` while idle) or, where
/// tmux cannot be asked (a remote shell), pxview's own keys.
///
/// tmux never sees pictures sent through passthrough: it draws its text
/// over them when it redraws (a window switch, a split), and it passes
/// nothing from a window not shown. So pictures are drawn only while the
/// pane is shown, again as soon as it is shown after being hidden or moves
/// (within `interval`, no `focus-events` needed), and at the pane's new
/// place after a split or a resize.
public struct PaneWatch: Equatable, Sendable {
    /// How often tmux is asked while pxview waits: pictures come back within
    /// this of returning to pxview's window (the issue asked for 1 s), and
    /// each ask costs a few milliseconds of a spawned `tmux display`.
    public static let intervalMs = 300
    /// Where tmux cannot be asked, a picture is drawn only this soon after
    /// one of pxview's own keys (or its start): a key proves pxview's pane
    /// is the active one, and a picture sent then lands in it.
    public static let remoteKeyWindowMs = 1000

    public enum Mode: Equatable, Sendable {
        /// tmux on this machine answers where the pane is.
        case asking
        /// A tmux that cannot be asked: pictures only in answer to keys.
        case keys
    }

    /// What the loop must do after an update.
    public enum Change: Equatable, Sendable {
        case none
        /// Hidden (another window, another pane zoomed, detached): draw no pictures.
        case hidden
        /// Shown again, moved or resized: every picture is drawn afresh
        /// (at `origin`, where tmux said).
        case redraw
    }

    /// After a relayout, the pictures are drawn once more this much later:
    /// tmux redraws the window after a split or a resize in its own time,
    /// clearing the whole screen (`CSI 2 J`, which also takes kitty's
    /// placements away), and when the pictures just sent filled its output
    /// that redraw came after them (seen in kitty 0.26.5 under tmux 3.3a:
    /// the first two of four tiles gone after a split). Drawn again they are
    /// placements only (kitty keeps the uploads) or kept sixel bytes.
    public static let settleRedrawMs = 400

    public let mode: Mode
    /// The last state tmux gave (`asking`).
    public private(set) var pane: TmuxPaneState?
    /// When pictures may be drawn (`keys`): until this time.
    private var keysAllowUntil: Int
    /// When the pictures are to be drawn again after a relayout.
    public private(set) var settleRedrawAt: Int?

    public init(mode: Mode, pane: TmuxPaneState? = nil, nowMs: Int = 0) {
        self.mode = mode
        self.pane = pane
        keysAllowUntil = nowMs + Self.remoteKeyWindowMs
    }

    /// The pane's top-left on the outer screen, where pictures are placed.
    public var origin: CellOffset? { mode == .asking ? pane?.screenOrigin : nil }

    /// True when a frame with pictures may be written now.
    public func mayDraw(nowMs: Int) -> Bool {
        switch mode {
        case .asking: return pane?.isShown ?? true
        case .keys: return nowMs <= keysAllowUntil
        }
    }

    /// What tmux says now (nil: it did not answer, which changes nothing).
    public mutating func update(_ new: TmuxPaneState?) -> Change {
        guard mode == .asking, let new else { return .none }
        let old = pane
        pane = new
        guard let old else { return new.isShown ? .redraw : .hidden }
        if old.isShown && !new.isShown { return .hidden }
        if !new.isShown { return .none }
        if !old.isShown { return .redraw }
        let moved =
            old.screenOrigin != new.screenOrigin || old.width != new.width || old.height != new.height
            || old.cellSize != new.cellSize
        return moved ? .redraw : .none
    }

    /// The screens were laid out anew (a resize, a move): draw once more
    /// when tmux has redrawn its window.
    public mutating func laidOut(nowMs: Int) {
        settleRedrawAt = nowMs + Self.settleRedrawMs
    }

    /// True once the settle redraw is due (then it is forgotten).
    public mutating func takeSettleRedraw(nowMs: Int) -> Bool {
        guard let due = settleRedrawAt, nowMs >= due else { return false }
        settleRedrawAt = nil
        return true
    }

    /// One of pxview's keys (or a click) arrived: its pane is the active one now.
    public mutating func keyArrived(nowMs: Int) {
        keysAllowUntil = nowMs + Self.remoteKeyWindowMs
    }
}
