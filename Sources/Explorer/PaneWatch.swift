import Rendering
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

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
package struct PaneWatch: Equatable, Sendable {
    /// How often tmux is asked while pxview waits: pictures come back within
    /// this of returning to pxview's window (the issue asked for 1 s), and
    /// each ask costs a few milliseconds of a spawned `tmux display`.
    package static let intervalMs = 300
    /// Where tmux cannot be asked, a picture is drawn only this soon after
    /// one of pxview's own keys (or its start): a key proves pxview's pane
    /// is the active one, and a picture sent then lands in it.
    package static let remoteKeyWindowMs = 1000

    package enum Mode: Equatable, Sendable {
        /// tmux on this machine answers where the pane is.
        case asking
        /// A tmux that cannot be asked: pictures only in answer to keys.
        case keys
    }

    /// What the loop must do after an update.
    package enum Change: Equatable, Sendable {
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
    package static let settleRedrawMs = 400

    package let mode: Mode
    /// The last state tmux gave (`asking`).
    package private(set) var pane: TmuxPaneState?
    /// When pictures may be drawn (`keys`): until this time.
    private var keysAllowUntil: Int
    /// When the pictures are to be drawn again after a relayout.
    package private(set) var settleRedrawAt: Int?

    package init(mode: Mode, pane: TmuxPaneState? = nil, nowMs: Int = 0) {
        self.mode = mode
        self.pane = pane
        keysAllowUntil = nowMs + Self.remoteKeyWindowMs
    }

    /// The pane's top-left on the outer screen, where pictures are placed.
    package var origin: CellOffset? { mode == .asking ? pane?.screenOrigin : nil }

    /// True when a frame with pictures may be written now.
    package func mayDraw(nowMs: Int) -> Bool {
        switch mode {
        case .asking: return pane?.isShown ?? true
        case .keys: return nowMs <= keysAllowUntil
        }
    }

    /// What tmux says now (nil: it did not answer, which changes nothing).
    package mutating func update(_ new: TmuxPaneState?) -> Change {
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
    package mutating func laidOut(nowMs: Int) {
        settleRedrawAt = nowMs + Self.settleRedrawMs
    }

    /// True once the settle redraw is due (then it is forgotten).
    package mutating func takeSettleRedraw(nowMs: Int) -> Bool {
        guard let due = settleRedrawAt, nowMs >= due else { return false }
        settleRedrawAt = nil
        return true
    }

    /// One of pxview's keys (or a click) arrived: its pane is the active one now.
    package mutating func keyArrived(nowMs: Int) {
        keysAllowUntil = nowMs + Self.remoteKeyWindowMs
    }
}

/// Keeping pictures in pxview's tmux pane, for the run loop: the pane
/// watch, the tmux on this machine that is asked where the pane is (every
/// `PaneWatch.intervalMs` while idle), and the window's pictures taken
/// down on the client's terminal when the window is no longer shown.
/// Nil watch: pictures do not go through tmux's passthrough.
struct PaneKeeper {
    /// The tmux on this machine, asked about pxview's pane; nil for a tmux
    /// that cannot be asked (a remote shell: pictures only after keys).
    let tmux: Tmux?
    private(set) var watch: PaneWatch?
    private var lastCheckMs = 0

    init(drawing: DrawingPlan, environment: [String: String], nowMs: Int) {
        let drawsThroughTmux =
            !Backends.type(for: drawing.method).picturesAreText && drawing.multiplexer.passthroughOn
        if drawsThroughTmux, case .tmux = drawing.multiplexer, let tmux = Tmux(environment: environment) {
            self.tmux = tmux
            watch = PaneWatch(mode: .asking, pane: tmux.paneState())
        } else {
            tmux = nil
            if drawsThroughTmux { watch = PaneWatch(mode: .keys, nowMs: nowMs) }
        }
    }

    /// Where pictures go on the outer screen (the pane's place).
    var origin: CellOffset? { watch?.origin }

    /// Pictures may be drawn now (always, outside tmux's passthrough).
    func mayDraw(nowMs: Int) -> Bool { watch?.mayDraw(nowMs: nowMs) ?? true }

    /// How long the loop may sleep, given it would sleep `timeout` ms (-1: for ever).
    func pollTimeout(_ timeout: Int, nowMs: Int) -> Int {
        var timeout = timeout
        if tmux != nil, timeout < 0 || timeout > PaneWatch.intervalMs { timeout = PaneWatch.intervalMs }
        if let due = watch?.settleRedrawAt {
            let wait = max(0, due - nowMs)
            if timeout < 0 || timeout > wait { timeout = wait }
        }
        return timeout
    }

    /// Whether tmux is due to be asked again.
    func checkDue(nowMs: Int) -> Bool { tmux != nil && nowMs - lastCheckMs >= PaneWatch.intervalMs }

    /// Asks tmux where the pane is; what changed, and what tmux said.
    mutating func check(nowMs: Int) -> (change: PaneWatch.Change, state: TmuxPaneState?) {
        guard let tmux else { return (.none, nil) }
        lastCheckMs = nowMs
        let state = tmux.paneState()
        return (watch?.update(state) ?? .none, state)
    }

    /// True once, when the pictures are due again after a relayout settled.
    mutating func takeSettleRedraw(nowMs: Int) -> Bool { watch?.takeSettleRedraw(nowMs: nowMs) == true }

    /// A key of pxview's own arrived: its pane is the active one now.
    mutating func keyArrived(nowMs: Int) {
        if watch?.mode == .keys { watch?.keyArrived(nowMs: nowMs) }
    }

    /// The window was laid out anew (tmux redraws it).
    mutating func laidOut(nowMs: Int) { watch?.laidOut(nowMs: nowMs) }

    /// tmux draws its whole screen again (sixel pixels a frame in flight
    /// left outside the pane go only under tmux's text).
    func redrawClient() { tmux?.redrawClient(tty: watch?.pane?.clientTTY) }

    /// pxview's window is no longer shown: tmux redraws its text over sixel
    /// pictures by itself, but kitty keeps its pictures above whatever tmux
    /// draws, and tmux 3.3 passes nothing from a window not shown. So kitty
    /// is told directly, on the client's terminal device (one write of a
    /// few delete commands, `deletes`).
    func hideKittyPictures(_ deletes: [UInt8], clientTTY: String?) {
        guard !deletes.isEmpty, let clientTTY else { return }
        let fd = open(clientTTY, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = deletes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
