import Encoding
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
/// shows changed and a text row only when its text changed.
/// Kitty thumbnails use one image id per slot (`firstSlotImageID + slot`).
public final class BrowserPainter {
    public static let firstSlotImageID: UInt32 = 100
    public let geometry: ScreenGeometry
    public let tmuxPassthrough: Bool
    private let resampler: Resampler
    private var drawnSlots: [SlotContent] = []
    private var drawnSelection: Int?? = .none
    private var lastRows: [Int: [UInt8]] = [:]
    /// Thumbnails fitted to the tile box, by hit id.
    private var fitted: [Int: RGBAImage] = [:]

    /// Sixel palette size for thumbnails: as for every sixel picture,
    /// `DisplayTarget.sixelPaletteColors` or the terminal's fewer registers.
    private let colorRegisters: Int

    public init(
        geometry: ScreenGeometry, tmuxPassthrough: Bool = false, colorRegisters: Int = DisplayTarget.sixelPaletteColors,
        resampler: Resampler = Resampler(threads: 1)
    ) {
        self.geometry = geometry
        self.tmuxPassthrough = tmuxPassthrough
        self.colorRegisters = colorRegisters
        self.resampler = resampler
    }

    /// Forget what is on screen: the next frame redraws everything.
    public func invalidate() {
        drawnSlots = []
        drawnSelection = .none
        lastRows = [:]
    }

    /// Bytes that remove the thumbnails (kitty) before another screen takes over.
    public func teardown() -> [UInt8] {
        guard geometry.graphics == .kitty else { return [] }
        var out: [UInt8] = []
        for (slot, content) in drawnSlots.enumerated() {
            if case .picture = content { out += wrap(KittyEncoder().delete(imageID: Self.firstSlotImageID + UInt32(slot))) }
        }
        drawnSlots = []
        return out
    }

    /// The bytes of one frame. `thumbnails` holds the decoded previews by hit id.
    public func frame(for state: BrowserState, thumbnails: [Int: RGBAImage]) -> [UInt8] {
        let layout = state.layout
        let plan = BrowserPlan(state, hasPicture: { thumbnails[$0] != nil })
        var out: [UInt8] = []
        let width = geometry.windowCells.width
        if drawnSlots.isEmpty && drawnSelection == .none {
            // First frame on this screen: wipe the rows the plan leaves alone (the strip).
            for row in 0..<geometry.windowCells.height where plan.rows[row] == nil {
                out += TerminalCommand.moveTo(row: row + 1, column: 1) + TerminalCommand.resetAttributes
                    + TerminalCommand.clearLine
            }
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
        let imageID = Self.firstSlotImageID + UInt32(slot)
        var out: [UInt8] = []
        if geometry.graphics == .kitty, case .picture = previous {
            out += wrap(KittyEncoder().delete(imageID: imageID))
        }
        out += FrameText.erase(area)
        switch content {
        case .empty:
            break
        case let .placeholder(_, text):
            out += FrameText.field(
                row: area.row + area.rows / 2, column: area.column, centred(text, width: area.columns), width: area.columns,
                style: TerminalCommand.dim)
        case .picture(let id):
            guard let thumbnail = fittedThumbnail(id: id, thumbnails: thumbnails, box: layout.tileBox) else { break }
            // Centre the fitted thumbnail in the tile, to the cell.
            let units = geometry.unitsPerCell
            let columns = (thumbnail.width + units.width - 1) / units.width
            let rows = (thumbnail.height + units.height - 1) / units.height
            let column = area.column + max(0, (area.columns - columns) / 2)
            let row = area.row + max(0, (area.rows - rows) / 2)
            switch geometry.graphics {
            case .kitty:
                out += TerminalCommand.moveTo(row: row + 1, column: column + 1)
                // At its own pixel size: c/r would stretch it to whole cells.
                out += wrap(KittyEncoder().transmitAndPlace(thumbnail, imageID: imageID, placementID: 1, columns: 0, rows: 0))
            case .sixel:
                out += TerminalCommand.moveTo(row: row + 1, column: column + 1)
                out += wrap(SixelRenderer(options: .init(colorRegisters: colorRegisters)).render(thumbnail))
            case .blocks:
                out += HalfBlockEncoder(layout: .positioned(row: row + 1, column: column + 1))
                    .encode(thumbnail, columns: thumbnail.width, rows: rows)
            }
        }
        return out
    }

    /// The preview scaled to fit the tile (in image units), cached.
    private func fittedThumbnail(id: Int, thumbnails: [Int: RGBAImage], box: PixelSize) -> RGBAImage? {
        if let done = fitted[id] { return done }
        guard let preview = thumbnails[id] else { return nil }
        let viewport = Viewport(imageSize: geometry.unitImageSize(preview.size), viewSize: box, fit: .contain)
        let source = SourceRect(x: 0, y: 0, width: Double(preview.width), height: Double(preview.height))
        let result = resampler.resample(preview, from: source, to: viewport.outputSize)
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

    private func wrap(_ bytes: [UInt8]) -> [UInt8] {
        tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }
}
