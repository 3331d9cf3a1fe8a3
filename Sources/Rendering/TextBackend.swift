import ControlSequences
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
///
/// In a C locale (`DrawingPlan.glyphs == .ascii`) every cell is a space on its
/// colour instead, so every byte is ASCII: a `▄` is three bytes of UTF-8,
/// which such a terminal shows as three Latin-1 characters, each row of the
/// picture three times too wide. One colour per cell is the price of ASCII.
final class TextBackend: GraphicsBackend {
    /// Text: blanked like any text.
    static let previewStyle = PreviewStyle(blanksBox: true)
    static var picturesAreText: Bool { true }
    static let methods: [DrawingMethod] = [.symbols, .blocks]

    /// Its own names, and `auto` anywhere (it comes last): half-blocks on
    /// the Linux console (`linuxConsole`: `TERM=linux`), whose VGA font's
    /// 256 characters (code page 437) have `▀ ▄ █ ▌ ▐` but none of the
    /// eighths or quadrants (console-setup's fonts vary; `--protocol
    /// symbols` asks for them).
    static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod? {
        switch choice {
        case .symbols: return .symbols
        case .blocks: return .blocks
        case .auto: return terminal.linuxConsole ? .blocks : .symbols
        default: return nil
        }
    }

    static func choice(for method: DrawingMethod) -> ProtocolChoice { method == .blocks ? .blocks : .symbols }

    static func doctorWords(for method: DrawingMethod) -> DoctorWords {
        method == .blocks
            ? DoctorWords(whyChosen: nil, note: ", half-blocks: the Linux console's font has no other block characters")
            : DoctorWords(whyChosen: nil, showsGlyphs: true)
    }

    static func summary(of drawing: DrawingPlan) -> String {
        drawing.method == .symbols ? (drawing.sextants ? ", with sextants" : ", no sextants") : ""
    }
    let method: DrawingMethod
    private(set) var drawing: DrawingPlan
    private(set) var screen: BackendGeometry
    private let resampler: Resampler
    private let encoder: TextPictureEncoder
    /// Coloured spaces (a C locale) rather than the encoder's glyphs.
    private let colourCells: Bool
    private var slots = SlotTable()

    init(drawing: DrawingPlan, resampler: Resampler) {
        method = drawing.method
        self.drawing = drawing
        self.resampler = resampler
        encoder = TextPictureEncoder(repertoire: Self.repertoire(for: drawing))
        colourCells = drawing.glyphs == .ascii
        screen = Self.screen(for: drawing.geometry, repertoire: encoder.repertoire, colourCells: colourCells)
    }

    /// Half-blocks for `blocks`; for `symbols` the block elements, with the
    /// sextants where the terminal draws them (`DrawingPlan.sextants`).
    static func repertoire(for drawing: DrawingPlan) -> GlyphRepertoire {
        guard drawing.method == .symbols else { return .halfBlocks }
        return drawing.sextants ? .sextants : .blocks
    }

    /// The samples a cell is judged on: the repertoire's, or one for a
    /// coloured space.
    static func screen(for geometry: TerminalGeometry, repertoire: GlyphRepertoire, colourCells: Bool = false)
        -> BackendGeometry
    {
        BackendGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels,
            unitsPerCell: colourCells
                ? PixelSize(width: 1, height: 1) : PixelSize(width: repertoire.columns, height: repertoire.rows),
            wholeCells: true)
    }

    func update(geometry: TerminalGeometry) {
        drawing.geometry = geometry
        screen = Self.screen(for: geometry, repertoire: encoder.repertoire, colourCells: colourCells)
        forgetScreen()
    }

    /// `pixels` as `rows` lines of `columns` cells, each started at
    /// `layout`'s place when positioned.
    private func encode(_ pixels: RGBAImage, columns: Int, rows: Int, layout: TextPictureEncoder.LineLayout? = nil) -> [UInt8] {
        guard colourCells else {
            var positioned = encoder
            if let layout { positioned.layout = layout }
            return positioned.encode(pixels, columns: columns, rows: rows)
        }
        var out: [UInt8] = []
        for row in 0..<rows {
            if case .positioned(let top, let left) = layout {
                out += TerminalCommand.moveTo(row: top + row, column: left)
            } else if row > 0 {
                out += Array("\r\n".utf8)
            }
            out += Self.colourCellRow(pixels, row: row, columns: columns)
        }
        return out
    }

    /// Text lines; the cursor ends on the line after the last.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let cells = screen.cellsCovering(pixels.size)
        let bytes = encode(pixels, columns: cells.width, rows: cells.height)
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
        out += encode(
            pixels, columns: canvas.cells.columns, rows: canvas.cells.rows,
            layout: .positioned(row: canvas.cells.row + 1, column: canvas.cells.column + 1))
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
    static func colourCellRow(_ image: RGBAImage, row: Int, columns: Int) -> [UInt8] {
        var out = TerminalCommand.resetAttributes
        out.reserveCapacity(columns * 20 + 8)
        var current: RGB?  // nil: the default background
        for x in 0..<columns {
            var wanted: RGB?
            if x < image.width, row < image.height {
                let i = (row * image.width + x) * 4
                if image.pixels[i + 3] >= 128 { wanted = RGB(r: image.pixels[i], g: image.pixels[i + 1], b: image.pixels[i + 2]) }
            }
            if wanted != current {
                if let rgb = wanted {
                    out += TerminalCommand.backgroundRGBPrefix + Array("\(rgb.r);\(rgb.g);\(rgb.b)m".utf8)
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

extension DrawingMethod {
    /// Text: per cell the block character (eighths, halves, quadrants,
    /// sextants where drawn) and two colours that match its pixels best.
    package static let symbols = DrawingMethod(named: "symbols")
    /// Text: `▄` half-blocks, two pixels per cell.
    package static let blocks = DrawingMethod(named: "blocks")
}

extension ProtocolChoice {
    /// Text pictures of block symbols chosen per cell.
    package static let symbols = ProtocolChoice(named: "symbols")
    /// Text pictures of `▄` half-blocks.
    package static let blocks = ProtocolChoice(named: "blocks")
}
