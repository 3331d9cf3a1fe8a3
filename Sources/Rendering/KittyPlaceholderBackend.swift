import ControlSequences
import Encoding
import Pixels
import Scaling
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// kitty graphics as Unicode placeholder text (kitty 0.28 and later, inside
/// tmux): the picture is uploaded with a virtual placement (`U=1`) through
/// passthrough, and its cells are ordinary text that tmux keeps, moves
/// with the pane and redraws after a window switch.
///
/// kitty fits a virtual placement's whole image into its cells (a crop is
/// not applied), so each view is drawn here as a canvas of whole cells,
/// exactly as for sixel (the output at its place, padding transparent),
/// and uploaded when it changes; cells the previous picture covered and the
/// new one does not are erased.
///
/// Each slot has two image ids and a new view goes to the one not on
/// screen: kitty deletes an image's pictures the moment new data arrives
/// under its id, and draws placeholder cells anew only when their text
/// changes or a `U=1` command comes (`KittyEncoder.transmitVirtual`), and
/// tmux sends a cell's text only when it changed. With one id a new view
/// blanked the old one before its own arrived, and cells tmux did not
/// send again stayed black (seen in kitty 0.48.2). With two, the new
/// view's cells name another image, so tmux sends every one of them, and
/// the old view stays until they arrive; its data is replaced by the view
/// after next.
///
/// Image ids are named by an 8-bit colour index (1...255: the slot) and a
/// high byte (the third combining mark: two per process, one per parity),
/// which tmux passes on to any 256-colour terminal unchanged. That leaves
/// 127 pairs of high bytes: two runs whose process ids agree modulo 127
/// share ids, and the later one's pictures replace the earlier one's still
/// in tmux's scrollback.
final class KittyPlaceholderBackend: GraphicsBackend {
    /// Images by id, shown through placeholder cells (text, blanked like
    /// text); the virtual placement again after a preview, which has kitty
    /// draw the cells anew.
    static let previewStyle = PreviewStyle(blanksBox: true, goesByImageID: true) { picture, imageID in
        KittyEncoder().placeVirtual(imageID: imageID, columns: picture.cells.width, rows: picture.cells.height)
    }
    static let methods: [DrawingMethod] = [.kittyPlaceholders]

    /// kitty (asked for, or with `auto` answering kitty's query) inside
    /// tmux, where the terminal is kitty 0.28 or later.
    static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod? {
        guard terminal.multiplexer.wrapsGraphics, terminal.traits.supportsPlaceholders else { return nil }
        return KittyBackend.method(for: choice, on: terminal) != nil ? .kittyPlaceholders : nil
    }

    static func choice(for method: DrawingMethod) -> ProtocolChoice { .kitty }

    static func doctorWords(for method: DrawingMethod) -> DoctorWords {
        DoctorWords(
            whyChosen: "kitty 0.28+ inside tmux: Unicode placeholders, pictures move with the pane", showsKittyTransfer: true)
    }

    /// kitty 0.48.2 inside tmux left a picture `show --once` drew black
    /// until a key came (seen in 0 of 4 runs drawn, 5 of 10 on another
    /// try); a nudge 30 ms after it, as kitty's shared-memory pictures get,
    /// drew it in 4 of 4.
    static func inlineFollowUp(for drawing: DrawingPlan) -> (delayMs: Int, bytes: [UInt8])? {
        (30, KittyEncoder().nudge())
    }

    convenience init(drawing: DrawingPlan, resampler: Resampler) {
        self.init(drawing: drawing, resampler: resampler, process: UInt32(getpid()))
    }
    let method = DrawingMethod.kittyPlaceholders
    private(set) var drawing: DrawingPlan
    private(set) var screen: BackendGeometry
    private let resampler: Resampler
    private var slots = SlotTable()
    /// Per slot, the parity of the id its picture is under (the other id
    /// may still hold the view before it).
    private var parities: [Int: UInt32] = [:]
    /// Slots whose other id still holds data (freed with the slot).
    private var spare: Set<Int> = []
    private let encoder = KittyEncoder()
    /// The first of the process's two high bytes: 1, 3, 5 ... 253.
    let highByte: UInt32

    init(drawing: DrawingPlan, resampler: Resampler, process: UInt32) {
        self.drawing = drawing
        self.resampler = resampler
        highByte = 1 + 2 * (process % 127)
        screen = Self.screen(for: drawing.geometry)
    }

    /// The combining marks name at most 297 rows and columns, so pictures
    /// are capped there (the viewer centres a capped view).
    static func screen(for geometry: TerminalGeometry) -> BackendGeometry {
        BackendGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels, unitsPerCell: geometry.cellPixels,
            pictureLimit: PixelSize(
                width: KittyPlaceholders.maxCells * geometry.cellPixels.width,
                height: KittyPlaceholders.maxCells * geometry.cellPixels.height))
    }

    func update(geometry: TerminalGeometry) {
        drawing.geometry = geometry
        screen = Self.screen(for: geometry)
        forgetScreen()
    }

    func imageID(slot: Int, parity: UInt32 = 0) -> UInt32 {
        UInt32(max(0, min(254, slot)) + 1) | (highByte + parity % 2) << 24
    }

    /// Uploaded with its virtual placement, then its rows of placeholders
    /// as text lines; the cursor ends on the line after the last.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let cells = screen.cellsCovering(pixels.size)
        let columns = min(cells.width, KittyPlaceholders.maxCells)
        let rows = min(cells.height, KittyPlaceholders.maxCells)
        let id = KittyPlaceholders.canName(imageID) ? imageID : self.imageID(slot: Int(imageID & 0xFF))
        var lines = (0..<rows).map { KittyPlaceholders.row(imageID: id, row: $0, columns: columns) }
        if !lines.isEmpty { lines[0] = encoder.transmitVirtual(pixels, imageID: id, columns: columns, rows: rows) + lines[0] }
        return InlinePicture(lines: lines, cells: CellCount(width: columns, height: rows), cursorAfter: Array("\r\n".utf8))
    }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        let canvas = Canvas(picture, screen: screen)
        if let old = slots[slot], old.shows(picture, cells: canvas.cells) { return [] }
        let parity: UInt32 = parities[slot].map { 1 - $0 } ?? 0
        let id = imageID(slot: slot, parity: parity)
        let pixels = canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
        let columns = min(canvas.cells.columns, KittyPlaceholders.maxCells)
        let rows = min(canvas.cells.rows, KittyPlaceholders.maxCells)
        // The new view's pixels first, under the id not on screen; then its
        // cells; then its virtual placement, which has kitty draw them.
        var out = encoder.transmit(pixels, imageID: id)
        out += CellEraser.erase(slots[slot]?.cells, keeping: canvas.cells)
        for row in 0..<rows {
            out += TerminalCommand.moveTo(row: canvas.cells.row + row + 1, column: canvas.cells.column + 1)
            out += KittyPlaceholders.row(imageID: id, row: row, columns: columns)
        }
        out += encoder.placeVirtual(imageID: id, columns: columns, rows: rows)
        if parities[slot] != nil { spare.insert(slot) }
        parities[slot] = parity
        slots[slot] = SlotRecord(
            key: picture.key, source: picture.source, placement: picture.placement, area: picture.area,
            cells: canvas.cells, onScreen: true)
        return out
    }

    func erase(slot: Int) -> [UInt8] {
        let old = slots.take(slot)
        return (old.map { CellEraser.erase($0.cells, keeping: nil) } ?? []) + release(slot: slot)
    }

    func teardown() -> [UInt8] {
        var out: [UInt8] = []
        for (_, record) in slots.takeAll() { out += CellEraser.erase(record.cells, keeping: nil) }
        for slot in parities.keys.sorted() { out += release(slot: slot) }
        return out
    }

    /// The slot's ids freed (the cells are the caller's).
    private func release(slot: Int) -> [UInt8] {
        guard let parity = parities.removeValue(forKey: slot) else { return [] }
        var out = encoder.release(imageID: imageID(slot: slot, parity: parity))
        if spare.remove(slot) != nil { out += encoder.release(imageID: imageID(slot: slot, parity: 1 - parity)) }
        return out
    }

    func forgetScreen() { slots.forgetScreen() }

    /// kitty 0.48.2 sometimes made a view's pictures from its placeholder
    /// cells and never showed them until something else made it draw the
    /// window again (a key, a later command): seen in 2 of 3 runs going
    /// from the grid to the viewer inside tmux, the viewer black for
    /// seconds. Placing the views' virtual placements once more a little
    /// later has kitty draw them again (5 of 5 runs shown): 150 ms, once
    /// tmux has passed the frame on, and again at 800 ms for a slow link.
    static let followUpDelays = [150, 800]

    var followUpDelaysMs: [Int] { Self.followUpDelays }

    func followUp() -> [UInt8] {
        var out: [UInt8] = []
        for (slot, parity) in parities.sorted(by: { $0.key < $1.key }) {
            guard let record = slots[slot], record.onScreen else { continue }
            out += encoder.placeVirtual(
                imageID: imageID(slot: slot, parity: parity),
                columns: min(record.cells.columns, KittyPlaceholders.maxCells),
                rows: min(record.cells.rows, KittyPlaceholders.maxCells))
        }
        return out
    }
}

extension DrawingMethod {
    /// kitty graphics shown through Unicode placeholder text (kitty 0.28+
    /// inside tmux): the picture lives in tmux's grid and moves with it.
    package static let kittyPlaceholders = DrawingMethod(named: "kitty-placeholders")
}
