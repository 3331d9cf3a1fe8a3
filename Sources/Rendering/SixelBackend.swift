import ControlSequences
import Encoding
import Pixels
import Plumbing
import Scaling
import Terminal

/// Sixel: every picture is re-encoded when it changes.
///
/// - The canvas covers whole cells with the output at its exact place and
///   the rest unpainted (P2 = 1): no black bars on a light theme.
/// - Cells the slot's previous picture covered are erased (ECH) unless the
///   new picture paints them whole, so zooming out, a fit change, a resize
///   or leaving the viewer leaves no ghost. ECH first, then the picture, in
///   one frame: xterm keeps old sixel pixels under new unpainted ones.
/// - Konsole removes a sixel picture only when another covers it whole, so
///   there the old picture is also deleted with kitty's delete command
///   (Konsole applies it to sixel pictures too).
/// - A stable palette (the viewer) is made once per picture from a small
///   copy of the whole image, so colours stay put while zooming and panning.
/// - Large canvases are split into bands of whole cell rows, one per core,
///   resampled, mapped and encoded in parallel; each band is its own sixel.
final class SixelBackend: GraphicsBackend {
    /// Pixels in the text's cells: blanking takes them; one whose last
    /// pixel row lands on the last text row scrolls the screen.
    static let previewStyle = PreviewStyle(blanksBox: true, scrollsOnLastRow: true)
    static let methods: [DrawingMethod] = [.sixel]
    static var leavesPixelsOutsideMovedPanes: Bool { true }

    /// Its own name, and `auto` where the terminal lists sixel in its DA1
    /// answer (kitty's backends come first).
    static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod? {
        let shows = terminal.passesGraphics && terminal.capabilities?.sixel == true
        return choice == .sixel || (choice == .auto && shows) ? .sixel : nil
    }

    static func choice(for method: DrawingMethod) -> ProtocolChoice { .sixel }

    static func doctorWords(for method: DrawingMethod) -> DoctorWords {
        DoctorWords(
            whyChosen: "the terminal lists sixel in its DA1 answer and did not answer kitty's query", showsSixelLimits: true)
    }
    let method = DrawingMethod.sixel
    private(set) var drawing: DrawingPlan
    private(set) var screen: BackendGeometry
    private let resampler: Resampler
    private var slots = SlotTable()
    private var palettes: [Int: (key: PictureKey, mapping: Mapping)] = [:]
    /// Encoded grid tiles by key (`Picture.reusable`): scrolling the grid
    /// moves them without encoding them again.
    private var shared: [PictureKey: (placement: PixelRect, cells: CellCount, bands: [(Int, [UInt8])])] = [:]
    /// A 240x160 tile is 20–60 KB of sixel: 400 of them stay under 25 MB.
    static let maxSharedEncodings = 400

    init(drawing: DrawingPlan, resampler: Resampler) {
        self.drawing = drawing
        self.resampler = resampler
        screen = Self.screen(for: drawing.geometry)
    }

    static func screen(for geometry: TerminalGeometry) -> BackendGeometry {
        BackendGeometry(
            windowCells: geometry.windowCells, cellPixels: geometry.cellPixels, unitsPerCell: geometry.cellPixels,
            pictureLimit: geometry.sixelMaxSize)
    }

    func update(geometry: TerminalGeometry) {
        shared = [:]
        lastCanvas = [:]
        drawing.geometry = geometry
        screen = Self.screen(for: geometry)
        forgetScreen()
    }

    /// tmux drops a passthrough sequence of 1 MB or more (a 1.23 MB sixel
    /// of 1000x800 px never showed; 0.88 MB did), so inside tmux pictures go
    /// in bands of at most this many pixels: 600 KB at the densest seen
    /// (1.5 bytes per pixel, the elephants painting).
    static let multiplexedBandPixels = 400_000

    /// Cell rows per band inside tmux for a picture `width` units wide.
    func multiplexedBandRows(width: Int) -> Int {
        max(1, Self.multiplexedBandPixels / max(1, width * screen.unitsPerCell.height))
    }

    /// Sixel leaves the cursor below the picture (mlterm) or, in xterm
    /// (`TerminalTraits.sixelCursorStaysInPicture`), on the row of its last
    /// band, where the next text covered the picture's bottom strip. There
    /// its rows are reserved first (no scroll under it), the cursor saved,
    /// and after it put back and moved past the picture, whatever the band
    /// arithmetic; a picture as tall as the window, which cannot be
    /// reserved, gets a new line after it. Inside tmux, which never sees the
    /// picture, it is drawn in bands and the cursor moved past it from
    /// tmux's idea of where it is.
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let renderer = SixelRenderer(options: .init(colorRegisters: drawing.geometry.colorRegisters))
        let cells = screen.cellsCovering(pixels.size)
        guard drawing.multiplexer.wrapsGraphics else {
            guard drawing.traits.sixelCursorStaysInPicture else {
                return InlinePicture(lines: [renderer.render(pixels)], cells: cells, cursorAfter: Array("\r".utf8))
            }
            guard cells.height < drawing.geometry.windowCells.height else {
                return InlinePicture(lines: [renderer.render(pixels)], cells: cells, cursorAfter: Array("\r\n".utf8))
            }
            return InlinePicture(
                lines: [renderer.render(pixels)], cells: cells,
                prefix: InlinePicture.reserving(rows: cells.height) + TerminalCommand.saveCursor,
                cursorAfter: TerminalCommand.restoreCursor + Array("\r".utf8) + TerminalCommand.cursorDown(cells.height))
        }
        let frame = renderer.renderFrame(pixels)
        let bandHeight = multiplexedBandRows(width: pixels.width) * screen.cellPixels.height
        let tops = Array(stride(from: 0, to: max(1, pixels.height), by: bandHeight))
        let lines = tops.map { top in
            SixelEncoder().encode(frame.indexed.rows(top..<(top + bandHeight)), palette: frame.palette)
        }
        let rows = tops.map { $0 / screen.cellPixels.height }
        // tmux's cursor is on the last band's first row: down past the picture.
        let down = cells.height - (rows.last ?? 0)
        return InlinePicture(
            lines: lines, lineRows: rows, cells: cells, prefix: InlinePicture.reserving(rows: cells.height),
            cursorAfter: Array("\r".utf8) + (down > 0 ? TerminalCommand.cursorDown(down) : []))
    }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        let canvas = Canvas(picture, screen: screen)
        // Grid tiles are still pictures already.
        let mapping = picture.reusable ? nil : self.mapping(for: picture, slot: slot)
        let settled = picture.settled && mapping?.settlingDiffers == true
        if let old = slots[slot], old.shows(picture, cells: canvas.cells), old.settled || !settled { return [] }
        let opaque = slots[slot].flatMap { $0.key == picture.key ? $0.opaque : nil } ?? !picture.image.hasTransparency
        var out = removal(of: slots[slot], keeping: opaque ? canvas.coveredCells : nil)
        let bands: [(Int, [UInt8])]
        let size = CellCount(width: canvas.cells.columns, height: canvas.cells.rows)
        if picture.reusable, let kept = shared[picture.key], kept.placement == picture.placement, kept.cells == size {
            // A grid tile seen before: the same bytes at its new place.
            bands = kept.bands
        } else {
            let chosen = mapping ?? makePalette(for: picture, still: true)
            var (palette, mapper) = (chosen.palette, chosen.mapper)
            var pixels: RGBAImage?
            if settled {
                // The settled view as `show` draws a picture: a palette of its
                // own pixels, diffused against the colours the terminal shows.
                let canvasPixels = settledPixels(canvas, picture: picture, slot: slot)
                let (own, exact) = PaletteBuilder(maxColors: paletteRegisters).buildReportingExactness(from: canvasPixels)
                mapper = SixelRenderer.stillMapper(own, isExact: exact)
                palette = mapper.palette
                pixels = canvasPixels
            }
            let background = drawing.geometry.background.map { RGB(r: $0.r, g: $0.g, b: $0.b) }
            bands = encodeBands(
                canvas, picture: picture, slot: slot, palette: palette, mapper: mapper, background: background, pixels: pixels)
            if picture.reusable {
                if shared.count >= Self.maxSharedEncodings { shared = [:] }
                shared[picture.key] = (picture.placement, size, bands)
            }
        }
        var pieces: [CellRect] = []
        for (top, bytes) in bands {
            out += TerminalCommand.moveTo(row: canvas.cells.row + top + 1, column: canvas.cells.column + 1)
            out += bytes
            let rows = (pieces.count + 1 < bands.count ? bands[pieces.count + 1].0 : canvas.cells.rows) - top
            pieces.append(
                CellRect(column: canvas.cells.column, row: canvas.cells.row + top, columns: canvas.cells.columns, rows: rows))
        }
        slots[slot] = SlotRecord(
            key: picture.key, source: picture.source, placement: picture.placement, area: picture.area,
            cells: canvas.cells, onScreen: true, opaque: opaque, pieces: pieces, settled: settled)
        return out
    }

    /// The palette stays: the same picture may come back (the viewer's help closing).
    func erase(slot: Int) -> [UInt8] {
        removal(of: slots.take(slot), keeping: nil)
    }

    /// Palettes stay: the viewer's picture comes back after a resize with
    /// the same colours (a new picture has a new key, so never takes an old one).
    func teardown() -> [UInt8] {
        slots.takeAll().flatMap { removal(of: $0.record, keeping: nil) }
    }

    func forgetScreen() { slots.forgetScreen() }

    /// Erases the cells of `old` outside `keep`; in Konsole also deletes
    /// each of the old pictures (one per band) by the cell in its middle
    /// (kitty's `d=p`; Konsole 22.12 reads the cell 0-based, not 1-based as
    /// the protocol says, so the 0-based middle is sent: a 1-based reading
    /// would still land inside any band of two rows or more).
    private func removal(of old: SlotRecord?, keeping keep: CellRect?) -> [UInt8] {
        guard let old else { return [] }
        var out = CellEraser.erase(old.cells, keeping: keep)
        if drawing.traits.sixelsOutliveText {
            for piece in old.pieces.isEmpty ? [old.cells] : old.pieces {
                out += KittyEncoder().deletePlacements(
                    atColumn: piece.column + piece.columns / 2, row: piece.row + piece.rows / 2)
            }
        }
        return out
    }

    /// A picture's palette and how it is mapped the fast way, and whether
    /// the settled way draws it differently.
    struct Mapping {
        var palette: Palette
        var mapper: PaletteMapper
        /// False where a settled view would look the same (exact colours
        /// already on the percent grid) or for a still picture.
        var settlingDiffers = false
    }

    /// The slot's palette: made once per picture when stable, else per key.
    /// Small images (thumbnails) with few colours get them exactly, undithered.
    private func mapping(for picture: Picture, slot: Int) -> Mapping {
        if let kept = palettes[slot],
            picture.stablePalette ? kept.key.id == picture.key.id : kept.key == picture.key
        {
            return kept.mapping
        }
        let mapping = makePalette(for: picture)
        palettes[slot] = (picture.key, mapping)
        return mapping
    }

    /// `still`: a grid tile, drawn once and kept, diffused like `show`'s
    /// pictures; the viewer's pictures keep an ordered dither keyed to the
    /// image, which does not shimmer when panned, until the view settles.
    private func makePalette(for picture: Picture, still: Bool = false) -> Mapping {
        let (palette, exact) = PaletteBuilder(maxColors: paletteRegisters).buildReportingExactness(
            from: Self.sample(picture.paletteSample ?? picture.image, resampler: resampler))
        let stillMapper = SixelRenderer.stillMapper(palette, isExact: exact)
        if still { return Mapping(palette: stillMapper.palette, mapper: stillMapper) }
        let fast = SixelRenderer.mapper(palette, dither: exact ? .none : .ordered)
        return Mapping(
            palette: palette, mapper: fast,
            settlingDiffers: stillMapper.dither != fast.dither || stillMapper.palette != palette)
    }

    /// Colours a picture's palette may have: register 0 is the background's when it is set.
    private var paletteRegisters: Int {
        max(1, drawing.geometry.colorRegisters - (drawing.geometry.background == nil ? 0 : 1))
    }

    /// The canvas's pixels for a settled view: the last frame's, when it
    /// showed this view (no resampling), else resampled afresh.
    private func settledPixels(_ canvas: Canvas, picture: Picture, slot: Int) -> RGBAImage {
        if let last = lastCanvas[slot], last.key == picture.key, last.canvas == canvas { return last.pixels }
        return canvas.render(picture.image, rows: 0..<canvas.size.height, resampler: resampler)
    }

    /// At most 256 px on the longer side: the palette needs the colours, not the detail.
    static func sample(_ image: RGBAImage, resampler: Resampler) -> RGBAImage {
        let longest = max(image.width, image.height)
        guard longest > 256 else { return image }
        let scale = 256.0 / Double(longest)
        return resampler.resize(
            image,
            to: PixelSize(width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale))))
    }

    /// The viewer's last canvas per slot and its pixels: a pan copies what
    /// stays in view and resamples only the uncovered strips.
    private var lastCanvas: [Int: (key: PictureKey, canvas: Canvas, pixels: RGBAImage)] = [:]

    /// The canvas in bands (first cell row of each, bytes), built in parallel.
    /// For the viewer (a stable palette) the canvas is kept for the next frame.
    /// `pixels`: the canvas already resampled (a settled view's).
    private func encodeBands(
        _ canvas: Canvas, picture: Picture, slot: Int, palette: Palette, mapper: PaletteMapper, background: RGB?,
        pixels: RGBAImage? = nil
    ) -> [(Int, [UInt8])] {
        let image = picture.image
        let bands =
            drawing.multiplexer.wrapsGraphics
            ? canvas.bands(rowsPerBand: multiplexedBandRows(width: canvas.size.width))
            : canvas.bands(maxBands: picture.isAnimationFrame ? 1 : max(1, min(4, resampler.threads)))
        let origin = canvas.ditherOrigin
        let serial = Resampler(threads: 1, upscaling: resampler.upscaling)
        let cellHeight = screen.unitsPerCell.height
        let resampler = self.resampler
        let panned: RGBAImage?
        if let pixels {
            panned = pixels
        } else if picture.stablePalette, let last = lastCanvas[slot], last.key == picture.key, last.canvas == canvas {
            // The same view again (redrawn): its pixels as they were.
            panned = last.pixels
        } else if picture.stablePalette, let last = lastCanvas[slot], last.key == picture.key,
            let shift = canvas.pan(from: last.canvas)
        {
            panned = canvas.render(image, panning: last.pixels, by: shift, resampler: resampler)
            reusedFrames += 1
        } else {
            panned = nil
        }
        let keep = picture.stablePalette
        // The viewer keeps the canvas's pixels for the next frame: each band
        // copies its rows into one buffer as it goes (concatenating the
        // bands' arrays afterwards cost 1.6-3.4 ms of a 1200x800 frame,
        // alone on one core, with its page faults).
        let keepsRendered = keep && panned == nil
        let width = canvas.size.width
        var results: [[UInt8]] = []
        let rendered = [UInt8](unsafeUninitializedCapacity: keepsRendered ? width * canvas.size.height * 4 : 0) {
            buffer, count in
            let whole = buffer.baseAddress
            // Each band: its sixel bytes.
            results = ParallelRows.map(bands) { rows -> [UInt8] in
                let indexed: IndexedImage
                if let panned {
                    // The band's rows of the whole canvas, mapped where they are.
                    indexed = mapper.map(
                        panned, rows: rows, ditherOriginX: origin.x, ditherOriginY: origin.y + rows.lowerBound)
                } else {
                    let pixels = canvas.render(image, rows: rows, resampler: bands.count == 1 ? resampler : serial)
                    if keepsRendered, let whole {
                        // Bands are disjoint rows of the buffer.
                        pixels.pixels.withUnsafeBufferPointer {
                            (whole + rows.lowerBound * width * 4).initialize(from: $0.baseAddress!, count: $0.count)
                        }
                    }
                    indexed = mapper.map(pixels, ditherOriginX: origin.x, ditherOriginY: origin.y + rows.lowerBound)
                }
                return SixelEncoder().encode(indexed, palette: palette, background: background)
            }
            count = buffer.count
        }
        if keep {
            let pixels = panned ?? RGBAImage(width: width, height: canvas.size.height, pixels: rendered)
            lastCanvas[slot] = (picture.key, canvas, pixels)
        } else {
            lastCanvas[slot] = nil
        }
        return zip(bands, results).map { ($0.lowerBound / cellHeight, $1) }
    }

    /// Frames drawn by panning the last one (for tests).
    private(set) var reusedFrames = 0
}

extension DrawingMethod {
    /// DEC sixel: pixels in the text's cells.
    package static let sixel = DrawingMethod(named: "sixel")
}

extension ProtocolChoice {
    /// DEC sixel.
    package static let sixel = ProtocolChoice(named: "sixel")
}
