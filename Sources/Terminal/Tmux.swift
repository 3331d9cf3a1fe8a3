import Pixels
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The one place pxview talks to tmux the program: whether it passes
/// graphics (`allow-passthrough`), and where pxview's pane is on the screen
/// of the client that shows it and whether it is shown at all. Asking
/// tmux, never the outer terminal: tmux hands the outer terminal's replies
/// to the *active* pane, whichever pane asked, so a query sent while
/// another pane is active types its answer into that pane.
///
/// Only a tmux on this machine (`$TMUX`) can be asked. Over SSH from a tmux
/// pane the remote side has no `$TMUX` and no tmux to run (see
/// `Multiplexer.remoteTmux`).
package struct Tmux: Sendable {
    /// Runs `tmux` with these arguments; its standard output, or nil when it
    /// could not run or failed. Tests play tmux's answers here (or put a fake
    /// `tmux` on `PATH`).
    package var run: @Sendable ([String]) -> String?
    /// `$TMUX_PANE`, the pane pxview runs in (`%3`); nil asks about the
    /// current pane.
    package var pane: String?

    package init(pane: String?, run: @escaping @Sendable ([String]) -> String? = Tmux.spawn) {
        self.pane = pane
        self.run = run
    }

    /// The tmux pxview runs under, or nil outside tmux (no `$TMUX`).
    package init?(environment: [String: String], run: @escaping @Sendable ([String]) -> String? = Tmux.spawn) {
        guard let socket = environment["TMUX"], !socket.isEmpty else { return nil }
        self.init(pane: environment["TMUX_PANE"].flatMap { $0.isEmpty ? nil : $0 }, run: run)
    }

    /// `allow-passthrough` for pxview's pane (`show -Apv`: the pane's own
    /// value, else the window's, else the global one).
    package func passthrough() -> PassthroughSetting {
        var arguments = ["show", "-Apv"]
        if let pane { arguments += ["-t", pane] }
        return PassthroughSetting(answer: run(arguments + ["allow-passthrough"]))
    }

    /// The formats `paneState` asks for, in the order it reads them.
    static let paneFormat = [
        "pane_left", "pane_top", "pane_width", "pane_height", "pane_active", "window_active", "window_zoomed_flag",
        "session_attached", "client_cell_width", "client_cell_height", "status", "status-position", "client_tty",
        "client_termtype",
    ].map { "#{\($0)}" }.joined(separator: "\t")

    /// Where pxview's pane is and whether it is shown, in one `display -p`
    /// (a few milliseconds: cheap enough to ask a few times a second).
    package func paneState() -> TmuxPaneState? {
        var arguments = ["display", "-p"]
        if let pane { arguments += ["-t", pane] }
        return run(arguments + [Self.paneFormat]).flatMap(TmuxPaneState.init(answer:))
    }

    /// Has tmux draw the whole screen of the client on `clientTTY` again
    /// (`refresh-client`). A sixel picture stays on the outer screen until
    /// text is drawn over it, and a frame pxview wrote just before a split
    /// reached the terminal after tmux had cleared it for the new layout:
    /// its right half stayed over the new pane (seen in xterm while a GIF
    /// played). tmux's redraw writes every cell, which takes such pixels away.
    package func redrawClient(tty clientTTY: String?) {
        var arguments = ["refresh-client"]
        if let clientTTY, !clientTTY.isEmpty { arguments += ["-t", clientTTY] }
        _ = run(arguments)
    }

    /// Runs tmux without a shell (stdin and stderr on /dev/null).
    package static let spawn: @Sendable ([String]) -> String? = { arguments in
        Subprocess.output(["tmux"] + arguments)
    }
}

/// tmux's `allow-passthrough`: 3.3 knows `off` and `on` (passthrough from
/// panes that are shown), 3.4 adds `all` (hidden panes too).
package enum PassthroughSetting: String, Sendable, Equatable {
    case off, on, all

    /// From `show -Apv allow-passthrough` (a missing answer is `off`, tmux's default).
    package init(answer: String?) {
        let word = answer?.split(whereSeparator: { $0 == "\n" || $0 == " " }).last.map(String.init) ?? ""
        self = PassthroughSetting(rawValue: word) ?? .off
    }

    package var passes: Bool { self != .off }
}

/// pxview's pane as tmux sees it (`Tmux.paneState`).
package struct TmuxPaneState: Equatable, Sendable {
    /// The pane's top-left cell and size in the window, in cells.
    package var left: Int
    package var top: Int
    package var width: Int
    package var height: Int
    package var paneActive: Bool
    package var windowActive: Bool
    /// Another pane may be zoomed over this one.
    package var windowZoomed: Bool
    /// Some client shows the session.
    package var attached: Bool
    /// The client's cell in pixels, when tmux knows it (3.3 asks the terminal).
    package var cellSize: PixelSize?
    /// Status lines above the panes (`status-position top`): the window
    /// starts that many rows down the client's screen.
    package var statusRowsAbove: Int
    /// The client's terminal device, e.g. `/dev/pts/3`.
    package var clientTTY: String?
    /// The outer terminal as tmux learnt it (its XTVERSION): `XTerm(379)`, `kitty(0.26.5)`.
    package var clientTermType: String?

    package init(
        left: Int, top: Int, width: Int, height: Int, paneActive: Bool = true, windowActive: Bool = true,
        windowZoomed: Bool = false, attached: Bool = true, cellSize: PixelSize? = nil, statusRowsAbove: Int = 0,
        clientTTY: String? = nil, clientTermType: String? = nil
    ) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.paneActive = paneActive
        self.windowActive = windowActive
        self.windowZoomed = windowZoomed
        self.attached = attached
        self.cellSize = cellSize
        self.statusRowsAbove = statusRowsAbove
        self.clientTTY = clientTTY
        self.clientTermType = clientTermType
    }

    /// From `Tmux.paneFormat`'s answer: tab-separated fields. Nil for an
    /// answer that is not one (an old tmux printing the formats unexpanded).
    package init?(answer: String) {
        let line = answer.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 14, let left = Int(fields[0]), let top = Int(fields[1]), let width = Int(fields[2]),
            let height = Int(fields[3]), width > 0, height > 0
        else { return nil }
        let cell = Int(fields[8]).flatMap { width in Int(fields[9]).map { PixelSize(width: width, height: $0) } }
        // `status` is off, on (one line) or 2 to 5 lines.
        let lines = fields[10] == "on" ? 1 : Int(fields[10]) ?? 0
        self.init(
            left: left, top: top, width: width, height: height, paneActive: fields[4] == "1",
            windowActive: fields[5] == "1", windowZoomed: fields[6] == "1", attached: (Int(fields[7]) ?? 0) > 0,
            cellSize: cell.flatMap { TerminalLimits.cell($0) ? $0 : nil },
            statusRowsAbove: fields[11] == "top" ? lines : 0, clientTTY: fields[12].isEmpty ? nil : fields[12],
            clientTermType: fields[13].isEmpty ? nil : fields[13])
    }

    /// Some client shows this pane now: its window is the current one and
    /// no other pane is zoomed over it.
    package var isShown: Bool { attached && windowActive && (paneActive || !windowZoomed) }

    /// The pane's top-left cell on the client's screen, 0-based.
    package var screenOrigin: CellOffset { CellOffset(column: left, row: top + statusRowsAbove) }
}

/// A cell position, 0-based, from the top-left of a screen.
package struct CellOffset: Equatable, Sendable {
    package var column: Int
    package var row: Int

    package init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }
}
