import Foundation
import Pixels
import Plumbing
import Rendering
import Scaling
import Terminal

/// A terminal's display, found once: which protocol draws there, the size
/// of its cells and window, its background and limits. Then any number of
/// pictures are drawn with it, on any thread (it is a value).
///
/// `probe` asks the terminal (as `pxview show` does); `recalled` never
/// asks (as a file manager's preview must: the host reads the terminal's
/// answers as keys) and takes what an earlier probe in that terminal
/// remembered, else the environment; `init(protocol:…)` is for output that
/// is no terminal.
///
/// Inside tmux every picture's bytes come wrapped for its passthrough (and
/// placed in the program's pane where tmux says where it is); `write`
/// sends them so each lands where it should.
public struct TerminalDisplay: Sendable {
    package var drawing: DrawingPlan
    /// Inside a local tmux: the pane's top-left cell on the outer screen,
    /// where pictures are placed absolutely (`FrameWriter.paneOrigin`).
    package var paneOrigin: CellOffset?
    /// The terminal's descriptor (standard output for `init(protocol:)`),
    /// where `write` writes unless told.
    package var fd: Int32

    package init(drawing: DrawingPlan, paneOrigin: CellOffset? = nil, fd: Int32 = 1) {
        self.drawing = drawing
        self.paneOrigin = paneOrigin
        self.fd = fd
    }

    /// Asks the terminal on `fd` what it can show (raw mode only while its
    /// answers come, at most 2 s, `PXVIEW_PROBE_TIMEOUT_MS`); inside tmux
    /// through its passthrough. `protocol` forces one. A terminal that
    /// answers nothing gets text pictures. The answers are remembered (a
    /// small file in `$XDG_RUNTIME_DIR/pxview`, else `~/.cache/pxview`,
    /// as pxview keeps them) for `recalled`; once an hour at most, pictures
    /// a killed program left for kitty in shared memory or the temporary
    /// folder are swept away.
    public static func probe(
        fd: Int32 = 1, protocol: PictureProtocol? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalDisplay {
        let (report, drawing) = ask(choices(`protocol`, environment: environment), environment: environment, ttyFD: fd)
        return TerminalDisplay(drawing: drawing, paneOrigin: report.tmuxPane?.screenOrigin, fd: fd)
    }

    /// The display decided without asking the terminal on `fd`: from what
    /// an earlier probe in it remembered, else from the environment
    /// (`TERM`, `KITTY_WINDOW_ID`, `TERM_PROGRAM`…), else text. A file
    /// manager's previewer, whose standard output is a pipe, passes
    /// `openTerminal()`'s descriptor and writes there. Sweeps kitty's
    /// leftovers as `probe` does.
    public static func recalled(
        fd: Int32 = 1, protocol: PictureProtocol? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalDisplay {
        let (report, drawing) = recall(choices(`protocol`, environment: environment), environment: environment, ttyFD: fd)
        return TerminalDisplay(drawing: drawing, paneOrigin: report.tmuxPane?.screenOrigin, fd: fd)
    }

    /// A display for output that is no terminal (a file, a pipe): drawn
    /// with `protocol` for a window of `columns` x `rows` cells of
    /// `cellWidth` x `cellHeight` pixels.
    public init(
        protocol: PictureProtocol, columns: Int = 80, rows: Int = 24, cellWidth: Int = 10, cellHeight: Int = 20
    ) {
        let geometry = TerminalGeometry(
            windowCells: CellCount(width: columns, height: rows),
            cellPixels: PixelSize(width: cellWidth, height: cellHeight))
        drawing = DrawingPlan.decide(
            choice: Self.choice(`protocol`), capabilities: nil, multiplexer: .none, geometry: geometry)
        fd = 1
    }

    /// The protocol pictures are drawn with.
    public var pictureProtocol: PictureProtocol { PictureProtocol(drawing.choice) }

    /// The window's width in cells.
    public var columns: Int { drawing.geometry.windowCells.width }
    /// The window's height in cells.
    public var rows: Int { drawing.geometry.windowCells.height }
    /// One cell's width in pixels.
    public var cellWidth: Int { drawing.geometry.cellPixels.width }
    /// One cell's height in pixels.
    public var cellHeight: Int { drawing.geometry.cellPixels.height }
    /// The terminal's background colour (OSC 11), when it said: what
    /// transparent pixels are composited over.
    public var background: (red: UInt8, green: UInt8, blue: UInt8)? {
        drawing.geometry.background.map { ($0.r, $0.g, $0.b) }
    }
    /// The largest sixel picture the terminal shows (XTSMGRAPHICS: xterm's
    /// 1000x1000), when it said; pictures are drawn within it.
    public var largestPicture: (width: Int, height: Int)? {
        drawing.geometry.sixelMaxSize.map { ($0.width, $0.height) }
    }

    /// The bytes that draw `picture` at the cursor into a box of `columns`
    /// x `rows` cells (nil: the window's, less a row for the prompt),
    /// framed so, leaving the cursor on the line below it. `imageID`: the
    /// kitty image id (another for each picture kept on screen at once).
    /// Inside tmux, `write` them: it waits for tmux to move the terminal's
    /// cursor before each picture.
    public func render(
        _ picture: Picture, columns: Int? = nil, rows: Int? = nil, framing: Framing = Framing(), imageID: UInt32 = 1
    ) -> [UInt8] {
        let backend = drawing.makeBackend()
        let cells =
            columns.map { CellCount(width: max(1, $0), height: max(1, rows ?? self.rows - 1)) }
            ?? rows.map { CellCount(width: self.columns, height: max(1, $0)) }
        let box = backend.unitBox(size: nil, cells: cells)
        // At the cursor: nowhere known to place it absolutely, so it is
        // wrapped as it is and `write` fences it.
        return framed(
            backend.inline(pixels(picture, backend: backend, box: box, framing: framing), imageID: imageID).bytes,
            inPane: false)
    }

    /// Writes bytes `render` made to `fd` (nil: the descriptor the display
    /// was found on), all of them: inside tmux, on a terminal, each picture
    /// drawn at the cursor after tmux has answered a question (DA1, read in
    /// raw mode so it is never echoed), so the terminal's cursor has reached
    /// the place first.
    public func write(_ bytes: [UInt8], to fd: Int32? = nil) throws(DisplayError) {
        let writer = FrameWriter(fd: fd ?? self.fd, synchronizedOutput: false, multiplexer: drawing.multiplexer)
        do {
            try writer.writeAtCursor(bytes)
        } catch {
            throw DisplayError(description: "cannot write to the terminal: \(error)")
        }
    }

    /// Writes a placed picture's bytes to `fd` (nil: the display's), as
    /// they are: the terminal is never asked anything (in a file manager its
    /// answers would reach the host as keys).
    public func write(_ placed: PlacedPicture, to fd: Int32? = nil) throws(DisplayError) {
        do {
            try Descriptor.writeAll(placed.bytes, to: fd ?? self.fd)
        } catch {
            throw DisplayError(description: "cannot write to the terminal: \(error)")
        }
    }

    /// The terminal itself, for a program whose standard output is a pipe
    /// (a file manager's previewer): standard output when it is a terminal,
    /// else `/dev/tty`, always opened anew, for writing and non-blocking
    /// (`write` waits out a full terminal; close it when done); nil when
    /// there is none.
    public static func openTerminal() -> Int32? {
        ControllingTerminal.previewOutput()?.fd
    }

    /// What to write `delayMs` after the last picture, before the program
    /// ends, so the terminal shows them all (kitty 0.48.2 showed pictures
    /// handed over by shared memory only once more came); nil for most.
    public var followUp: (delayMs: Int, bytes: [UInt8])? { drawing.inlineFollowUp }

    /// `picture` composited over the background and fitted to `box` (in
    /// `backend`'s units) as `framing` says.
    func pixels(_ picture: Picture, backend: any GraphicsBackend, box: PixelSize, framing: Framing) -> RGBAImage {
        let renderer = ImageRenderer()
        let image = drawing.composited(picture.image)
        let viewport = renderer.viewport(for: image.size, settings: ViewFraming(framing), box: box, screen: backend.screen)
        return renderer.pixels(image, viewport: viewport, screen: backend.screen)
    }

    /// `bytes` as the terminal must get them: inside tmux wrapped for its
    /// passthrough; `inPane`, pictures whose cell the bytes set placed in
    /// the pane where its place is known.
    func framed(_ bytes: [UInt8], inPane: Bool = true) -> [UInt8] {
        var writer = FrameWriter(fd: -1, synchronizedOutput: false, multiplexer: drawing.multiplexer)
        writer.paneOrigin = inPane ? paneOrigin : nil
        return writer.framed(bytes)
    }

    static func choice(_ chosen: PictureProtocol?) -> ProtocolChoice { chosen?.choice ?? .auto }
}

extension ViewFraming {
    init(_ framing: Framing) {
        let fit: FitMode =
            switch framing.fit {
            case .contain: .contain
            case .cover: .cover
            case .actual: .actual
            }
        self.init(fit: fit, zoom: framing.zoom, centerX: framing.centerX, centerY: framing.centerY)
    }
}
