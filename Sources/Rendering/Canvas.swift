import Pixels
import Scaling

/// A picture's pixels on whole cells: the cells the output touches, with
/// the output at its exact place and the rest of those cells transparent.
/// Sixel, text pictures and kitty placeholders all draw cell-aligned, so each
/// draws this canvas; the padding is left unpainted (never black), which
/// shows the terminal's own background on light and dark themes.
struct Canvas: Sendable, Equatable {
    /// The cells painted (absolute).
    var cells: CellRect
    /// The canvas in units: the cells, clipped to the picture limit.
    var size: PixelSize
    /// The output's top-left on the canvas.
    var outputOrigin: PixelPoint
    var output: PixelSize
    /// The source rectangle in image pixels.
    var source: SourceRect
    var unitsPerCell: PixelSize

    init(_ picture: Picture, screen: BackendGeometry) {
        let units = screen.unitsPerCell
        let placement = picture.placement
        cells = screen.cells(covering: placement, from: picture.area)
        let originX = (cells.column - picture.area.column) * units.width
        let originY = (cells.row - picture.area.row) * units.height
        var width = cells.columns * units.width
        var height = cells.rows * units.height
        // xterm drops a sixel picture larger than its limit; the view is
        // within it, so at most the last partial cell is cut.
        if let limit = screen.pictureLimit {
            width = min(width, limit.width)
            height = min(height, limit.height)
        }
        size = PixelSize(width: max(1, width), height: max(1, height))
        outputOrigin = PixelPoint(x: placement.x - originX, y: placement.y - originY)
        output = placement.size
        source = picture.source
        unitsPerCell = units
    }

    /// The cells entirely inside the output: where an opaque picture leaves
    /// nothing of what was there before.
    var coveredCells: CellRect? {
        let units = unitsPerCell
        let firstColumn = (outputOrigin.x + units.width - 1) / units.width
        let firstRow = (outputOrigin.y + units.height - 1) / units.height
        let lastColumn = (outputOrigin.x + output.width) / units.width
        let lastRow = (outputOrigin.y + output.height) / units.height
        guard lastColumn > firstColumn, lastRow > firstRow else { return nil }
        return CellRect(
            column: cells.column + firstColumn, row: cells.row + firstRow, columns: lastColumn - firstColumn,
            rows: lastRow - firstRow)
    }

    /// Canvas rows in bands of whole cell rows, at least 4 cell rows each
    /// and at most `maxBands`: one per core for the sixel viewer.
    func bands(maxBands: Int) -> [Range<Int>] {
        let cellRows = (size.height + unitsPerCell.height - 1) / unitsPerCell.height
        let count = max(1, min(maxBands, cellRows / 4))
        return bands(rowsPerBand: (cellRows + count - 1) / count)
    }

    /// Canvas rows in bands of `rowsPerBand` cell rows (the last may be shorter).
    func bands(rowsPerBand: Int) -> [Range<Int>] {
        let cellRows = (size.height + unitsPerCell.height - 1) / unitsPerCell.height
        let rowsPerBand = max(1, rowsPerBand)
        let count = (cellRows + rowsPerBand - 1) / rowsPerBand
        return (0..<count).compactMap { index in
            let first = index * rowsPerBand * unitsPerCell.height
            let last = min(size.height, first + rowsPerBand * unitsPerCell.height)
            return first < last ? first..<last : nil
        }
    }

    /// Canvas rows `rows`, resampled from `image`; padding transparent.
    func render(_ image: RGBAImage, rows: Range<Int>, resampler: Resampler) -> RGBAImage {
        let height = rows.count
        // The output rows this band holds.
        let top = max(rows.lowerBound, outputOrigin.y)
        let bottom = min(rows.upperBound, outputOrigin.y + output.height)
        let scaleY = source.height / Double(max(1, output.height))
        var pixels: RGBAImage?
        if top < bottom {
            let band = SourceRect(
                x: source.x, y: source.y + Double(top - outputOrigin.y) * scaleY, width: source.width,
                height: Double(bottom - top) * scaleY)
            pixels = resampler.resample(image, from: band, to: PixelSize(width: output.width, height: bottom - top))
        }
        if let pixels, outputOrigin.x == 0, top == rows.lowerBound, pixels.width == size.width, pixels.height == height {
            return pixels
        }
        var canvas = [UInt8](repeating: 0, count: size.width * height * 4)
        if let pixels {
            let firstX = max(0, -outputOrigin.x)
            let lastX = min(pixels.width, size.width - outputOrigin.x)
            if firstX < lastX {
                let length = (lastX - firstX) * 4
                for y in 0..<pixels.height {
                    let from = (y * pixels.width + firstX) * 4
                    let to = ((top - rows.lowerBound + y) * size.width + firstX + outputOrigin.x) * 4
                    canvas.replaceSubrange(to..<(to + length), with: pixels.pixels[from..<(from + length)])
                }
            }
        }
        return RGBAImage(width: size.width, height: height, pixels: canvas)
    }

    /// How far this canvas's view moved from `old`'s, in whole output
    /// pixels, when it is the same view panned (same size, scale and
    /// output filling the canvas from its top-left, source moved by whole
    /// output pixels give or take 1/100): then what both show can be copied
    /// from `old`'s pixels. Nil otherwise (a zoom, a resize, a view that fits).
    func pan(from old: Canvas) -> PixelPoint? {
        guard size == old.size, output == old.output, outputOrigin == PixelPoint(x: 0, y: 0),
            old.outputOrigin == outputOrigin, output.width >= size.width, output.height >= size.height,
            abs(source.width - old.source.width) <= 1e-9 * source.width,
            abs(source.height - old.source.height) <= 1e-9 * source.height
        else { return nil }
        let x = (source.x - old.source.x) * Double(output.width) / source.width
        let y = (source.y - old.source.y) * Double(output.height) / source.height
        let dx = Int(x.rounded())
        let dy = Int(y.rounded())
        guard abs(x - Double(dx)) < 0.01, abs(y - Double(dy)) < 0.01, abs(dx) < size.width, abs(dy) < size.height else {
            return nil
        }
        return PixelPoint(x: dx, y: dy)
    }

    /// The whole canvas from `old`'s pixels moved by `shift` (`pan(from:)`),
    /// resampling only the strips the pan uncovered: a fifth of a pan step's
    /// work. The strips are resampled with the same centres a full render
    /// uses, so the result is the same picture.
    func render(_ image: RGBAImage, panning old: RGBAImage, by shift: PixelPoint, resampler: Resampler) -> RGBAImage {
        let width = size.width
        let height = size.height
        let firstX = max(0, -shift.x)
        let lastX = min(width, width - shift.x)
        let firstY = max(0, -shift.y)
        let lastY = min(height, height - shift.y)
        let scaleX = source.width / Double(output.width)
        let scaleY = source.height / Double(output.height)
        // The uncovered columns (all rows), then the uncovered rows (the other columns).
        let newColumns = shift.x > 0 ? lastX..<width : 0..<firstX
        let keptColumns = shift.x > 0 ? 0..<lastX : firstX..<width
        let newRows = shift.y > 0 ? lastY..<height : 0..<firstY
        func strip(columns: Range<Int>, rows: Range<Int>) -> RGBAImage? {
            guard !columns.isEmpty, !rows.isEmpty else { return nil }
            return resampler.resample(
                image,
                from: SourceRect(
                    x: source.x + Double(columns.lowerBound) * scaleX, y: source.y + Double(rows.lowerBound) * scaleY,
                    width: Double(columns.count) * scaleX, height: Double(rows.count) * scaleY),
                to: PixelSize(width: columns.count, height: rows.count))
        }
        let strips = [(newColumns, 0..<height), (keptColumns, newRows)].compactMap { columns, rows in
            strip(columns: columns, rows: rows).map { (columns, rows, $0) }
        }
        // Every pixel is written once, kept or from a strip: no clearing first.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            let out = out.baseAddress!
            old.pixels.withUnsafeBufferPointer { previous in
                let length = (lastX - firstX) * 4
                guard length > 0 else { return }
                for y in firstY..<lastY {
                    let from = ((y + shift.y) * width + firstX + shift.x) * 4
                    (out + (y * width + firstX) * 4).initialize(from: previous.baseAddress! + from, count: length)
                }
            }
            for (columns, rows, strip) in strips {
                strip.pixels.withUnsafeBufferPointer { strip in
                    for y in 0..<rows.count {
                        (out + ((rows.lowerBound + y) * width + columns.lowerBound) * 4).initialize(
                            from: strip.baseAddress! + y * columns.count * 4, count: columns.count * 4)
                    }
                }
            }
            initialized = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The dither origin: the canvas's top-left in the scaled image's
    /// coordinates, so the pattern stays attached to the picture while panning.
    var ditherOrigin: PixelPoint {
        let scaleX = Double(output.width) / max(1e-9, source.width)
        let scaleY = Double(output.height) / max(1e-9, source.height)
        return PixelPoint(
            x: Int(source.x * scaleX) - outputOrigin.x, y: Int(source.y * scaleY) - outputOrigin.y)
    }
}

/// Erasing cells, which removes sixel pixels and text pictures under them
/// (ECH: tmux always passes it on, unlike EL on a line it thinks is blank).
enum CellEraser {
    /// The cells of `old` not in `keep`.
    static func erase(_ old: CellRect?, keeping keep: CellRect?) -> [UInt8] {
        guard let old else { return [] }
        guard let keep, let overlap = old.intersection(keep) else { return FrameText.erase(old) }
        return FrameText.erase(old, outside: overlap)
    }
}

extension CellRect {
    /// The common cells, or nil.
    func intersection(_ other: CellRect) -> CellRect? {
        let left = max(column, other.column)
        let top = max(row, other.row)
        let right = min(column + columns, other.column + other.columns)
        let bottom = min(row + rows, other.row + other.rows)
        guard right > left, bottom > top else { return nil }
        return CellRect(column: left, row: top, columns: right - left, rows: bottom - top)
    }
}
