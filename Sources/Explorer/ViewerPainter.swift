import Dispatch
import Encoding
import Foundation
import Pixels
import Rendering
import Scaling
import Terminal

/// What a viewer frame shows, as a pure function of the state: where the
/// picture goes and which part of the image it shows, and the text rows.
public struct ViewerPlan: Equatable, Sendable {
    /// The viewport to draw (nil while the help hides the picture).
    public var viewport: Viewport?
    /// The cells the drawn picture covers.
    public var imageCells: CellRect
    /// Help lines over the picture area, with their 0-based rows.
    public var overlay: [(row: Int, text: String)]
    public var status: String

    public static func == (lhs: ViewerPlan, rhs: ViewerPlan) -> Bool {
        lhs.viewport == rhs.viewport && lhs.imageCells == rhs.imageCells && lhs.status == rhs.status
            && lhs.overlay.map(\.row) == rhs.overlay.map(\.row) && lhs.overlay.map(\.text) == rhs.overlay.map(\.text)
    }

    public init(_ state: ViewerState) {
        let layout = state.layout
        imageCells = layout.cells(covering: state.viewport.placement)
        status = Self.statusText(state)
        if state.showHelp {
            viewport = nil
            let lines = ["keys (any key closes this help)", ""] + ViewerState.helpLines
            let top = layout.imageArea.row + max(0, (layout.imageArea.rows - lines.count) / 2)
            overlay = lines.enumerated().compactMap { index, line in
                let row = top + index
                return row < layout.imageArea.row + layout.imageArea.rows ? (row, "  " + line) : nil
            }
        } else {
            viewport = state.viewport
            overlay = []
        }
    }

    /// The bottom line: the info line when `i` is on, else the last message
    /// or a hint.
    static func statusText(_ state: ViewerState) -> String {
        let star = state.isFavourite ? " ★" : ""
        if state.showInfo {
            let viewport = state.viewport
            // Source in full-image pixels (the viewport may count half-block units).
            let source = viewport.sourceRect(inImageOf: state.fullSize)
            let zoom = String(format2: viewport.effectiveZoom)
            let visible = "\(Int(source.x)),\(Int(source.y)) \(Int(source.width.rounded()))x\(Int(source.height.rounded()))"
            var text = "\(state.title)  \(state.fullSize)  zoom \(zoom)x  fit \(ViewerState.fitName(viewport.fit))  view \(visible)\(star)"
            if let message = state.message { text += "  · " + message }
            return text
        }
        if let message = state.message { return message + star }
        return "\(state.title)\(star) · ? keys · \(state.openedDirectly ? "q quit" : "q back")"
    }
}

extension String {
    /// Two decimals without Foundation's format machinery.
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Turns viewer plans into terminal bytes, remembering what is already on
/// screen so each frame writes only what changed:
///
/// - kitty: the image is transmitted once (image id `imageID`); zoom and pan
///   re-place the same placement with a source crop and cell size, a few
///   dozen bytes per frame.
/// - sixel: the visible view is re-encoded each frame with one palette made
///   from the whole picture at the start, so colours stay put and no
///   quantizing happens per frame. Cells the new picture no longer covers
///   are erased (ECH removes sixel pixels too), so zooming out leaves no
///   ghost; the picture's partial edge cells are padded black.
/// - blocks: the view re-encoded as positioned half-block rows, padded with
///   default-background cells.
public final class ViewerPainter {
    public static let imageID: UInt32 = 1
    public let geometry: ScreenGeometry
    public let colorRegisters: Int
    public let tmuxPassthrough: Bool
    private let resampler: Resampler
    /// The decoded image (possibly scaled down by the decoder).
    public private(set) var image: RGBAImage
    /// Made from the first sixel frame and kept for every later one (and
    /// across window resizes: see `palette` in `init`), so colours stay put.
    /// The mapper is built with it: one per palette, not per band and frame.
    public private(set) var palette: Palette?
    private var mapper: PaletteMapper?
    private var kittyTransmitted = false
    private var kittyPlaced = false
    private var lastRows: [Int: [UInt8]] = [:]
    private var lastOverlayRows: [Int] = []
    private var needsFullRedraw = true
    /// The last picture drawn (sixel, blocks): an unchanged view is not re-encoded.
    private var drawnPicture: (Viewport, CellRect)?

    public init(
        image: RGBAImage, geometry: ScreenGeometry, colorRegisters: Int = DisplayTarget.sixelPaletteColors, tmuxPassthrough: Bool = false,
        palette: Palette? = nil, resampler: Resampler = Resampler()
    ) {
        self.image = image
        self.palette = palette
        mapper = palette.map { SixelRenderer.mapper($0, dither: .ordered) }
        self.geometry = geometry
        self.colorRegisters = colorRegisters
        self.tmuxPassthrough = tmuxPassthrough
        self.resampler = resampler
    }

    /// A better decode of the same picture (the full resolution): kitty
    /// uploads it once more, sixel keeps its palette.
    public func replaceImage(_ newImage: RGBAImage) {
        image = newImage
        kittyTransmitted = false
        drawnPicture = nil
    }

    /// Forget what is on screen: the next frame redraws everything.
    public func invalidate() {
        needsFullRedraw = true
        lastRows = [:]
        lastOverlayRows = []
        kittyPlaced = false
        drawnPicture = nil
    }

    /// Bytes that remove the picture when leaving the viewer.
    public func teardown() -> [UInt8] {
        guard geometry.graphics == .kitty, kittyTransmitted else { return [] }
        kittyTransmitted = false
        kittyPlaced = false
        return wrap(KittyEncoder().delete(imageID: Self.imageID))
    }

    /// The bytes of one frame for `state`.
    public func frame(for state: ViewerState) -> [UInt8] {
        let plan = ViewerPlan(state)
        let layout = state.layout
        var out: [UInt8] = []
        let overlayRows = plan.overlay.map(\.row)
        if needsFullRedraw {
            for row in 0..<geometry.windowCells.height {
                out += TerminalCommand.moveTo(row: row + 1, column: 1) + TerminalCommand.resetAttributes
                    + TerminalCommand.clearLine
            }
        } else if geometry.graphics == .kitty && lastOverlayRows != overlayRows {
            // Help text sits on the text layer under kitty's pictures: wipe it.
            for row in lastOverlayRows { out += FrameText.erase(row: row, column: 0, count: geometry.windowCells.width) }
        }
        if let viewport = plan.viewport {
            let unchanged = drawnPicture.map { $0.0 == viewport && $0.1 == plan.imageCells } ?? false
            if !unchanged || needsFullRedraw || !lastOverlayRows.isEmpty {
                out += picture(viewport, cells: plan.imageCells, layout: layout)
                drawnPicture = geometry.graphics == .kitty ? nil : (viewport, plan.imageCells)
            }
        } else {
            drawnPicture = nil
            if geometry.graphics == .kitty && kittyPlaced {
                out += wrap(KittyEncoder().deletePlacements(imageID: Self.imageID))
                kittyPlaced = false
            }
            if lastOverlayRows.isEmpty || needsFullRedraw { out += FrameText.erase(layout.imageArea) }
        }
        for (row, text) in plan.overlay {
            out += FrameText.row(row, text, width: geometry.windowCells.width)
        }
        lastOverlayRows = overlayRows
        let status = FrameText.row(layout.statusRow, plan.status, width: geometry.windowCells.width, style: TerminalCommand.inverse)
        if lastRows[layout.statusRow] != status {
            out += status
            lastRows[layout.statusRow] = status
        }
        needsFullRedraw = false
        return out
    }

    private func picture(_ viewport: Viewport, cells: CellRect, layout: ViewerLayout) -> [UInt8] {
        let source = decodedSource(viewport)
        switch geometry.graphics {
        case .kitty:
            var out: [UInt8] = []
            let encoder = KittyEncoder()
            if !kittyTransmitted {
                out += wrap(encoder.transmit(image, imageID: Self.imageID))
                kittyTransmitted = true
            }
            let crop = PixelRect(
                x: max(0, Int(source.x.rounded(.down))), y: max(0, Int(source.y.rounded(.down))),
                width: max(1, min(image.width, Int(source.width.rounded()))),
                height: max(1, min(image.height, Int(source.height.rounded()))))
            out += TerminalCommand.moveTo(row: cells.row + 1, column: cells.column + 1)
            out += wrap(encoder.place(
                imageID: Self.imageID, placementID: 1, columns: cells.columns, rows: cells.rows, crop: crop))
            kittyPlaced = true
            return out
        case .sixel:
            var out = FrameText.erase(layout.imageArea, outside: cells)
            if palette == nil {
                let made = Self.palette(for: image, registers: colorRegisters, resampler: resampler)
                palette = made
                mapper = SixelRenderer.mapper(made, dither: .ordered)
            }
            let canvas = CanvasGeometry(viewport: viewport, source: source, cells: cells, layout: layout)
            let bands = sixelBands(canvas, viewport: viewport)
            for (index, bytes) in bands.enumerated() {
                let row = cells.row + index * canvas.bandRows(count: bands.count)
                out += TerminalCommand.moveTo(row: row + 1, column: cells.column + 1)
                out += wrap(bytes)
            }
            return out
        case .blocks:
            var out = FrameText.erase(layout.imageArea, outside: cells)
            let geometry = CanvasGeometry(viewport: viewport, source: source, cells: cells, layout: layout)
            let canvas = geometry.render(image, rows: 0..<geometry.size.height, fill: 0, resampler: resampler)
            out += HalfBlockEncoder(layout: .positioned(row: cells.row + 1, column: cells.column + 1))
                .encode(canvas, columns: canvas.width, rows: (canvas.height + 1) / 2)
            return out
        }
    }

    /// The sixel view in horizontal bands of whole cell rows, one per core,
    /// each resampled, mapped to the fixed palette and encoded in parallel:
    /// resampling, mapping and encoding all scale with the pixel count, so
    /// two cores nearly halve the frame time. Each band is its own sixel
    /// image, drawn one under the other.
    private func sixelBands(_ canvas: CanvasGeometry, viewport: Viewport) -> [[UInt8]] {
        guard let palette, let mapper else { return [] }
        let count = canvas.bandCount(maxBands: max(1, min(4, resampler.threads)))
        let bandRows = canvas.bandRows(count: count)
        let originX = Int(viewport.sourceRect.x * viewport.scale) - canvas.offsetX
        let originY = Int(viewport.sourceRect.y * viewport.scale) - canvas.offsetY
        let image = self.image
        let serial = Resampler(threads: 1, upscaling: resampler.upscaling)
        let results = BandResults(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let first = index * bandRows * canvas.unitsPerCell.height
            let last = min(canvas.size.height, first + bandRows * canvas.unitsPerCell.height)
            guard first < last else { return }
            let band = canvas.render(image, rows: first..<last, fill: 255, resampler: serial)
            let indexed = mapper.map(band, ditherOriginX: originX, ditherOriginY: originY + first)
            results.set(index, SixelEncoder().encode(indexed, palette: palette))
        }
        return results.values.filter { !$0.isEmpty }
    }

    /// The viewport's source rectangle in the decoded image's pixels.
    func decodedSource(_ viewport: Viewport) -> SourceRect {
        viewport.sourceRect(inImageOf: image.size)
    }

    /// One palette for the whole picture, from a small copy of it, with
    /// black kept free for the padding.
    static func palette(for image: RGBAImage, registers: Int, resampler: Resampler) -> Palette {
        let longest = max(image.width, image.height)
        let sample: RGBAImage
        if longest > 256 {
            let scale = 256.0 / Double(longest)
            sample = resampler.resize(
                image, to: PixelSize(width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale))))
        } else {
            sample = image
        }
        var colors = PaletteBuilder(maxColors: max(1, registers - 1)).build(from: sample).colors
        let black = RGB(r: 0, g: 0, b: 0)
        if !colors.contains(black) { colors.append(black) }
        return Palette(colors: colors)
    }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] {
        tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }
}

/// Band outputs written from `concurrentPerform`'s threads.
private final class BandResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[UInt8]]

    init(count: Int) { storage = Array(repeating: [], count: count) }

    func set(_ index: Int, _ bytes: [UInt8]) { lock.withLock { storage[index] = bytes } }

    var values: [[UInt8]] { lock.withLock { storage } }
}

/// Where the view's pixels go on a canvas that covers whole cells, so every
/// cell the picture touches is fully repainted (partial edge cells get
/// padding: black for sixel, which cannot show "nothing", transparent for
/// half-blocks, which then show the terminal's background).
struct CanvasGeometry: Sendable {
    /// The canvas, in view units.
    var size: PixelSize
    var unitsPerCell: PixelSize
    /// The resampled output's top-left on the canvas.
    var offsetX: Int
    var offsetY: Int
    var output: PixelSize
    /// The source rectangle in decoded-image pixels.
    var source: SourceRect

    init(viewport: Viewport, source: SourceRect, cells: CellRect, layout: ViewerLayout) {
        let units = layout.geometry.unitsPerCell
        let view = layout.viewSize
        let originX = (cells.column - layout.imageArea.column) * units.width
        let originY = (cells.row - layout.imageArea.row) * units.height
        size = PixelSize(
            width: max(1, min(cells.columns * units.width, view.width - originX)),
            height: max(1, min(cells.rows * units.height, view.height - originY)))
        unitsPerCell = units
        offsetX = viewport.placement.x - originX
        offsetY = viewport.placement.y - originY
        output = viewport.outputSize
        self.source = source
    }

    /// Bands of at least 4 cell rows each, at most `maxBands`.
    func bandCount(maxBands: Int) -> Int {
        let cellRows = (size.height + unitsPerCell.height - 1) / unitsPerCell.height
        return max(1, min(maxBands, cellRows / 4))
    }

    /// Cell rows per band.
    func bandRows(count: Int) -> Int {
        let cellRows = (size.height + unitsPerCell.height - 1) / unitsPerCell.height
        return (cellRows + count - 1) / max(1, count)
    }

    /// Canvas rows `rows`, resampled from the source; padding alpha `fill`.
    func render(_ image: RGBAImage, rows: Range<Int>, fill: UInt8, resampler: Resampler) -> RGBAImage {
        let height = rows.count
        // The output rows this band holds.
        let top = max(rows.lowerBound, offsetY)
        let bottom = min(rows.upperBound, offsetY + output.height)
        let scaleY = source.height / Double(max(1, output.height))
        var pixels: RGBAImage?
        if top < bottom {
            let band = SourceRect(
                x: source.x, y: source.y + Double(top - offsetY) * scaleY, width: source.width,
                height: Double(bottom - top) * scaleY)
            pixels = resampler.resample(image, from: band, to: PixelSize(width: output.width, height: bottom - top))
        }
        if let pixels, offsetX == 0, top == rows.lowerBound, pixels.width == size.width, pixels.height == height {
            return pixels
        }
        var canvas = [UInt8](repeating: 0, count: size.width * height * 4)
        if fill != 0 {
            for index in stride(from: 3, to: canvas.count, by: 4) { canvas[index] = fill }
        }
        if let pixels {
            let firstX = max(0, -offsetX)
            let lastX = min(pixels.width, size.width - offsetX)
            if firstX < lastX {
                let length = (lastX - firstX) * 4
                for y in 0..<pixels.height {
                    let from = (y * pixels.width + firstX) * 4
                    let to = ((top - rows.lowerBound + y) * size.width + firstX + offsetX) * 4
                    canvas.replaceSubrange(to..<(to + length), with: pixels.pixels[from..<(from + length)])
                }
            }
        }
        return RGBAImage(width: size.width, height: height, pixels: canvas)
    }
}
