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
/// Image ids are named by an 8-bit colour index (1...255: the slot) and a
/// high byte per process (the third combining mark), which tmux passes on
/// to any 256-colour terminal unchanged. That leaves 255 high bytes: two
/// runs whose process ids agree modulo 255 share ids, and the later one's
/// pictures replace the earlier one's still in tmux's scrollback.
final class KittyPlaceholderBackend: GraphicsBackend {
    let method = DrawingMethod.kittyPlaceholders
    private(set) var drawing: DrawingPlan
    private(set) var screen: BackendGeometry
    private let resampler: Resampler
    private var slots = SlotTable()
    private let encoder = KittyEncoder()
    /// The image id's high byte: 1...255, from the process id.
    let highByte: UInt32

    init(drawing: DrawingPlan, resampler: Resampler, highByte: UInt32 = UInt32(getpid() % 255) + 1) {
        self.drawing = drawing
        self.resampler = resampler
        self.highByte = max(1, min(255, highByte))
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

    func imageID(slot: Int) -> UInt32 { UInt32(max(0, min(254, slot)) + 1) | highByte << 24 }

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
        let id = imageID(slot: slot)
        var out = CellEraser.erase(slots[slot]?.cells, keeping: canvas.cells)
        let pixels = canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
        let columns = min(canvas.cells.columns, KittyPlaceholders.maxCells)
        let rows = min(canvas.cells.rows, KittyPlaceholders.maxCells)
        out += encoder.transmitVirtual(pixels, imageID: id, columns: columns, rows: rows)
        for row in 0..<rows {
            out += TerminalCommand.moveTo(row: canvas.cells.row + row + 1, column: canvas.cells.column + 1)
            out += KittyPlaceholders.row(imageID: id, row: row, columns: columns)
        }
        slots[slot] = SlotRecord(
            key: picture.key, source: picture.source, placement: picture.placement, area: picture.area,
            cells: canvas.cells, onScreen: true)
        return out
    }

    func erase(slot: Int) -> [UInt8] {
        guard let old = slots.take(slot) else { return [] }
        return removal(of: old, slot: slot)
    }

    func teardown() -> [UInt8] {
        slots.takeAll().flatMap { removal(of: $0.record, slot: $0.slot) }
    }

    func forgetScreen() { slots.forgetScreen() }

    /// Its cells blanked and its image freed.
    private func removal(of old: SlotRecord, slot: Int) -> [UInt8] {
        CellEraser.erase(old.cells, keeping: nil) + encoder.release(imageID: imageID(slot: slot))
    }
}
