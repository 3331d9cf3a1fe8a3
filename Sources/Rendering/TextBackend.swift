import Encoding
import Pixels
import Scaling
import Terminal

/// Pictures as text, drawn as positioned lines: `symbols` (a glyph chosen
/// per cell from eighths, halves and quadrants, and sextants where the
/// terminal draws them, judged on 8x8 samples per cell) or `blocks` (`▄`
/// half-blocks, two samples per cell). Padding cells show the terminal's
/// default background; cells the previous picture covered and the new one
/// does not are erased.
final class TextBackend: GraphicsBackend {
    let method: DrawingMethod
    private(set) var display: Display
    private(set) var screen: ScreenGeometry
    private let resampler: Resampler
    private let encoder: TextPictureEncoder
    private var slots = SlotTable()

    init(display: Display, resampler: Resampler) {
        method = display.method
        self.display = display
        self.resampler = resampler
        encoder = TextPictureEncoder(repertoire: Self.repertoire(for: display))
        screen = Self.screen(for: display.geometry, repertoire: encoder.repertoire)
    }

    /// Half-blocks for `blocks`; for `symbols` the block elements, with the
    /// sextants where the terminal draws them (`Display.sextants`).
    static func repertoire(for display: Display) -> GlyphRepertoire {
        guard display.method == .symbols else { return .halfBlocks }
        return display.sextants ? .sextants : .blocks
    }

    static func screen(for geometry: DisplayGeometry, repertoire: GlyphRepertoire) -> ScreenGeometry {
        ScreenGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels,
            unitsPerCell: PixelSize(width: repertoire.columns, height: repertoire.rows), wholeCells: true)
    }

    func update(geometry: DisplayGeometry) {
        display.geometry = geometry
        screen = Self.screen(for: geometry, repertoire: encoder.repertoire)
        forgetScreen()
    }

    /// Text lines; the cursor ends on the line after the last.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let cells = screen.cellsCovering(pixels.size)
        let bytes = encoder.encode(pixels, columns: cells.width, rows: cells.height)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
        return InlinePicture(lines: lines, cells: cells, cursorAfter: Array("\r\n".utf8))
    }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        let canvas = Canvas(picture, screen: screen)
        if let old = slots[slot], old.shows(picture, cells: canvas.cells) { return [] }
        var out = CellEraser.erase(slots[slot]?.cells, keeping: canvas.cells)
        let pixels = canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
        var positioned = encoder
        positioned.layout = .positioned(row: canvas.cells.row + 1, column: canvas.cells.column + 1)
        out += positioned.encode(pixels, columns: canvas.cells.columns, rows: canvas.cells.rows)
        slots[slot] = SlotRecord(
            key: picture.key, source: picture.source, placement: picture.placement, area: picture.area,
            cells: canvas.cells, onScreen: true)
        return out
    }

    func erase(slot: Int) -> [UInt8] {
        CellEraser.erase(slots.take(slot)?.cells, keeping: nil)
    }

    func teardown() -> [UInt8] {
        slots.takeAll().flatMap { CellEraser.erase($0.record.cells, keeping: nil) }
    }

    func forgetScreen() { slots.forgetScreen() }
}
