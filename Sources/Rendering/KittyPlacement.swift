import ControlSequences
import Encoding
import Pixels
import Scaling
import Terminal

/// Where a picture goes in kitty: its cells, the pixel offset and the
/// crop that place it exactly, and the tiles kitty holds for the grid.
extension KittyBackend {
    /// Where and how a picture is placed.
    struct Placement: Equatable {
        /// The first cell (absolute).
        var cell: CellRect
        /// Pixels into the first cell.
        var offset: PixelPoint
        /// 0: native size (no `c`/`r`).
        var columns: Int
        var rows: Int
        /// The source rectangle in image pixels; nil for the whole image.
        var crop: PixelRect?
    }

    /// See the type's comment.
    static func placement(
        source: SourceRect, imageSize image: PixelSize, area: CellRect, placement p: PixelRect, cell: PixelSize,
        offsetsShrink: Bool
    ) -> Placement {
        func absolute(_ x: Int, _ y: Int) -> (CellRect, PixelPoint) {
            (
                CellRect(column: area.column + x / cell.width, row: area.row + y / cell.height, columns: 1, rows: 1),
                PixelPoint(x: x % cell.width, y: y % cell.height)
            )
        }
        if p.size == image && source == SourceRect(covering: image) {
            let (first, offset) = absolute(max(0, p.x), max(0, p.y))
            return Placement(cell: first, offset: offset, columns: 0, rows: 0, crop: nil)
        }
        /// The integer crop of the source with about `width`:`height`'s
        /// aspect, centred: one scale for both axes, the larger the box asks.
        func crop(width: Int, height: Int) -> PixelRect {
            let scale = max(Double(width) / max(1e-9, source.width), Double(height) / max(1e-9, source.height))
            let size = PixelSize(
                width: max(1, min(image.width, Int((Double(width) / scale).rounded()))),
                height: max(1, min(image.height, Int((Double(height) / scale).rounded()))))
            let x = source.x + (source.width - Double(size.width)) / 2
            let y = source.y + (source.height - Double(size.height)) / 2
            return PixelRect(
                x: max(0, min(image.width - size.width, Int(x.rounded()))),
                y: max(0, min(image.height - size.height, Int(y.rounded()))), width: size.width, height: size.height)
        }
        if offsetsShrink {
            // The box ends on the last cell boundary inside the placement and
            // starts anywhere: first the crop, then the box made exactly the
            // crop's aspect, so not even rounding stretches the picture.
            let right = max(((p.x + p.width) / cell.width) * cell.width, (max(0, p.x) / cell.width + 1) * cell.width)
            let bottom = max(((p.y + p.height) / cell.height) * cell.height, (max(0, p.y) / cell.height + 1) * cell.height)
            let wanted = PixelSize(width: right - max(0, p.x), height: bottom - max(0, p.y))
            let cropped = crop(width: wanted.width, height: wanted.height)
            let scale = min(Double(wanted.width) / Double(cropped.width), Double(wanted.height) / Double(cropped.height))
            let width = max(1, min(wanted.width, Int((Double(cropped.width) * scale).rounded())))
            let height = max(1, min(wanted.height, Int((Double(cropped.height) * scale).rounded())))
            let (first, offset) = absolute(right - width, bottom - height)
            return Placement(
                cell: first, offset: offset, columns: (offset.x + width + cell.width - 1) / cell.width,
                rows: (offset.y + height + cell.height - 1) / cell.height, crop: cropped)
        }
        // Whole cells, centred on the placement to the nearest cell.
        let columns = max(1, p.width / cell.width)
        let rows = max(1, p.height / cell.height)
        let width = columns * cell.width
        let height = rows * cell.height
        let left = max(0, Int((Double(p.x + (p.width - width) / 2) / Double(cell.width)).rounded()) * cell.width)
        let top = max(0, Int((Double(p.y + (p.height - height) / 2) / Double(cell.height)).rounded()) * cell.height)
        let (first, _) = absolute(left, top)
        return Placement(
            cell: first, offset: PixelPoint(x: 0, y: 0), columns: columns, rows: rows, crop: crop(width: width, height: height))
    }
}

/// The grid's tiles kitty holds: each key's image id and bytes, in the
/// order they were last placed, and their total.
struct SharedUploads {
    private var entries: [PictureKey: (id: UInt32, bytes: Int)] = [:]
    private var order: [PictureKey] = []
    private(set) var bytes = 0

    func holds(_ key: PictureKey) -> Bool { entries[key] != nil }

    mutating func add(_ key: PictureKey, id: UInt32, bytes: Int) {
        entries[key] = (id, bytes)
        self.bytes += bytes
        touch(key)
    }

    /// `key` placed now: the last to be evicted.
    mutating func touch(_ key: PictureKey) {
        order.removeAll { $0 == key }
        if entries[key] != nil { order.append(key) }
    }

    /// Forgets every version of picture `id` (kitty's data is replaced by the next upload).
    mutating func removeVersions(of id: Int) {
        for key in entries.keys where key.id == id { remove(key) }
    }

    /// Forgets the least recently placed upload whose image is not in
    /// `placed`; its image id, for kitty to free. Nil when none can go.
    mutating func evictOldest(keeping placed: Set<UInt32>) -> UInt32? {
        guard let oldest = order.first(where: { entries[$0].map { !placed.contains($0.id) } ?? false }) else { return nil }
        return remove(oldest)
    }

    /// Forgets everything; the image ids that were held.
    mutating func removeAll() -> [UInt32] {
        let ids = entries.values.map(\.id)
        self = SharedUploads()
        return ids
    }

    @discardableResult
    private mutating func remove(_ key: PictureKey) -> UInt32? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        bytes -= entry.bytes
        order.removeAll { $0 == key }
        return entry.id
    }
}
