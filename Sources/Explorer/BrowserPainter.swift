import Pixabay
import Pixels
import Rendering
import Scaling
import Terminal

/// What one thumbnail slot shows.
public enum SlotContent: Equatable, Sendable {
    case empty
    /// Waiting for (or failed to get) the thumbnail of hit `id`.
    case placeholder(id: Int, text: String)
    case picture(id: Int)
}

/// A browser frame as a pure function of the state: every text row, and
/// what each slot shows and whether it is framed as selected.
public struct BrowserPlan: Equatable, Sendable {
    public var rows: [Int: (text: String, inverse: Bool)]
    public var slots: [SlotContent]
    public var selectedSlot: Int?

    public static func == (lhs: BrowserPlan, rhs: BrowserPlan) -> Bool {
        lhs.slots == rhs.slots && lhs.selectedSlot == rhs.selectedSlot
            && lhs.rows.keys.sorted() == rhs.rows.keys.sorted()
            && lhs.rows.keys.allSatisfy { lhs.rows[$0]?.text == rhs.rows[$0]?.text && lhs.rows[$0]?.inverse == rhs.rows[$0]?.inverse }
    }

    public init(_ state: BrowserState, hasPicture: (Int) -> Bool) {
        let layout = state.layout
        var rows: [Int: (String, Bool)] = [:]
        if let text = state.editText {
            rows[layout.searchRow] = ("Search: \(text)█  (Enter search, Esc cancel)", true)
        } else {
            let label = state.showingFavourites ? "Favourites" : "Search: \(state.query.isEmpty ? "(everything)" : state.query)"
            rows[layout.searchRow] = ("\(label)   / edit · ←→ select · Enter view · n/p page · f fav · F favourites · q quit", false)
        }
        rows[layout.searchRow + 1] = ("", false)
        if let hit = state.selectedHit {
            let favourite = state.favouriteIDs.contains(hit.id) ? "  ★ favourite" : ""
            rows[layout.detailsRow] = (
                "#\(hit.id)  \(hit.imageWidth)x\(hit.imageHeight)  by \(hit.user)  ♥ \(hit.likes)\(favourite)", false
            )
            rows[layout.detailsRow + 1] = ("tags: \(hit.tags)", false)
        } else {
            rows[layout.detailsRow] = (state.searching ? "" : "nothing to show", false)
            rows[layout.detailsRow + 1] = ("", false)
        }
        for row in (layout.detailsRow + 2)..<max(layout.detailsRow + 2, layout.statusRow) { rows[row] = ("", false) }
        rows[layout.statusRow] = (state.statusText, true)
        self.rows = rows.filter { $0.key >= 0 && $0.key < layout.geometry.windowCells.height }
        let range = state.visibleRange
        slots = layout.slots.indices.map { slot in
            let index = range.lowerBound + slot
            guard range.contains(index) else { return .empty }
            let hit = state.hits[index]
            if hasPicture(hit.id) { return .picture(id: hit.id) }
            return .placeholder(id: hit.id, text: state.tiles[hit.id] == .failed ? "no image" : "loading…")
        }
        selectedSlot = range.contains(state.selection) ? state.selection - range.lowerBound : nil
    }
}

/// Turns browser plans into bytes, redrawing a slot only when what it
/// shows changed and a text row only when its text changed. Tile `n` is
/// the backend's slot `firstSlot + n`.
public final class BrowserPainter {
    public static let firstSlot = 1
    public let backend: any GraphicsBackend
    private var drawnSlots: [SlotContent] = []
    private var drawnSelection: Int?? = .none
    private var lastRows: [Int: [UInt8]] = [:]
    /// Thumbnails fitted to the tile box, by hit id.
    private var fitted: [Int: RGBAImage] = [:]
    private let resampler: Resampler

    public init(backend: any GraphicsBackend, resampler: Resampler = Resampler(threads: 1)) {
        self.backend = backend
        self.resampler = resampler
    }

    /// Forget what is on screen: the next frame redraws everything.
    public func invalidate() {
        drawnSlots = []
        drawnSelection = .none
        lastRows = [:]
        backend.forgetScreen()
    }

    /// The tile size changed (a resize): fitted thumbnails are made again.
    public func relayout() {
        fitted = [:]
        invalidate()
    }

    /// Bytes that remove the thumbnails before another screen takes over.
    public func teardown() -> [UInt8] {
        drawnSlots = []
        drawnSelection = .none
        lastRows = [:]
        return backend.teardown()
    }

    /// The bytes of one frame. `thumbnails` holds the decoded previews by hit id.
    public func frame(for state: BrowserState, thumbnails: [Int: RGBAImage]) -> [UInt8] {
        let layout = state.layout
        let plan = BrowserPlan(state, hasPicture: { thumbnails[$0] != nil })
        var out: [UInt8] = []
        let width = layout.geometry.windowCells.width
        if drawnSlots.isEmpty && drawnSelection == .none {
            // First frame on this screen: wipe the rows the plan leaves alone (the strip).
            for row in 0..<layout.geometry.windowCells.height where plan.rows[row] == nil {
                out += FrameText.erase(row: row, column: 0, count: width)
            }
            backend.forgetScreen()
        }
        for row in plan.rows.keys.sorted() {
            guard let (text, inverse) = plan.rows[row] else { continue }
            let bytes = FrameText.row(row, text, width: width, style: inverse ? TerminalCommand.inverse : [])
            if lastRows[row] != bytes {
                out += bytes
                lastRows[row] = bytes
            }
        }
        if drawnSelection != .some(plan.selectedSlot) || drawnSlots.count != plan.slots.count {
            for slot in layout.slots.indices { out += frameBorder(layout.slots[slot], selected: slot == plan.selectedSlot) }
            drawnSelection = .some(plan.selectedSlot)
        }
        for (slot, content) in plan.slots.enumerated() {
            let drawn = slot < drawnSlots.count ? drawnSlots[slot] : nil
            guard drawn != content else { continue }
            out += drawSlot(slot, content: content, previous: drawn, layout: layout, thumbnails: thumbnails)
        }
        drawnSlots = plan.slots
        return out
    }

    private func drawSlot(
        _ slot: Int, content: SlotContent, previous: SlotContent?, layout: BrowserLayout, thumbnails: [Int: RGBAImage]
    ) -> [UInt8] {
        let area = layout.tileArea(slot: slot)
        let backendSlot = Self.firstSlot + slot
        var out: [UInt8] = []
        if case .picture = content {} else { out += backend.erase(slot: backendSlot) + FrameText.erase(area) }
        switch content {
        case .empty:
            break
        case let .placeholder(_, text):
            out += FrameText.field(
                row: area.row + area.rows / 2, column: area.column, centred(text, width: area.columns), width: area.columns,
                style: TerminalCommand.dim)
        case .picture(let id):
            guard let thumbnail = fittedThumbnail(id: id, thumbnails: thumbnails, box: layout.tileBox, screen: layout.geometry)
            else { break }
            if case .picture = previous {} else { out += FrameText.erase(area) }
            out += backend.draw(
                Picture.centred(image: thumbnail, key: PictureKey(id: id), area: area, screen: layout.geometry),
                slot: backendSlot)
        }
        return out
    }

    /// The preview scaled to fit the tile (in image units), cached.
    private func fittedThumbnail(id: Int, thumbnails: [Int: RGBAImage], box: PixelSize, screen: ScreenGeometry) -> RGBAImage? {
        if let done = fitted[id] { return done }
        guard let preview = thumbnails[id] else { return nil }
        let viewport = Viewport(imageSize: screen.unitImageSize(preview.size), viewSize: box, fit: .contain)
        let result = resampler.resample(preview, from: SourceRect(covering: preview.size), to: viewport.outputSize)
        fitted[id] = result
        return result
    }

    private func frameBorder(_ slot: CellRect, selected: Bool) -> [UInt8] {
        let inner = max(0, slot.columns - 2)
        let style = selected ? TerminalCommand.bold : []
        let top = selected ? "┌" + String(repeating: "─", count: inner) + "┐" : String(repeating: " ", count: slot.columns)
        let bottom = selected ? "└" + String(repeating: "─", count: inner) + "┘" : String(repeating: " ", count: slot.columns)
        let side = selected ? "│" : " "
        var out = FrameText.field(row: slot.row, column: slot.column, top, width: slot.columns, style: style)
        for row in (slot.row + 1)..<(slot.row + slot.rows - 1) {
            out += FrameText.field(row: row, column: slot.column, side, width: 1, style: style)
            out += FrameText.field(row: row, column: slot.column + slot.columns - 1, side, width: 1, style: style)
        }
        out += FrameText.field(row: slot.row + slot.rows - 1, column: slot.column, bottom, width: slot.columns, style: style)
        return out
    }

    private func centred(_ text: String, width: Int) -> String {
        let pad = max(0, (width - TerminalText.displayWidth(text)) / 2)
        return String(repeating: " ", count: pad) + text
    }
}
