import Encoding
import Pixels
import Scaling
import Terminal

/// `▀` half-blocks: two vertical units per cell, drawn as positioned text.
/// Padding cells show the terminal's default background; cells the previous
/// picture covered and the new one does not are erased.
final class BlockBackend: GraphicsBackend {
    let method = DrawingMethod.blocks
    private(set) var display: Display
    private(set) var screen: ScreenGeometry
    private let resampler: Resampler
    private var slots = SlotTable()

    init(display: Display, resampler: Resampler) {
        self.display = display
        self.resampler = resampler
        screen = Self.screen(for: display.geometry)
    }

    static func screen(for geometry: DisplayGeometry) -> ScreenGeometry {
        ScreenGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels, unitsPerCell: PixelSize(width: 1, height: 2))
    }

    func update(geometry: DisplayGeometry) {
        display.geometry = geometry
        screen = Self.screen(for: geometry)
        forgetScreen()
    }

    /// Text lines; the cursor ends on the line after the last.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let rows = (pixels.height + 1) / 2
        let bytes = HalfBlockEncoder().encode(pixels, columns: pixels.width)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
        return InlinePicture(lines: lines, cells: PixelSize(width: pixels.width, height: rows), cursorAfter: Array("\r\n".utf8))
    }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        let canvas = Canvas(picture, screen: screen)
        if let old = slots[slot], old.shows(picture, cells: canvas.cells) { return [] }
        var out = CellEraser.erase(slots[slot]?.cells, keeping: canvas.cells)
        let pixels = canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
        out += HalfBlockEncoder(layout: .positioned(row: canvas.cells.row + 1, column: canvas.cells.column + 1))
            .encode(pixels, columns: canvas.cells.columns, rows: canvas.cells.rows)
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
