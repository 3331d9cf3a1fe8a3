import Foundation
import Pixels
import Rendering
import Scaling
import Terminal

/// A way a picture can be drawn in a terminal: one of pxview's backends,
/// by the name its `--protocol` takes.
public struct PictureProtocol: RawRepresentable, Hashable, CaseIterable, Sendable, CustomStringConvertible {
    /// Its name: "kitty", "sixel", "symbols", "blocks".
    public let rawValue: String

    /// The protocol of that name; nil for a name no backend has.
    public init?(rawValue: String) {
        guard rawValue != ProtocolChoice.auto.rawValue, ProtocolChoice(rawValue: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    init(_ choice: ProtocolChoice) {
        rawValue = choice.rawValue
    }

    /// Every protocol, in the order a probe prefers them.
    public static let allCases: [PictureProtocol] = ProtocolChoice.allCases.filter { $0 != .auto }.map(PictureProtocol.init)

    /// kitty's graphics protocol (kitty, WezTerm, Konsole).
    public static let kitty = PictureProtocol(ProtocolChoice.kitty)
    /// DEC sixel (xterm `-ti vt340`, foot, mlterm, WezTerm, Konsole).
    public static let sixel = PictureProtocol(ProtocolChoice.sixel)
    /// Text: per cell the block character and two 24-bit colours that
    /// match it best (any terminal with true colour).
    public static let symbols = PictureProtocol(ProtocolChoice.symbols)
    /// Text of `▄` half-blocks (the Linux console).
    public static let blocks = PictureProtocol(ProtocolChoice.blocks)

    /// The name.
    public var description: String { rawValue }

    /// pxview's name for it.
    var choice: ProtocolChoice { ProtocolChoice(named: rawValue) }
}

/// A terminal's display, found once: which protocol draws there, the size
/// of its cells and window, its background and limits. Then any number of
/// pictures are drawn with it, on any thread (it is a value).
///
/// `probe` asks the terminal (as `pxview show` does); `recalled` never
/// asks (as a file manager's preview must: the host reads the terminal's
/// answers as keys) and takes what an earlier probe in that terminal
/// remembered, else the environment; `init(protocol:…)` is for output that
/// is no terminal.
public struct TerminalDisplay: Sendable {
    package var drawing: DrawingPlan

    package init(drawing: DrawingPlan) {
        self.drawing = drawing
    }

    /// Asks the terminal on `fd` what it can show (raw mode only while its
    /// answers come, at most 2 s, `PXVIEW_PROBE_TIMEOUT_MS`); inside tmux
    /// through its passthrough. `protocol` forces one. A terminal that
    /// answers nothing gets text pictures.
    public static func probe(
        fd: Int32 = 1, protocol: PictureProtocol? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalDisplay {
        TerminalDisplay(drawing: ask(choices(`protocol`, environment: environment), environment: environment, ttyFD: fd).drawing)
    }

    /// The display decided without asking the terminal on `fd`: from what
    /// an earlier probe in it remembered, else from the environment
    /// (`TERM`, `KITTY_WINDOW_ID`, `TERM_PROGRAM`…), else text.
    public static func recalled(
        fd: Int32 = 1, protocol: PictureProtocol? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalDisplay {
        TerminalDisplay(
            drawing: recall(choices(`protocol`, environment: environment), environment: environment, ttyFD: fd).drawing)
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
    public func render(
        _ picture: Picture, columns: Int? = nil, rows: Int? = nil, framing: Framing = Framing(), imageID: UInt32 = 1
    ) -> [UInt8] {
        let backend = drawing.makeBackend()
        let cells =
            columns.map { CellCount(width: max(1, $0), height: max(1, rows ?? self.rows - 1)) }
            ?? rows.map { CellCount(width: self.columns, height: max(1, $0)) }
        let box = backend.unitBox(size: nil, cells: cells)
        return inline(picture, backend: backend, box: box, framing: framing, imageID: imageID).bytes
    }

    /// The bytes that draw `picture` into the box of `columns` x `rows`
    /// cells whose top-left cell is `column`, `row` (zero-based), the
    /// cursor put back where it was: a preview beside a program's text.
    /// `replacing`: the kitty id of the picture this one takes the place of
    /// (deleted once the new one is up, so the box is never empty).
    public func place(
        _ picture: Picture, column: Int, row: Int, columns: Int, rows: Int, framing: Framing = Framing(),
        imageID: UInt32 = 1, replacing: UInt32? = nil
    ) -> [UInt8] {
        let box = CellRect(column: column, row: row, columns: columns, rows: rows)
        guard let usable = PreviewPlacement.usableBox(box, window: drawing.geometry.windowCells, method: drawing.method)
        else { return [] }
        let backend = drawing.makeBackend()
        let pictureBox = backend.screen.unitBox(cells: CellCount(width: usable.columns, height: usable.rows))
        let inline = inline(picture, backend: backend, box: pictureBox, framing: framing, imageID: imageID)
        return PreviewPlacement.bytes(
            of: inline, in: usable, alignment: .center, method: drawing.method, replacing: replacing)
    }

    /// The bytes that take away what `place` drew in that box: the kitty
    /// picture `imageID`, or the box's cells blanked (sixel, text).
    public func remove(column: Int, row: Int, columns: Int, rows: Int, imageID: UInt32 = 1) -> [UInt8] {
        PreviewPlacement.clearingBytes(
            CellRect(column: column, row: row, columns: columns, rows: rows), method: drawing.method,
            kittyImageIDs: [imageID])
    }

    /// What to write `delayMs` after the last picture, before the program
    /// ends, so the terminal shows them all (kitty 0.48.2 showed pictures
    /// handed over by shared memory only once more came); nil for most.
    public var followUp: (delayMs: Int, bytes: [UInt8])? { drawing.inlineFollowUp }

    private func inline(
        _ picture: Picture, backend: any GraphicsBackend, box: PixelSize, framing: Framing, imageID: UInt32
    ) -> InlinePicture {
        let renderer = ImageRenderer()
        let image = drawing.composited(picture.image)
        let viewport = renderer.viewport(
            for: image.size, settings: ViewFraming(framing), box: box, screen: backend.screen)
        return renderer.render(image, viewport: viewport, backend: backend, imageID: imageID)
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
