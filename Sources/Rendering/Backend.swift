import ControlSequences
import Pixels
import Scaling

/// Names the pixels of a picture: the same key means the same pixels, so a
/// backend that keeps pictures in the terminal (kitty) uploads once per key
/// and only re-places after that. `id` is the picture (a photo, a
/// thumbnail); `version` changes when its pixels do (a full-resolution
/// decode replacing the first one) while its palette may stay; `frame` is
/// which frame of an animation (0 for a still image), each its own pixels
/// under the picture's one palette.
package struct PictureKey: Hashable, Sendable {
    package var id: Int
    package var version: Int
    package var frame: Int

    package init(id: Int, version: Int = 0, frame: Int = 0) {
        self.id = id
        self.version = version
        self.frame = frame
    }
}

/// A picture on a full screen: which pixels, which part of them, and where.
package struct Picture: Sendable {
    package var image: RGBAImage
    package var key: PictureKey
    /// The part of `image` shown, in `image`'s pixels.
    package var source: SourceRect
    /// The cells the picture is laid out in (the view, a tile).
    package var area: CellRect
    /// Where the drawn output goes, in units from `area`'s top-left cell;
    /// its size is the output size.
    package var placement: PixelRect
    /// Sixel: one palette, made from the whole image, for every frame of
    /// picture `key.id`, so colours stay put while zooming and panning.
    package var stablePalette: Bool
    /// The same pixels come back in other slots (the grid's tiles as it
    /// scrolls): kitty keeps one upload per key and only places it, sixel
    /// keeps the encoding per key.
    package var reusable: Bool
    /// What a stable palette is made from when not `image` alone: every
    /// frame of an animation, so the first frame's colours do not stand in
    /// for the others'.
    package var paletteSample: RGBAImage?
    /// One of an animation's frames: drawn as one picture (sixel: one
    /// sequence, not bands), so no terminal ever shows the top of one
    /// frame over the bottom of the last (seen in xterm between two bands).
    package var isAnimationFrame: Bool
    /// A view that has stopped changing: drawn as a still picture is
    /// (sixel: diffused, like `show`), not the fast way a view that keeps
    /// moving is (sixel: the ordered pattern). A backend whose two ways
    /// are the same draws nothing new when only this changes.
    package var settled: Bool

    package init(
        image: RGBAImage, key: PictureKey, source: SourceRect, area: CellRect, placement: PixelRect,
        stablePalette: Bool = false, reusable: Bool = false, paletteSample: RGBAImage? = nil, isAnimationFrame: Bool = false,
        settled: Bool = false
    ) {
        self.image = image
        self.key = key
        self.source = source
        self.area = area
        self.placement = placement
        self.stablePalette = stablePalette
        self.reusable = reusable
        self.paletteSample = paletteSample
        self.isAnimationFrame = isAnimationFrame
        self.settled = settled
    }

    /// `image` at its own size (already fitted, in units), centred in `area`.
    package static func centred(
        image: RGBAImage, key: PictureKey, area: CellRect, screen: BackendGeometry, reusable: Bool = false
    ) -> Picture {
        let box = screen.unitBox(cells: CellCount(width: area.columns, height: area.rows))
        let size = PixelSize(width: min(image.width, box.width), height: min(image.height, box.height))
        return Picture(
            image: image, key: key, source: SourceRect(covering: image.size), area: area,
            placement: PixelRect(
                x: (box.width - size.width) / 2, y: (box.height - size.height) / 2, width: size.width, height: size.height),
            reusable: reusable)
    }

    /// The view of `viewport` (in units) laid out in `area`.
    package static func view(
        of image: RGBAImage, key: PictureKey, viewport: Viewport, area: CellRect, stablePalette: Bool = true,
        paletteSample: RGBAImage? = nil, isAnimationFrame: Bool = false, settled: Bool = false
    ) -> Picture {
        Picture(
            image: image, key: key, source: viewport.sourceRect(inImageOf: image.size), area: area,
            placement: viewport.placement, stablePalette: stablePalette, paletteSample: paletteSample,
            isAnimationFrame: isAnimationFrame, settled: settled)
    }

    /// True when `image` is shown whole at its own size.
    var isOneToOne: Bool {
        placement.width == image.width && placement.height == image.height && source == SourceRect(covering: image.size)
    }
}

/// A picture drawn at the cursor, inline with text (`pxview show`, the
/// search strip): its lines (one blob for sixel and kitty, one per text row
/// for text pictures and placeholders), the cells it covers, and the bytes
/// that leave the cursor where the next line of text belongs.
package struct InlinePicture: Sendable {
    package var lines: [[UInt8]]
    /// The row each line starts on, from the picture's top (0, 1, 2… unless
    /// a line is a band of several rows).
    package var lineRows: [Int]
    package var cells: CellCount
    /// Before the picture: room made for it (inside a multiplexer, rows are
    /// reserved first so the real terminal never scrolls under tmux).
    package var prefix: [UInt8]
    package var cursorAfter: [UInt8]

    package init(
        lines: [[UInt8]], lineRows: [Int]? = nil, cells: CellCount, prefix: [UInt8] = [], cursorAfter: [UInt8]
    ) {
        self.lines = lines
        self.lineRows = lineRows ?? Array(lines.indices)
        self.cells = cells
        self.prefix = prefix
        self.cursorAfter = cursorAfter
    }

    /// Everything, for drawing alone at the cursor: each line on its row.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(prefix.count + lines.reduce(0) { $0 + $1.count + 8 } + cursorAfter.count)
        out += prefix
        var row = 0
        for (line, lineRow) in zip(lines, lineRows) {
            if lineRow > row {
                out += lineRow - row == 1 ? Array("\r\n".utf8) : Array("\r".utf8) + TerminalCommand.cursorDown(lineRow - row)
                row = lineRow
            }
            out += line
        }
        out += cursorAfter
        return out
    }

    /// `bytes`, taking the picture: a kitty or sixel picture drawn alone
    /// (one line, nothing before it) keeps its own buffer and only gains
    /// `cursorAfter` at its end, where its encoder left room. Copying a
    /// 2560x1440 kitty picture's 3.6 MB twice into fresh pages had cost
    /// 1 760 page faults, about 4 ms of that drawing's CPU time.
    package consuming func joined() -> [UInt8] {
        guard prefix.isEmpty, lines.count == 1, lineRows == [0] else { return bytes }
        var out = lines.removeLast()
        out += cursorAfter
        return out
    }

    /// Blank lines, then back up: `rows` rows made for a picture without the
    /// terminal scrolling under it.
    package static func reserving(rows: Int) -> [UInt8] {
        guard rows > 0 else { return [] }
        return [UInt8](repeating: UInt8(ascii: "\n"), count: rows) + Array("\r".utf8) + TerminalCommand.cursorUp(rows)
    }
}

/// One way of drawing pictures. A backend owns everything its protocol
/// needs: drawing, moving and zooming (kitty: re-placing), erasing what it
/// drew (and only that), the teardown on exit, its box caps (through
/// `screen`) and where the cursor ends after an inline picture. Full-screen
/// pictures live in numbered slots (the viewer's picture, each browser tile);
/// a slot's picture replaces the one before it.
package protocol GraphicsBackend: AnyObject {
    /// The ways of drawing this backend draws (its names, declared in its
    /// file: `extension DrawingMethod`).
    static var methods: [DrawingMethod] { get }
    /// The method this backend draws `choice` with on `terminal`: for its
    /// own names, and for `auto` when the terminal shows its pictures; nil
    /// when it does not (`Backends.method(for:on:)` asks each in turn).
    static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod?
    /// The `--protocol` value that names `method`.
    static func choice(for method: DrawingMethod) -> ProtocolChoice
    /// What `doctor` says of `method`.
    static func doctorWords(for method: DrawingMethod) -> DoctorWords
    /// How this protocol's previews are placed and taken away
    /// (`PreviewPlacement` reads it; the backend owns it).
    static var previewStyle: PreviewStyle { get }
    /// Pictures made of characters: in tmux's grid like any text, never
    /// passed through to the terminal outside.
    static var picturesAreText: Bool { get }
    /// Pictures handed over through files or shared memory, which a killed
    /// pxview leaves behind for the next run to sweep.
    static var leavesHandovers: Bool { get }
    /// Inside tmux, a frame in flight as the pane moved can leave pixels
    /// outside the pane that only tmux's redraw of its client takes away
    /// (sixel's; kitty's go with their placements).
    static var leavesPixelsOutsideMovedPanes: Bool { get }
    /// Inside tmux, pictures go on the client's terminal directly when the
    /// pane is hidden (kitty's placements, which tmux never sees).
    static var hidesOnTheClient: Bool { get }
    /// After pictures drawn once at the prompt (`show --once`, contact
    /// sheets, `search`'s strip), before the command ends: how long to
    /// wait and what to write then so the terminal shows them; nil for most.
    static func inlineFollowUp(for drawing: DrawingPlan) -> (delayMs: Int, bytes: [UInt8])?
    /// What `PXVIEW_DEBUG`'s summary of `drawing` adds for this backend.
    static func summary(of drawing: DrawingPlan) -> String
    init(drawing: DrawingPlan, resampler: Resampler)
    /// `init(drawing:resampler:)`, as an existential (`Backends.type(for:)`'s) makes it.
    static func make(drawing: DrawingPlan, resampler: Resampler) -> any GraphicsBackend
    var method: DrawingMethod { get }
    var drawing: DrawingPlan { get }
    /// The window in this backend's units.
    var screen: BackendGeometry { get }
    /// The window was resized (the geometry measured again).
    func update(geometry: TerminalGeometry)
    /// `pixels` (already fitted, in units) at the cursor.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture
    /// True when `drawInline(rows)` draws from the rows as they are made
    /// (kitty through the pty), so the picture is never made whole first.
    var drawsRowsAsMade: Bool { get }
    /// `inline(rows.image(), imageID:).joined()` handed to `write` (false:
    /// stop), where a backend can, in parts as they are made, making the
    /// rows as it goes; false when `write` stopped. For a drawing alone at
    /// the cursor outside a multiplexer.
    func drawInline(_ rows: PixelRows, imageID: UInt32, write: (UnsafeRawBufferPointer) -> Bool) -> Bool
    /// The bytes that show `picture` in `slot`, erasing whatever the slot
    /// showed before and the new picture does not cover. Empty when the
    /// slot already shows exactly this.
    func draw(_ picture: Picture, slot: Int) -> [UInt8]
    /// The bytes that remove the slot's picture.
    func erase(slot: Int) -> [UInt8]
    /// The bytes that remove every picture and free what the terminal keeps.
    func teardown() -> [UInt8]
    /// The text layer was wiped (or written over): nothing drawn there
    /// survives, so the next `draw` of each slot draws in full.
    func forgetScreen()
    /// After a frame, the times (ms after it) at which `followUp()` is to
    /// be written; empty for most backends.
    var followUpDelaysMs: [Int] { get }
    /// Bytes that make the terminal show again what is on screen, written
    /// `followUpDelaysMs` after a frame (empty when nothing needs it).
    func followUp() -> [UInt8]
}

extension GraphicsBackend {
    package var drawsRowsAsMade: Bool { false }
    package var followUpDelaysMs: [Int] { [] }
    package func followUp() -> [UInt8] { [] }
    package static func inlineFollowUp(for drawing: DrawingPlan) -> (delayMs: Int, bytes: [UInt8])? { nil }
    package static func summary(of drawing: DrawingPlan) -> String { "" }
    package static func make(drawing: DrawingPlan, resampler: Resampler) -> any GraphicsBackend {
        Self(drawing: drawing, resampler: resampler)
    }
    package static var picturesAreText: Bool { false }
    package static var leavesHandovers: Bool { false }
    package static var leavesPixelsOutsideMovedPanes: Bool { false }
    package static var hidesOnTheClient: Bool { false }
    /// What `inlineFollowUp(for:)` says for this backend's drawing.
    package var inlineFollowUp: (delayMs: Int, bytes: [UInt8])? { Self.inlineFollowUp(for: drawing) }

    /// All at once, by default.
    package func drawInline(_ rows: PixelRows, imageID: UInt32, write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        inline(rows.image(), imageID: imageID).joined().withUnsafeBytes(write)
    }

    /// `TerminalGeometry.box` in this backend's units, capped for it.
    package func unitBox(size: PixelSize?, cells: CellCount?, reservePromptRow: Bool = true) -> PixelSize {
        if let cells, size == nil { return screen.unitBox(cells: cells) }
        return screen.unitBox(pixels: drawing.geometry.box(size: size, cells: cells, reservePromptRow: reservePromptRow))
    }
}

/// What a backend remembers about one slot.
struct SlotRecord {
    var key: PictureKey
    var source: SourceRect
    var placement: PixelRect
    var area: CellRect
    /// Every cell the picture touches.
    var cells: CellRect
    /// False after `forgetScreen`: drawn again even if unchanged.
    var onScreen: Bool
    /// The picture's pixels have no transparency (worked out once per key).
    var opaque: Bool = true
    /// The separate pictures it was drawn as (sixel bands), when more than one.
    var pieces: [CellRect] = []
    /// Drawn the settled way (sixel: diffused), where that differs from the fast way.
    var settled = false

    func shows(_ picture: Picture, cells: CellRect) -> Bool {
        onScreen && key == picture.key && source == picture.source && placement == picture.placement
            && area == picture.area && self.cells == cells
    }
}

/// The slots a backend has drawn, and what each shows.
struct SlotTable {
    private var records: [Int: SlotRecord] = [:]

    subscript(slot: Int) -> SlotRecord? {
        get { records[slot] }
        set { records[slot] = newValue }
    }

    /// Removes and returns the slot's record.
    mutating func take(_ slot: Int) -> SlotRecord? {
        records.removeValue(forKey: slot)
    }

    /// Removes every record; returns them in slot order.
    mutating func takeAll() -> [(slot: Int, record: SlotRecord)] {
        defer { records = [:] }
        return records.keys.sorted().map { ($0, records[$0]!) }
    }

    /// Nothing drawn is on screen any more (`GraphicsBackend.forgetScreen`).
    mutating func forgetScreen() {
        for slot in records.keys { records[slot]?.onScreen = false }
    }
}

/// What a protocol's previews need (`show --once --place`, `pxview clear`):
/// said by each backend of itself, so `PreviewPlacement` never asks which
/// protocol it is.
package struct PreviewStyle: Sendable {
    /// The box's cells are blanked first, and blanking takes the picture
    /// away (sixel, text, kitty's placeholders: all live in the text).
    package var blanksBox: Bool
    /// Previews are kitty images: deleted by id, the previous one after the
    /// new one is up.
    package var goesByImageID: Bool
    /// A picture on the window's last row would scroll the screen (sixel).
    package var scrollsOnLastRow: Bool
    /// What to send `PreviewPlacement.followUpDelayMs` after a preview so
    /// the terminal shows it.
    package var followUp: @Sendable (_ picture: InlinePicture, _ imageID: UInt32) -> [UInt8]

    package init(
        blanksBox: Bool, goesByImageID: Bool = false, scrollsOnLastRow: Bool = false,
        followUp: @escaping @Sendable (_ picture: InlinePicture, _ imageID: UInt32) -> [UInt8] = { _, _ in [] }
    ) {
        self.blanksBox = blanksBox
        self.goesByImageID = goesByImageID
        self.scrollsOnLastRow = scrollsOnLastRow
        self.followUp = followUp
    }
}

/// What `pxview doctor` says of a way of drawing, from its backend.
package struct DoctorWords: Sendable {
    /// Why `--protocol auto` chose it; nil for text, whose reason is the
    /// shortfall (or that there is no terminal).
    package var whyChosen: String?
    /// Said after the reason (the Linux console's half-blocks).
    package var note = ""
    /// Lines of its own: the colour registers and the sixel limit (sixel),
    /// how kitty gets pixels (kitty), the glyphs (symbols).
    package var showsSixelLimits = false
    package var showsKittyTransfer = false
    package var showsGlyphs = false

    package init(
        whyChosen: String?, note: String = "", showsSixelLimits: Bool = false, showsKittyTransfer: Bool = false,
        showsGlyphs: Bool = false
    ) {
        self.whyChosen = whyChosen
        self.note = note
        self.showsSixelLimits = showsSixelLimits
        self.showsKittyTransfer = showsKittyTransfer
        self.showsGlyphs = showsGlyphs
    }
}
