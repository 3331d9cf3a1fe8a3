import Pixabay
import Rendering
import Terminal

/// How far a thumbnail has got.
public enum TileStatus: Equatable, Sendable {
    case loading
    case loaded
    case failed
}

/// Something the browser asks the I/O loop to do.
public enum BrowserEffect: Equatable, Sendable {
    case search(query: String, page: Int)
    /// Download (and decode) these thumbnails; they are marked `.loading`.
    case loadThumbnails([PixabayHit])
    case openViewer(PixabayHit)
    case toggleFavourite(PixabayHit)
    /// Load the favourites list (answered with `.favouritesLoaded`).
    case showFavourites
    case quit
}

/// What can happen to the browser.
public enum BrowserEvent: Equatable, Sendable {
    case input(InputEvent)
    case resized(BrowserLayout)
    /// A search finished: the page, or a one-line error.
    case searchFinished(query: String, page: Int, result: SearchOutcome)
    case thumbnailFinished(id: Int, loaded: Bool)
    case favouritesLoaded([PixabayHit])
    case favouriteChanged(id: Int, isFavourite: Bool)
    case message(String)
}

/// The part of a `SearchPage` the browser keeps, or why there is none.
public enum SearchOutcome: Equatable, Sendable {
    case page(hits: [PixabayHit], totalHits: Int, totalPages: Int, note: String?)
    case failed(String)

    public init(_ page: SearchPage) {
        self = .page(hits: page.hits, totalHits: page.response.totalHits, totalPages: page.totalPages, note: page.note)
    }
}

/// The thumbnail browser as a pure state machine.
///
/// Keys: `/` edits the query (Enter searches, Esc cancels), ←/→ or h/l move
/// the selection (the strip scrolls to keep it visible), Enter or a click
/// opens the viewer, `n`/`p` or PgDn/PgUp change page, `f` toggles the
/// favourite, `F` shows the favourites (again: back to the search), `q` quits.
public struct BrowserState: Equatable, Sendable {
    public var layout: BrowserLayout
    public var query: String
    /// Non-nil while the search field is being edited: the text so far.
    public var editText: String?
    public var page = 1
    public var totalPages = 0
    public var totalHits = 0
    public var hits: [PixabayHit] = []
    public var selection = 0
    /// Index of the hit in the first slot.
    public var scroll = 0
    public var tiles: [Int: TileStatus] = [:]
    public var favouriteIDs: Set<Int> = []
    public var showingFavourites = false
    public var searching = false
    /// The source's note (offline catalog) or nil for Pixabay.
    public var note: String?
    /// A transient message (an error, "added to favourites").
    public var message: String?
    /// True for the offline catalog: the status line must not say the photos are Pixabay's.
    public var offline: Bool

    public init(layout: BrowserLayout, query: String, offline: Bool) {
        self.layout = layout
        self.query = query
        self.offline = offline
    }

    /// The effects of starting up: the first search.
    public mutating func start() -> [BrowserEffect] {
        searching = true
        return [.search(query: query, page: 1)]
    }

    public var selectedHit: PixabayHit? {
        hits.indices.contains(selection) ? hits[selection] : nil
    }

    /// The hits shown in the slots, with their indices.
    public var visibleRange: Range<Int> {
        let start = min(scroll, hits.count)
        return start..<min(hits.count, start + layout.slots.count)
    }

    public mutating func handle(_ event: BrowserEvent) -> [BrowserEffect] {
        switch event {
        case .input(let input):
            return handleInput(input)
        case .resized(let newLayout):
            layout = newLayout
            scrollToSelection()
            return thumbnailsToLoad()
        case let .searchFinished(finishedQuery, finishedPage, result):
            // A late answer to a search the user has since replaced is dropped.
            guard !showingFavourites, finishedQuery == query, finishedPage == page else { return [] }
            searching = false
            switch result {
            case let .page(newHits, total, pages, note):
                hits = newHits
                totalHits = total
                totalPages = pages
                self.note = note
                selection = 0
                scroll = 0
                message = nil
                return thumbnailsToLoad()
            case .failed(let text):
                message = text
                return []
            }
        case let .thumbnailFinished(id, loaded):
            tiles[id] = loaded ? .loaded : .failed
            return []
        case .favouritesLoaded(let favourites):
            showingFavourites = true
            searching = false
            hits = favourites
            favouriteIDs = Set(favourites.map(\.id))
            totalHits = favourites.count
            totalPages = favourites.isEmpty ? 0 : 1
            selection = 0
            scroll = 0
            message = favourites.isEmpty ? "no favourites yet: press f on a photo to add it" : nil
            return thumbnailsToLoad()
        case let .favouriteChanged(id, isFavourite):
            if isFavourite { favouriteIDs.insert(id) } else { favouriteIDs.remove(id) }
            message = isFavourite ? "added #\(id) to favourites" : "removed #\(id) from favourites"
            return []
        case .message(let text):
            message = text
            return []
        }
    }

    private mutating func handleInput(_ input: InputEvent) -> [BrowserEffect] {
        if editText != nil { return handleEditing(input) }
        switch input {
        case .key(let key):
            message = nil
            return handleKey(key)
        case .mouse(let mouse):
            guard case .press(.left) = mouse.kind,
                let slot = layout.slot(atColumn: mouse.x - 1, row: mouse.y - 1)
            else {
                if mouse.kind == .wheelDown { return moveSelection(by: 1) }
                if mouse.kind == .wheelUp { return moveSelection(by: -1) }
                return []
            }
            let index = scroll + slot
            guard hits.indices.contains(index) else { return [] }
            selection = index
            return [.openViewer(hits[index])]
        case .paste(let text):
            // Pasting outside the field starts editing with the pasted text.
            editText = query + TerminalText.sanitize(text)
            return []
        case .unknown:
            return []
        }
    }

    private mutating func handleKey(_ key: Key) -> [BrowserEffect] {
        if key.modifiers.contains(.control), key.code == .char("c") { return [.quit] }
        switch key.code {
        case .left, .char("h"): return moveSelection(by: -1)
        case .right, .char("l"): return moveSelection(by: 1)
        case .home: return moveSelection(by: -hits.count)
        case .end: return moveSelection(by: hits.count)
        case .enter:
            guard let hit = selectedHit else { return [] }
            return [.openViewer(hit)]
        case .char("n"), .pageDown: return changePage(by: 1)
        case .char("p"), .pageUp: return changePage(by: -1)
        case .char("f"):
            guard let hit = selectedHit else { return [] }
            return [.toggleFavourite(hit)]
        case .char("F"):
            if showingFavourites {
                showingFavourites = false
                return runSearch(page: page)
            }
            return [.showFavourites]
        case .char("/"):
            editText = query
            return []
        case .char("q"): return [.quit]
        default: return []
        }
    }

    private mutating func handleEditing(_ input: InputEvent) -> [BrowserEffect] {
        guard var text = editText else { return [] }
        switch input {
        case .key(let key):
            if key.modifiers.contains(.control) {
                switch key.code {
                case .char("c"): return [.quit]
                case .char("u"): editText = ""
                default: break
                }
                return []
            }
            switch key.code {
            case .escape:
                editText = nil
            case .enter:
                editText = nil
                query = text.trimmingCharacters(in: .whitespaces)
                showingFavourites = false
                return runSearch(page: 1)
            case .backspace:
                if !text.isEmpty { text.removeLast() }
                editText = text
            case .char(let character):
                if text.count < SearchQuery.maxQueryCharacters { text.append(character) }
                editText = TerminalText.sanitize(text)
            default: break
            }
        case .paste(let pasted):
            editText = String(TerminalText.sanitize(text + pasted).prefix(SearchQuery.maxQueryCharacters))
        case .mouse, .unknown:
            break
        }
        return []
    }

    private mutating func runSearch(page newPage: Int) -> [BrowserEffect] {
        page = newPage
        searching = true
        message = nil
        return [.search(query: query, page: newPage)]
    }

    private mutating func changePage(by delta: Int) -> [BrowserEffect] {
        guard !showingFavourites else { return [] }
        let target = page + delta
        guard target >= 1, target <= max(1, totalPages) else {
            message = delta > 0 ? "this is the last page" : "this is the first page"
            return []
        }
        return runSearch(page: target)
    }

    private mutating func moveSelection(by delta: Int) -> [BrowserEffect] {
        guard !hits.isEmpty else { return [] }
        selection = min(max(0, selection + delta), hits.count - 1)
        scrollToSelection()
        return thumbnailsToLoad()
    }

    /// Scrolls the strip the least needed to show the selection.
    private mutating func scrollToSelection() {
        let slots = max(1, layout.slots.count)
        if selection < scroll { scroll = selection }
        if selection >= scroll + slots { scroll = selection - slots + 1 }
        scroll = max(0, min(scroll, max(0, hits.count - slots)))
    }

    /// Visible thumbnails not yet asked for, plus the next screenful, so
    /// scrolling finds them ready.
    private mutating func thumbnailsToLoad() -> [BrowserEffect] {
        let visible = visibleRange
        let ahead = visible.upperBound..<min(hits.count, visible.upperBound + layout.slots.count)
        let wanted = (Array(visible) + Array(ahead)).map { hits[$0] }.filter { tiles[$0.id] == nil }
        guard !wanted.isEmpty else { return [] }
        for hit in wanted { tiles[hit.id] = .loading }
        return [.loadThumbnails(wanted)]
    }

    /// "page 2 of 9, 173 hits · Images from Pixabay", the offline note
    /// instead, or the stale-cache note after it.
    public var statusText: String {
        if let message { return message }
        if searching { return "searching…" }
        if showingFavourites { return "favourites: \(hits.count) · F: back to the search" }
        let pages = totalPages == 0 ? "no results" : "page \(page) of \(totalPages), \(totalHits) hits"
        let source = offline
            ? (note ?? "offline catalog (not from Pixabay)") : "Images from Pixabay" + (note.map { " · \($0)" } ?? "")
        return "\(pages) · \(source)"
    }
}
