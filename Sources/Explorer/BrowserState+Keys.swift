import Photos
import Pixabay
import Pixels
import Rendering
import Terminal

/// The grid's keys: the one table per grid that says what each does (and
/// what help lists), what each does to the state, and the search field.
extension BrowserState {
    /// What a key asks of the grid.
    package enum KeyAction: Sendable, Equatable {
        case left, right, up, down, first, last, pageUp, pageDown, larger, smaller
        case open, search, favourite, favourites, mark, markAll, keyHandler, help, quit
    }

    /// The grid's keys on Pixabay and the catalog: what they do and how help lists them.
    package static let keys = table(folder: false)

    /// The keys of a folder's grid (`show DIR`): no pages to load, `/`
    /// filters the names, and no favourites (they keep Pixabay photos).
    package static let folderKeys = table(folder: true)

    /// The keys of this grid.
    package var keyTable: KeyTable<KeyAction> { folder == nil ? Self.keys : Self.folderKeys }

    static func table(folder: Bool) -> KeyTable<KeyAction> {
        var lines: [KeyLine<KeyAction>] = [
            .directions("move the selection", left: .left, right: .right, up: .up, down: .down),
            KeyLine(
                "Home, End (g, G)", folder ? "first, last photo" : "first, last photo (End loads every page)",
                keys: [(KeyChord(.home), .first), (.char("g"), .first), (KeyChord(.end), .last), (.char("G"), .last)]),
            KeyLine(
                "PgUp, PgDn (p, n)", "a page of tiles up, down",
                keys: [
                    (KeyChord(.pageUp), .pageUp), (.char("p"), .pageUp), (KeyChord(.pageDown), .pageDown),
                    (.char("n"), .pageDown),
                ]),
            KeyLine(
                "+ = / -", "larger / smaller tiles (kept while pxview runs)",
                keys: [(.char("+"), .larger), (.char("="), .larger), (.char("-"), .smaller)]),
            KeyLine("Enter, click", "open the viewer", keys: [(KeyChord(.enter), .open)]),
            KeyLine("wheel", "scroll a row"),
        ]
        if folder {
            lines += [
                KeyLine("/", "show only names containing a text (Enter keep, Esc cancel)", keys: [(.char("/"), .search)]),
                KeyLine(
                    "m, M", "mark / unmark the photo, all / none (show -o prints the marked)",
                    keys: [(.char("m"), .mark), (.char("M"), .markAll)]),
                KeyLine(
                    "Ctrl-X KEY", "run your key-handler KEY on the marked files (or this one)",
                    keys: [(.ctrl("x"), .keyHandler)]),
            ]
        } else {
            lines += [
                KeyLine("/", "new search (Enter search, Esc cancel)", keys: [(.char("/"), .search)]),
                KeyLine("f", "toggle favourite", keys: [(.char("f"), .favourite)]),
                KeyLine("F", "favourites (again: back to the search)", keys: [(.char("F"), .favourites)]),
            ]
        }
        lines += [
            KeyLine("q, Ctrl-C", "quit", keys: [(.char("q"), .quit), (.ctrl("c"), .quit)]),
            KeyLine("Ctrl-Z", "suspend to the shell (fg comes back)", keys: [(.ctrl("z"), nil)]),
            KeyLine("?", "this help (any key closes it)", keys: [(.char("?"), .help)]),
        ]
        return KeyTable(lines)
    }

    mutating func handleKey(_ key: Key) -> [BrowserEffect] {
        guard let action = keyTable.action(for: key) else { return [] }
        let screenful = layout.columns * layout.rows
        switch action {
        case .left: return moveSelection(to: selection - 1)
        case .right: return moveSelection(to: selection + 1)
        case .up: return moveSelection(to: selection - layout.columns)
        case .down: return moveSelection(to: selection + layout.columns)
        case .larger: return resizeTiles(larger: true)
        case .smaller: return resizeTiles(larger: false)
        case .first: return moveSelection(to: 0)
        case .last:
            // Past the pages loaded: on to the real end, a page at a time.
            seekingEnd = !showingFavourites && !searching && page < totalPages
            return moveSelection(to: photos.count - 1)
        case .pageDown: return moveSelection(to: selection + screenful)
        case .pageUp: return moveSelection(to: selection - screenful)
        case .open:
            guard let photo = selectedPhoto else { return [] }
            return [.openViewer(photo)]
        case .favourite:
            guard let photo = selectedPhoto else { return [] }
            // The photo says whether it can be one: a file never.
            guard let hit = photo.pixabayHit else {
                message = Self.favouritesArePixabays
                return []
            }
            return [.toggleFavourite(hit)]
        case .mark:
            guard let photo = selectedPhoto else { return [] }
            if markedIDs.remove(photo.id) == nil { markedIDs.insert(photo.id) }
            message = "\(markedIDs.contains(photo.id) ? "marked" : "unmarked") · \(markedIDs.count) marked"
            return []
        case .markAll:
            let all = Set(photos.map(\.id))
            markedIDs = markedIDs.isSuperset(of: all) ? [] : all
            message = "\(markedIDs.count) marked"
            return []
        case .favourites:
            if showingFavourites {
                showingFavourites = false
                return runSearch()
            }
            return [.showFavourites]
        case .search:
            editText = query
            return []
        case .keyHandler:
            guard selectedPhoto != nil else { return [] }
            askingHandlerKey = true
            message = KeyHandler.prompt
            return []
        case .help:
            showHelp = true
            return []
        case .quit: return [.quit]
        }
    }

    mutating func handleEditing(_ input: InputEvent) -> [BrowserEffect] {
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
                return runSearch()
            case .backspace:
                if !text.isEmpty { text.removeLast() }
                editText = text
            case .char(let character):
                if text.count < SearchQuery.maxQueryCharacters { text.append(character) }
                editText = TerminalText.sanitize(text)
            default: break
            }
        case .paste(let pasted):
            editText = Self.fieldText(text, pasted: pasted)
        case .mouse, .unknown:
            break
        }
        return []
    }

    /// The search field after `pasted` is added to `text`: at most
    /// `SearchQuery.maxQueryCharacters`, cut before anything grows with the
    /// paste (only the part that can fit is sanitized).
    static func fieldText(_ text: String, pasted: String) -> String {
        let room = max(0, SearchQuery.maxQueryCharacters - text.count)
        return String(TerminalText.sanitize(text + String(pasted.prefix(room))).prefix(SearchQuery.maxQueryCharacters))
    }

    /// A new search from its first page.
    mutating func runSearch() -> [BrowserEffect] {
        page = 1
        searching = true
        loadingMore = false
        message = nil
        return [.search(query: query, page: 1)]
    }

    /// `+`/`-`: the next tile size up or down, kept from now on; at either
    /// end the status line says so.
    mutating func resizeTiles(larger: Bool) -> [BrowserEffect] {
        let target = layout.steppedSlotTarget(larger: larger)
        let next = BrowserLayout(screen: layout.screen, slotTarget: target, nameLines: layout.nameLines)
        guard !next.sameGrid(as: layout) else {
            message = larger ? "the tiles are at their largest" : "the tiles are at their smallest"
            return []
        }
        tileChoice = target
        return relayout(to: next)
    }
}
