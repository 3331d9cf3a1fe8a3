import ControlSequences
import Photos
import Pixels
import Rendering
import Scaling
import Terminal

/// What one thumbnail slot shows.
package enum SlotContent: Equatable, Sendable {
    case empty
    /// Waiting for (or failed to get) the thumbnail of photo `id`.
    case placeholder(id: Int, text: String)
    case picture(id: Int)
}

/// A browser frame as a pure function of the state: every text row, and
/// what each slot shows and whether it is framed as selected.
package struct BrowserPlan: Equatable, Sendable {
    package var rows: [Int: (text: String, inverse: Bool)]
    package var slots: [SlotContent]
    package var selectedSlot: Int?
    /// Per slot, the mark in its frame's bottom edge: "▶ 12" for an
    /// animation of 12 frames (the tile shows its first), else nil.
    package var marks: [String?]
    /// Per slot, the line under its tile (a folder's file name), cut in the
    /// middle to the tile's width; nil where there is none.
    package var names: [String?]

    package static func == (lhs: BrowserPlan, rhs: BrowserPlan) -> Bool {
        lhs.slots == rhs.slots && lhs.selectedSlot == rhs.selectedSlot && lhs.marks == rhs.marks && lhs.names == rhs.names
            && lhs.rows.keys.sorted() == rhs.rows.keys.sorted()
            && lhs.rows.keys.allSatisfy {
                lhs.rows[$0]?.text == rhs.rows[$0]?.text && lhs.rows[$0]?.inverse == rhs.rows[$0]?.inverse
            }
    }

    /// `glyphs`: the rows are composed as they will be drawn (ASCII in a C locale).
    package init(_ state: BrowserState, hasPicture: (Int) -> Bool, glyphs: Glyphs = .unicode) {
        let layout = state.layout
        let width = layout.screen.windowCells.width
        var rows: [Int: (String, Bool)] = [:]
        if let text = state.editText {
            // The end of what is typed stays in sight: a long query loses its start.
            let hint = "Enter search · Esc cancel"
            let room = max(1, width - TerminalText.displayWidth(hint) - 2 - "Search: █".count)
            let shown = TerminalText.tail(glyphs.text(text), toWidth: room, glyphs: glyphs)
            rows[layout.searchRow] = (
                StatusLine.compose(left: "Search: \(shown)█", right: hint, width: width, glyphs: glyphs), true
            )
        } else {
            let label =
                state.showingFavourites
                ? "Favourites"
                : state.folder != nil
                    ? (state.query.isEmpty ? "All images" : "Names with: \(state.query)")
                    : "Search: \(state.query.isEmpty ? "(everything)" : state.query)"
            rows[layout.searchRow] = (
                StatusLine.compose(left: label, right: "/ search · ? keys · q quit", width: width, glyphs: glyphs), false
            )
        }
        if let photo = state.selectedPhoto {
            // The photo says what it is: Pixabay's id, size, user and tags, or a file's name and sizes.
            let details = photo.details(
                isFavourite: state.favouriteIDs.contains(photo.id), frames: state.animatedFrames[photo.id])
            rows[layout.detailsRow] = (details.0, false)
            rows[layout.detailsRow + 1] = (details.1, false)
        } else {
            rows[layout.detailsRow] = (state.searching ? "" : "nothing to show", false)
            rows[layout.detailsRow + 1] = ("", false)
        }
        rows[layout.statusRow] = (state.statusText, true)
        var slotContents: [SlotContent]
        if state.showHelp {
            // The keys over the grid: every tile is taken down while they show.
            let title = state.folder != nil ? "folder keys" : "browser keys"
            var lines = ["\(title) (any key closes this help)", ""] + KeyHelp.lines(state.keyTable.entries)
            if let notice = state.notice { lines += [""] + notice.helpLines(width: max(20, width - 4)) }
            let top = layout.searchRow + 1
            for row in top..<layout.detailsRow {
                let index = row - top - 1
                rows[row] = (index >= 0 && index < lines.count ? "  " + lines[index] : "", false)
            }
            slotContents = layout.tileFrames.map { _ in .empty }
        } else {
            let range = state.visibleRange
            slotContents = layout.tileFrames.indices.map { slot in
                let index = range.lowerBound + slot
                guard range.contains(index) else { return .empty }
                let photo = state.photos[index]
                if hasPicture(photo.id) { return .picture(id: photo.id) }
                return .placeholder(id: photo.id, text: state.tiles[photo.id] == .failed ? "no image" : "loading…")
            }
        }
        self.rows = rows.filter { $0.key >= 0 && $0.key < layout.screen.windowCells.height }
        slots = slotContents
        marks = slotContents.map { content in
            guard case .picture(let id) = content else { return nil }
            let badges = [state.markedIDs.contains(id) ? "✓" : nil, state.animatedFrames[id].map { "▶ \($0)" }]
            let badge = badges.compactMap { $0 }.joined(separator: " ")
            return badge.isEmpty ? nil : badge
        }
        let range = state.visibleRange
        selectedSlot = !state.showHelp && range.contains(state.selection) ? state.selection - range.lowerBound : nil
        names = slotContents.indices.map { slot in
            guard layout.nameLines, slotContents[slot] != .empty, range.contains(range.lowerBound + slot),
                let label = state.photos[range.lowerBound + slot].label
            else { return nil }
            return TerminalText.middle(glyphs.text(TerminalText.sanitize(label)), toWidth: layout.tileCells.width, glyphs: glyphs)
        }
    }
}

/// Turns browser plans into bytes, redrawing a slot only when what it
/// shows changed and a text row only when its text changed. Tile `n` is
/// the backend's slot `firstSlot + n`.
package final class BrowserPainter {
    package static let firstSlot = 1
    package let backend: any GraphicsBackend
    /// What text is drawn with (ASCII in a C locale).
    package let glyphs: Glyphs
    private var drawnSlots: [SlotContent] = []
    private var drawnMarks: [String?] = []
    private var drawnNames: [String?] = []
    private var drawnSelection: Int?? = .none
    private var drawnHelp = false
    /// The layout of the frame on screen: another one (`+`/`-`, a resize)
    /// takes every tile down and fits the thumbnails anew.
    private var drawnLayout: BrowserLayout?
    private var lastRows: [Int: [UInt8]] = [:]
    /// Thumbnails fitted to the tile box, by photo id.
    private var fitted: [Int: RGBAImage] = [:]
    private let resampler: Resampler

    package init(backend: any GraphicsBackend, glyphs: Glyphs = .unicode, resampler: Resampler = Resampler(threads: 1)) {
        self.backend = backend
        self.glyphs = glyphs
        self.resampler = resampler
    }

    /// Forget what is on screen: the next frame redraws everything.
    package func invalidate() {
        drawnSlots = []
        drawnSelection = .none
        lastRows = [:]
        backend.forgetScreen()
    }

    /// Thumbnails decoded again (larger tiles), by photo id: a new version, so
    /// no backend reuses the old pixels.
    private var versions: [Int: Int] = [:]

    /// `id`'s thumbnail was decoded again: fit it anew, upload it anew.
    package func thumbnailReplaced(id: Int) {
        guard fitted.removeValue(forKey: id) != nil else { return }
        versions[id, default: 0] += 1
        if let index = drawnSlots.firstIndex(of: .picture(id: id)) { drawnSlots[index] = .empty }
    }

    /// The tile size changed (a resize): fitted thumbnails are made again.
    package func relayout() {
        fitted = [:]
        invalidate()
    }

    /// Bytes that take the thumbnails off the screen before the viewer
    /// takes over. kitty keeps their uploads: back in the grid they are
    /// only placed again.
    package func teardown() -> [UInt8] {
        let count = drawnSlots.count
        drawnSlots = []
        drawnSelection = .none
        lastRows = [:]
        return (0..<count).flatMap { backend.erase(slot: Self.firstSlot + $0) }
    }

    /// The bytes of one frame. `thumbnails` holds the decoded previews by photo id.
    package func frame(for state: BrowserState, thumbnails: [Int: RGBAImage]) -> [UInt8] {
        let layout = state.layout
        let plan = BrowserPlan(state, hasPicture: { thumbnails[$0] != nil }, glyphs: glyphs)
        var out: [UInt8] = []
        let width = layout.screen.windowCells.width
        if let drawn = drawnLayout, drawn != layout {
            out += backend.teardown()
            relayout()
        }
        drawnLayout = layout
        if drawnHelp != state.showHelp {
            // The help opening or closing: every row and frame is written again.
            drawnHelp = state.showHelp
            lastRows = [:]
            drawnSelection = .none
        }
        if drawnSelection == .none {
            // A fresh screen: wipe the rows the plan leaves alone (the grid).
            for row in 0..<layout.screen.windowCells.height where plan.rows[row] == nil {
                out += FrameText.erase(row: row, column: 0, count: width)
            }
            backend.forgetScreen()
        }
        // Tiles and frames first: the help's text rows go over the grid.
        func mark(_ slot: Int) -> String? { slot < plan.marks.count ? plan.marks[slot] : nil }
        if drawnSlots.count != plan.slots.count || drawnSelection == .none {
            if !state.showHelp {
                for slot in layout.tileFrames.indices {
                    out += frameBorder(layout.tileFrames[slot], selected: slot == plan.selectedSlot, mark: mark(slot))
                }
            }
        } else if !state.showHelp {
            // A selection move redraws two frames, text only: no pixel data;
            // a mark appearing (the thumbnail says it is animated) its own.
            var changed = Set<Int>()
            if case .some(let previous) = drawnSelection, previous != plan.selectedSlot {
                changed.formUnion([previous, plan.selectedSlot].compactMap { $0 })
            }
            for slot in layout.tileFrames.indices where mark(slot) != (slot < drawnMarks.count ? drawnMarks[slot] : nil) {
                changed.insert(slot)
            }
            for slot in changed.sorted() where layout.tileFrames.indices.contains(slot) {
                out += frameBorder(layout.tileFrames[slot], selected: slot == plan.selectedSlot, mark: mark(slot))
            }
        }
        // Names under the tiles: written where they changed, or all of them
        // on a fresh screen (its wipe took them).
        if drawnSelection == .none { drawnNames = [] }
        for slot in layout.tileFrames.indices {
            let name = slot < plan.names.count ? plan.names[slot] : nil
            guard name != (slot < drawnNames.count ? drawnNames[slot] : nil), let area = layout.nameArea(slot: slot) else {
                continue
            }
            out += FrameText.field(
                row: area.row, column: area.column, centred(name ?? "", width: area.columns), width: area.columns,
                glyphs: glyphs)
        }
        drawnNames = plan.names
        drawnSelection = .some(plan.selectedSlot)
        drawnMarks = plan.marks
        for (slot, content) in plan.slots.enumerated() {
            let drawn = slot < drawnSlots.count ? drawnSlots[slot] : nil
            guard drawn != content else { continue }
            out += drawSlot(slot, content: content, previous: drawn, layout: layout, thumbnails: thumbnails)
            // The selection's frame again after its picture: Konsole 22.12
            // hides the text of one column past a sixel's right edge when
            // the text came first (seen: the frame's right side gone beside
            // the first tile); text written after a picture stays.
            if case .picture = content, slot == plan.selectedSlot, !state.showHelp, layout.tileFrames.indices.contains(slot) {
                out += frameBorder(layout.tileFrames[slot], selected: true, mark: mark(slot))
            }
        }
        drawnSlots = plan.slots
        for row in plan.rows.keys.sorted() {
            guard let (text, inverse) = plan.rows[row] else { continue }
            let bytes = FrameText.row(row, text, width: width, style: inverse ? TerminalCommand.inverse : [], glyphs: glyphs)
            if lastRows[row] != bytes {
                out += bytes
                lastRows[row] = bytes
            }
        }
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
        case .placeholder(_, let text):
            out += FrameText.field(
                row: area.row + area.rows / 2, column: area.column, centred(glyphs.text(text), width: area.columns),
                width: area.columns, style: TerminalCommand.dim, glyphs: glyphs)
        case .picture(let id):
            guard let thumbnail = fittedThumbnail(id: id, thumbnails: thumbnails, box: layout.tileBox, screen: layout.screen)
            else { break }
            if case .picture = previous {} else { out += FrameText.erase(area) }
            out += backend.draw(
                Picture.centred(
                    image: thumbnail, key: PictureKey(id: id, version: versions[id] ?? 0), area: area, screen: layout.screen,
                    reusable: true),
                slot: backendSlot)
        }
        return out
    }

    /// The preview scaled to fit the tile (in image units), cached.
    private func fittedThumbnail(id: Int, thumbnails: [Int: RGBAImage], box: PixelSize, screen: BackendGeometry) -> RGBAImage? {
        if let done = fitted[id] { return done }
        guard let preview = thumbnails[id] else { return nil }
        let viewport = Viewport(imageSize: screen.unitImageSize(preview.size), viewSize: box, fit: .contain)
        let result = resampler.resample(preview, from: SourceRect(covering: preview.size), to: viewport.outputSize)
        fitted[id] = result
        return result
    }

    /// The tile's frame (lines when selected, blanks otherwise), with
    /// `mark` near the right end of its bottom edge.
    private func frameBorder(_ slot: CellRect, selected: Bool, mark: String? = nil) -> [UInt8] {
        let inner = max(0, slot.columns - 2)
        let style = selected ? TerminalCommand.bold : []
        let top = selected ? "┌" + String(repeating: "─", count: inner) + "┐" : String(repeating: " ", count: slot.columns)
        var bottom = selected ? "└" + String(repeating: "─", count: inner) + "┘" : String(repeating: " ", count: slot.columns)
        if let mark, TerminalText.displayWidth(mark) + 4 <= slot.columns {
            let keep = slot.columns - TerminalText.displayWidth(mark) - 3
            bottom = String(bottom.prefix(keep)) + " " + mark + " " + String(bottom.suffix(1))
        }
        let side = selected ? "│" : " "
        var out = FrameText.field(row: slot.row, column: slot.column, top, width: slot.columns, style: style, glyphs: glyphs)
        for row in (slot.row + 1)..<(slot.row + slot.rows - 1) {
            out += FrameText.field(row: row, column: slot.column, side, width: 1, style: style, glyphs: glyphs)
            out += FrameText.field(
                row: row, column: slot.column + slot.columns - 1, side, width: 1, style: style, glyphs: glyphs)
        }
        out += FrameText.field(
            row: slot.row + slot.rows - 1, column: slot.column, bottom, width: slot.columns, style: style, glyphs: glyphs)
        return out
    }

    private func centred(_ text: String, width: Int) -> String {
        let pad = max(0, (width - TerminalText.displayWidth(text)) / 2)
        return String(repeating: " ", count: pad) + text
    }
}
