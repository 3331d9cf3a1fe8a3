import ControlSequences
import Pixels
import Scaling
import Terminal

/// The text picture for a terminal in a C locale: one space per cell on a
/// 24-bit background colour, so every byte is ASCII. A `▀` half-block is
/// three bytes of UTF-8, which such a terminal shows as three Latin-1
/// characters, each row of the picture three times too wide. One colour
/// per cell is half the half-blocks' vertical resolution: the price of
/// ASCII. Padding and transparent cells show the terminal's default
/// background, as with half-blocks.
final class ColourCellBackend: GraphicsBackend {
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

    /// One unit per cell.
    static func screen(for geometry: DisplayGeometry) -> ScreenGeometry {
        ScreenGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels, unitsPerCell: PixelSize(width: 1, height: 1))
    }

    func update(geometry: DisplayGeometry) {
        display.geometry = geometry
        screen = Self.screen(for: geometry)
        forgetScreen()
    }

    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let lines = (0..<pixels.height).map { Self.encodeRow(pixels, row: $0, columns: pixels.width) }
        return InlinePicture(lines: lines, cells: pixels.size, cursorAfter: Array("\r\n".utf8))
    }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        let canvas = Canvas(picture, screen: screen)
        if let old = slots[slot], old.shows(picture, cells: canvas.cells) { return [] }
        var out = CellEraser.erase(slots[slot]?.cells, keeping: canvas.cells)
        let pixels = canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
        for row in 0..<canvas.cells.rows {
            out += TerminalCommand.moveTo(row: canvas.cells.row + row + 1, column: canvas.cells.column + 1)
            out += Self.encodeRow(pixels, row: row, columns: canvas.cells.columns)
        }
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

    /// Row `row` of `image` as `columns` spaces, each on its pixel's colour
    /// (alpha under 128: the default background), a colour written only
    /// when it changes; starts and ends with `ESC[0m` so nothing leaks.
    static func encodeRow(_ image: RGBAImage, row: Int, columns: Int) -> [UInt8] {
        var out = TerminalCommand.resetAttributes
        out.reserveCapacity(columns * 20 + 8)
        var current: [UInt8]?  // nil: the default background
        for x in 0..<columns {
            var wanted: [UInt8]?
            if x < image.width, row < image.height {
                let i = (row * image.width + x) * 4
                if image.pixels[i + 3] >= 128 { wanted = Array(image.pixels[i..<(i + 3)]) }
            }
            if wanted != current {
                if let rgb = wanted {
                    out += TerminalCommand.backgroundRGBPrefix + Array("\(rgb[0]);\(rgb[1]);\(rgb[2])m".utf8)
                } else {
                    out += TerminalCommand.defaultBackground
                }
                current = wanted
            }
            out.append(UInt8(ascii: " "))
        }
        return out + TerminalCommand.resetAttributes
    }
}
