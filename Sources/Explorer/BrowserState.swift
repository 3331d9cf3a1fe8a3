import Photos
import Pixabay
import Pixels
import Rendering
import Terminal

/// How far a thumbnail has got.
package enum TileStatus: Equatable, Sendable {
    case loading
    case loaded
    case failed
}

/// Something the browser asks the I/O loop to do.
package enum BrowserEffect: Equatable, Sendable {
    case search(query: String, page: Int)
    /// Download (and decode) these thumbnails; they are marked `.loading`.
    case loadThumbnails([Photo])
    case openViewer(Photo)
    /// Only a Pixabay photo can be a favourite: the hit is what the list keeps.
    case toggleFavourite(PixabayHit)
    /// Load the favourites list (answered with `.favouritesLoaded`).
    case showFavourites
    /// Run the key handler with this KEY argument (`KeyHandler`).
    case runKeyHandler(String)
    case quit
}

/// What can happen to the browser.
package enum BrowserEvent: Equatable, Sendable {
    case input(InputEvent)
    case resized(BrowserLayout)
    /// Pictures are drawn another way now (a probe that could not be sent
    /// at the start went out later): laid out anew, every thumbnail made again.
    case graphicsChanged(BrowserLayout)
    /// A search finished: the page, or a one-line error.
    case searchFinished(query: String, page: Int, result: SearchOutcome)
    case thumbnailFinished(id: Int, loaded: Bool)
    /// A local file's pixel size, learnt when its thumbnail was decoded.
    case imageSize(id: Int, width: Int, height: Int)
    /// The thumbnail's file is an animation of this many frames (its tile is marked).
    case animated(id: Int, frames: Int)
    case favouritesLoaded([Photo])
    case favouriteChanged(id: Int, isFavourite: Bool)
    case message(String)
}

/// The part of a `PhotoPage` the browser keeps, or why there is none.
package enum SearchOutcome: Equatable, Sendable {
    case page(photos: [Photo], totalHits: Int, totalPages: Int, note: String?)
    case failed(String)

    package init(_ page: PhotoPage) {
        self = .page(photos: page.photos, totalHits: page.totalHits, totalPages: page.totalPages, note: page.note)
    }
}

/// The grid browser as a pure state machine.
///
/// Photos from every page loaded so far sit in one list, laid out row by row
/// in the grid; the selection moves in 2-D (arrows/hjkl by one tile or one
/// row, Home/End, PgUp/PgDn or p/n by a screenful of tiles) and the grid
/// scrolls by whole rows to keep it visible. When the selection comes
/// within a screenful of the end, the next page is asked for, so scrolling
/// past the last row finds it there. `/` edits the query (Enter searches,
/// Esc cancels), Enter or a click opens the viewer, `f` toggles the
/// favourite, `F` shows the favourites (again: back to the search), `?`
/// shows the keys, `q` quits.
package struct BrowserState: Equatable, Sendable {
    package var layout: BrowserLayout
    package var query: String
    /// Non-nil while the search field is being edited: the text so far.
    package var editText: String?
    /// The last page loaded (photos holds pages 1…page).
    package var page = 1
    package var totalPages = 0
    package var totalHits = 0
    package var photos: [Photo] = []
    package var selection = 0
    /// The first grid row on screen (row r holds photos r*columns…).
    package var scroll = 0
    package var tiles: [Int: TileStatus] = [:]
    package var favouriteIDs: Set<Int> = []
    /// The photos marked with `m` (a folder's grid: `show -o` prints them).
    package var markedIDs: Set<Int> = []
    package var showingFavourites = false
    package var searching = false
    /// True while the next page is on its way.
    package var loadingMore = false
    /// True while End goes to the real end: each page that comes moves the
    /// selection to its last photo and asks for the next, until the last
    /// page (End once went to the 40th of 120, the last one loaded). Any
    /// other key stops it.
    package var seekingEnd = false
    package var showHelp = false
    /// Ctrl-X was pressed: the next key is the key handler's (Esc: none).
    package internal(set) var askingHandlerKey = false
    /// The source's note (offline catalog) or nil for Pixabay.
    package var note: String?
    /// A transient message (an error, "added to favourites").
    package var message: String?
    /// A lasting note about how pictures are drawn (why text), on
    /// the status line after the position; its fix is in the `?` help.
    package var notice: GraphicsShortfall?
    /// True for the offline catalog: the status line must not say the photos are Pixabay's.
    package var offline: Bool
    /// The folder shown by `pxview show DIR` (nil for Pixabay and the catalog).
    package var folder: String?
    /// The slot width `+`/`-` chose (`BrowserLayout.slotTarget`), kept for
    /// the whole run, through resizes, searches and the viewer; nil: the
    /// window's default.
    package var tileChoice: Double?

    package init(layout: BrowserLayout, query: String, offline: Bool, folder: String? = nil) {
        self.layout = layout
        self.query = query
        self.offline = offline
        self.folder = folder
    }

    /// The effects of starting up: the first search.
    package mutating func start() -> [BrowserEffect] {
        searching = true
        return [.search(query: query, page: 1)]
    }

    package var selectedPhoto: Photo? {
        photos.indices.contains(selection) ? photos[selection] : nil
    }

    /// The photos shown in the slots, with their indices.
    package var visibleRange: Range<Int> {
        let start = min(scroll * layout.columns, photos.count)
        return start..<min(photos.count, start + layout.tileFrames.count)
    }

    package mutating func handle(_ event: BrowserEvent) -> [BrowserEffect] {
        switch event {
        case .input(let input):
            return handleInput(input)
        case .resized(let newLayout):
            // The run's choices stay: the tile size, the names under tiles.
            return relayout(
                to: BrowserLayout(screen: newLayout.screen, slotTarget: tileChoice, nameLines: layout.nameLines))
        case .graphicsChanged(let newLayout):
            tiles = [:]
            return relayout(
                to: BrowserLayout(screen: newLayout.screen, slotTarget: tileChoice, nameLines: layout.nameLines))
        case .searchFinished(let finishedQuery, let finishedPage, let result):
            // A late answer to a search the user has since replaced is dropped.
            guard !showingFavourites, finishedQuery == query else { return [] }
            if finishedPage == 1, searching {
                searching = false
                switch result {
                case .page(let newPhotos, let total, let pages, let note):
                    photos = newPhotos.map(withKnownSize)
                    totalHits = total
                    totalPages = pages
                    page = 1
                    self.note = note
                    selection = 0
                    scroll = 0
                    message = nil
                    return thumbnailsToLoad() + loadAhead()
                case .failed(let text):
                    // The old query's photos must not take the new one's next pages.
                    photos = []
                    totalHits = 0
                    totalPages = 0
                    selection = 0
                    scroll = 0
                    message = text
                    return []
                }
            }
            guard loadingMore, finishedPage == page + 1 else { return [] }
            loadingMore = false
            switch result {
            case .page(let newPhotos, let total, let pages, _):
                // Pixabay's order can shift between requests: a photo is listed once.
                let known = Set(photos.map(\.id))
                photos += newPhotos.filter { !known.contains($0.id) }.map(withKnownSize)
                totalHits = total
                totalPages = pages
                page = finishedPage
                if seekingEnd {
                    selection = max(0, photos.count - 1)
                    scrollToSelection()
                    seekingEnd = page < totalPages
                }
                return thumbnailsToLoad() + loadAhead()
            case .failed(let text):
                seekingEnd = false
                message = text
                return []
            }
        case .thumbnailFinished(let id, let loaded):
            tiles[id] = loaded ? .loaded : .failed
            return []
        case .imageSize(let id, let width, let height):
            knownSizes[id] = PixelSize(width: width, height: height)
            for index in photos.indices where photos[index].id == id {
                photos[index].learn(pixelSize: PixelSize(width: width, height: height))
            }
            return []
        case .animated(let id, let frames):
            animatedFrames[id] = frames
            return []
        case .favouritesLoaded(let favourites):
            showingFavourites = true
            searching = false
            loadingMore = false
            photos = favourites
            favouriteIDs = Set(favourites.map(\.id))
            totalHits = favourites.count
            totalPages = favourites.isEmpty ? 0 : 1
            selection = 0
            scroll = 0
            message = favourites.isEmpty ? "no favourites yet: press f on a photo to add it" : nil
            return thumbnailsToLoad()
        case .favouriteChanged(let id, let isFavourite):
            if isFavourite { favouriteIDs.insert(id) } else { favouriteIDs.remove(id) }
            message = isFavourite ? "added #\(id) to favourites" : "removed #\(id) from favourites"
            return []
        case .message(let text):
            message = text
            return []
        }
    }

    /// A local file's size learnt from its thumbnail, kept for the next
    /// search's photos (whose sizes the folder listing does not know).
    package var knownSizes: [Int: PixelSize] = [:]
    /// Frames of the animated images among the photos, by id.
    package var animatedFrames: [Int: Int] = [:]

    func withKnownSize(_ photo: Photo) -> Photo {
        guard let size = knownSizes[photo.id] else { return photo }
        var sized = photo
        sized.learn(pixelSize: size)
        return sized
    }

    /// The viewer shows `id`: the grid's selection follows (Enter, then a
    /// move before the photo arrived, must not leave them apart).
    /// A photo gone (moved to the trash from the viewer): out of the grid,
    /// the selection on its neighbour.
    package mutating func remove(id: Int) {
        guard let index = photos.firstIndex(where: { $0.id == id }) else { return }
        photos.remove(at: index)
        totalHits = max(photos.count, totalHits - 1)
        markedIDs.remove(id)
        selection = min(selection, max(0, photos.count - 1))
        scrollToSelection()
    }

    package mutating func select(id: Int) {
        guard let index = photos.firstIndex(where: { $0.id == id }) else { return }
        selection = index
        scrollToSelection()
    }

    /// The viewer's `n`/`p`: the neighbouring photo becomes the selection.
    /// Nil at either end (with a message); the effects load thumbnails and
    /// the next page as a move in the grid would.
    package mutating func step(by delta: Int) -> (photo: Photo, effects: [BrowserEffect])? {
        let target = selection + delta
        guard photos.indices.contains(target) else {
            message = delta > 0 ? (loadingMore ? "loading more…" : "this is the last photo") : "this is the first photo"
            return nil
        }
        let effects = moveSelection(to: target)
        return (photos[target], effects)
    }

    mutating func handleInput(_ input: InputEvent) -> [BrowserEffect] {
        // Any input but End itself stops a run to the end.
        seekingEnd = false
        if editText != nil { return handleEditing(input) }
        if askingHandlerKey, case .key(let key) = input {
            askingHandlerKey = false
            if key.modifiers.contains(.control), key.code == .char("c") { return [.quit] }
            guard let name = KeyHandler.argument(for: key) else {
                message = "no key handler run"
                return []
            }
            message = nil
            return [.runKeyHandler(name)]
        }
        if showHelp {
            if case .key(let key) = input, key.modifiers.contains(.control), key.code == .char("c") { return [.quit] }
            if case .key = input { showHelp = false }
            return []
        }
        switch input {
        case .key(let key):
            message = nil
            return handleKey(key)
        case .mouse(let mouse):
            guard case .press(.left) = mouse.kind,
                let slot = layout.slot(atColumn: mouse.x - 1, row: mouse.y - 1)
            else {
                if mouse.kind == .wheelDown { return moveSelection(to: selection + layout.columns) }
                if mouse.kind == .wheelUp { return moveSelection(to: selection - layout.columns) }
                return []
            }
            let index = scroll * layout.columns + slot
            guard photos.indices.contains(index) else { return [] }
            selection = index
            return [.openViewer(photos[index])]
        case .paste(let text):
            // Pasting outside the field starts editing with the pasted text,
            // bounded like typing (a 1 MB paste once froze the grid for good).
            editText = Self.fieldText(query, pasted: text)
            return []
        case .unknown:
            return []
        }
    }

    /// What `f` on a file says: favourites.json keeps Pixabay photos.
    static let favouritesArePixabays = "favourites are for Pixabay images"

    /// Pixabay's previews: 150 px on the long side.
    package static let previewPixels = 150

    /// Which of a Pixabay photo's renditions its tile is made from: the
    /// 150-px preview, or the 640-px web size once a tile is wider than 1.5
    /// previews (225 px; an 80-column window's 216-px tiles keep previews),
    /// where the preview came out visibly soft.
    package var thumbnailSize: ImageSize {
        let tile = layout.tileCells.width * layout.screen.cellPixels.width
        return tile * 2 > Self.previewPixels * 3 ? .web : .preview
    }

    /// A new layout (a resize, `+`/`-`). A folder's thumbnails were decoded
    /// to the old tile size: larger tiles get them decoded again, sharp;
    /// Pixabay's are fetched again when they move from previews to the web size.
    mutating func relayout(to newLayout: BrowserLayout) -> [BrowserEffect] {
        let grows = newLayout.tileBox.width > layout.tileBox.width || newLayout.tileBox.height > layout.tileBox.height
        let oldSize = thumbnailSize
        layout = newLayout
        if folder != nil ? grows : (oldSize == .preview && thumbnailSize == .web) { tiles = [:] }
        scrollToSelection()
        return thumbnailsToLoad()
    }

    /// Moves the selection to `target`, clamped to the photos; past the end
    /// while more pages exist it stays on the last photo and the next page comes.
    mutating func moveSelection(to target: Int) -> [BrowserEffect] {
        guard !photos.isEmpty else { return [] }
        selection = min(max(0, target), photos.count - 1)
        scrollToSelection()
        return thumbnailsToLoad() + loadAhead()
    }

    /// Scrolls the grid the fewest rows needed to show the selection.
    mutating func scrollToSelection() {
        let columns = max(1, layout.columns)
        let rows = max(1, layout.rows)
        let row = selection / columns
        if row < scroll { scroll = row }
        if row >= scroll + rows { scroll = row - rows + 1 }
        let lastRow = max(0, (photos.count - 1) / columns)
        scroll = max(0, min(scroll, max(0, lastRow - rows + 1)))
    }

    /// Visible thumbnails not yet asked for, plus the next screenful, so
    /// scrolling finds them ready.
    mutating func thumbnailsToLoad() -> [BrowserEffect] {
        let visible = visibleRange
        let ahead = visible.upperBound..<min(photos.count, visible.upperBound + layout.tileFrames.count)
        let wanted = (Array(visible) + Array(ahead)).map { photos[$0] }.filter { tiles[$0.id] == nil }
        guard !wanted.isEmpty else { return [] }
        for photo in wanted { tiles[photo.id] = .loading }
        return [.loadThumbnails(wanted)]
    }

    /// The next page, once the selection is within a screenful of the last
    /// photo loaded (one request at a time).
    mutating func loadAhead() -> [BrowserEffect] {
        guard !showingFavourites, !searching, !loadingMore, page < totalPages,
            selection + layout.tileFrames.count >= photos.count
        else { return [] }
        loadingMore = true
        return [.search(query: query, page: page + 1)]
    }

    /// "12 of 173 · Images from Pixabay", the offline note instead, or the
    /// stale-cache note after it; a message replaces it all.
    package var statusText: String {
        if let message { return message }
        if searching { return "searching…" }
        if showingFavourites { return "favourites: \(photos.count) · F: back to the search" }
        var position = photos.isEmpty ? "no results" : "\(selection + 1) of \(max(totalHits, photos.count))"
        if let notice { position += " · \(notice.status) (? for why)" }
        let more =
            !loadingMore ? "" : seekingEnd ? " · to the end: page \(page + 1) of \(totalPages)…" : " · loading more…"
        if let folder { return "\(position) · \(folder)\(more)" }
        let source =
            offline
            ? (note ?? "offline catalog (not from Pixabay)") : "Images from Pixabay" + (note.map { " · \($0)" } ?? "")
        return "\(position) · \(source)\(more)"
    }
}
