import Pixabay
import Rendering
import Pixels
import Terminal
import Testing

@testable import Explorer

/// 100x30 cells of 10x20 px: tiles of 8 rows by 24 columns, so 3 slots of 26.
func browserLayout(columns: Int = 100) -> BrowserLayout {
    BrowserLayout(geometry: ScreenGeometry(
        graphics: .sixel, windowCells: PixelSize(width: columns, height: 30), cellPixels: PixelSize(width: 10, height: 20)))
}

func loadedBrowser(hits count: Int = 10, offline: Bool = false) -> BrowserState {
    var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: offline)
    _ = state.start()
    _ = state.handle(.searchFinished(
        query: "famous quotes", page: 1,
        result: .page(hits: (1...count).map(sampleHit), totalHits: 173, totalPages: 9, note: nil)))
    return state
}

func press(_ code: KeyCode, _ modifiers: Modifiers = []) -> BrowserEvent { .input(.key(Key(code, modifiers))) }
func press(_ character: Character) -> BrowserEvent { .input(.key(Key(.char(character)))) }

@Suite struct BrowserLayoutTests {
    @Test func slotsFitTheWidthAndHitTestingFindsThem() {
        let layout = browserLayout()
        #expect(layout.tileCells == PixelSize(width: 24, height: 8))
        #expect(layout.slots.count == 3)
        #expect(layout.slots[0] == CellRect(column: 11, row: 2, columns: 26, rows: 10))
        #expect(layout.slot(atColumn: 11, row: 2) == 0)
        #expect(layout.slot(atColumn: 37, row: 5) == 1)
        #expect(layout.slot(atColumn: 5, row: 5) == nil)
        #expect(layout.detailsRow == 13)
        #expect(layout.statusRow == 29)
        #expect(layout.tileBox == PixelSize(width: 240, height: 160))
    }
}

@Suite struct BrowserStateTests {
    @Test func startSearchesTheLaunchQuery() {
        var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: false)
        #expect(state.start() == [.search(query: "famous quotes", page: 1)])
        #expect(state.statusText == "searching…")
    }

    @Test func resultsLoadVisibleAndNextThumbnailsAndShowTheStatus() {
        var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: false)
        _ = state.start()
        let hits = (1...10).map(sampleHit)
        let effects = state.handle(.searchFinished(
            query: "famous quotes", page: 1, result: .page(hits: hits, totalHits: 173, totalPages: 9, note: nil)))
        #expect(effects == [.loadThumbnails(Array(hits[0..<6]))])
        #expect(state.tiles[1] == .loading)
        #expect(state.statusText == "page 1 of 9, 173 hits · Images from Pixabay")
        _ = state.handle(.searchFinished(
            query: "famous quotes", page: 1,
            result: .page(hits: hits, totalHits: 173, totalPages: 9, note: "network unavailable: showing cached results")))
        #expect(state.statusText
            == "page 1 of 9, 173 hits · Images from Pixabay · network unavailable: showing cached results")
        _ = state.handle(.thumbnailFinished(id: 1, loaded: true))
        _ = state.handle(.thumbnailFinished(id: 2, loaded: false))
        #expect(state.tiles[1] == .loaded && state.tiles[2] == .failed)
    }

    @Test func offlineStatusCarriesTheCatalogNote() {
        var state = BrowserState(layout: browserLayout(), query: "", offline: true)
        _ = state.start()
        _ = state.handle(.searchFinished(
            query: "", page: 1,
            result: .page(hits: [sampleHit(1)], totalHits: 1, totalPages: 1, note: "offline catalog: 1 photos")))
        #expect(state.statusText == "page 1 of 1, 1 hits · offline catalog: 1 photos")
    }

    @Test func lateResultsOfAReplacedSearchAreDropped() {
        var state = loadedBrowser()
        _ = state.handle(press("n"))
        #expect(state.handle(.searchFinished(
            query: "famous quotes", page: 1, result: .page(hits: [], totalHits: 0, totalPages: 0, note: nil))) == [])
        #expect(state.hits.count == 10)
        _ = state.handle(.searchFinished(query: "famous quotes", page: 2, result: .failed("network down")))
        #expect(state.statusText == "network down")
    }

    @Test func arrowsAndVimKeysMoveTheSelectionAndScrollTheStrip() {
        var state = loadedBrowser()
        _ = state.handle(press(.right))
        _ = state.handle(press("l"))
        #expect(state.selection == 2 && state.scroll == 0)
        let effects = state.handle(press(.right))
        #expect(state.selection == 3 && state.scroll == 1)
        #expect(effects == [.loadThumbnails([sampleHit(7)])])
        _ = state.handle(press("h"))
        _ = state.handle(press(.left))
        _ = state.handle(press(.left))
        #expect(state.selection == 0 && state.scroll == 0)
        _ = state.handle(press(.left))
        #expect(state.selection == 0)
        _ = state.handle(press(.end))
        #expect(state.selection == 9 && state.scroll == 7)
    }

    @Test func enterAndClickOpenTheViewer() {
        var state = loadedBrowser()
        _ = state.handle(press(.right))
        #expect(state.handle(press(.enter)) == [.openViewer(sampleHit(2))])
        // Slot 2 starts at column 63 (0-based), row 2.
        let click = BrowserEvent.input(.mouse(MouseEvent(kind: .press(.left), x: 70, y: 6)))
        #expect(state.handle(click) == [.openViewer(sampleHit(3))])
        #expect(state.selection == 2)
        let outside = BrowserEvent.input(.mouse(MouseEvent(kind: .press(.left), x: 3, y: 20)))
        #expect(state.handle(outside) == [])
    }

    @Test func pageKeysSearchTheNextAndPreviousPage() {
        var state = loadedBrowser()
        #expect(state.handle(press("n")) == [.search(query: "famous quotes", page: 2)])
        #expect(state.handle(press(.pageDown)) == [.search(query: "famous quotes", page: 3)])
        #expect(state.handle(press(.pageUp)) == [.search(query: "famous quotes", page: 2)])
        #expect(state.handle(press("p")) == [.search(query: "famous quotes", page: 1)])
        #expect(state.handle(press("p")) == [])
        #expect(state.statusText == "this is the first page")
    }

    @Test func favouritesToggleShowAndGoBack() {
        var state = loadedBrowser()
        #expect(state.handle(press("f")) == [.toggleFavourite(sampleHit(1))])
        _ = state.handle(.favouriteChanged(id: 1, isFavourite: true))
        #expect(state.favouriteIDs == [1])
        #expect(state.handle(press("F")) == [.showFavourites])
        _ = state.handle(.favouritesLoaded([sampleHit(42)]))
        #expect(state.showingFavourites && state.hits == [sampleHit(42)])
        #expect(state.statusText.hasPrefix("favourites: 1"))
        #expect(state.handle(press("n")) == [])
        #expect(state.handle(press("F")) == [.search(query: "famous quotes", page: 1)])
        #expect(!state.showingFavourites)
    }

    @Test func slashEditsTheQueryEnterSearchesEscapeCancels() {
        var state = loadedBrowser()
        _ = state.handle(press("/"))
        #expect(state.editText == "famous quotes")
        _ = state.handle(.input(.key(Key(.char("u"), .control))))
        for character in "cats!" { _ = state.handle(press(character)) }
        _ = state.handle(press(.backspace))
        // Keys that mean something elsewhere are text while editing.
        #expect(state.editText == "cats")
        #expect(state.handle(press(.enter)) == [.search(query: "cats", page: 1)])
        #expect(state.query == "cats" && state.editText == nil)
        _ = state.handle(press("/"))
        _ = state.handle(press("x"))
        _ = state.handle(press(.escape))
        #expect(state.editText == nil && state.query == "cats")
        _ = state.handle(press("/"))
        _ = state.handle(.input(.paste("\u{1B}[31mdogs")))
        #expect(state.editText?.contains("\u{1B}") == false)
    }

    @Test func qAndControlCQuit() {
        var state = loadedBrowser()
        #expect(state.handle(press("q")) == [.quit])
        #expect(state.handle(press(.char("c"), .control)) == [.quit])
        _ = state.handle(press("/"))
        #expect(state.handle(press("q")) == [])
        #expect(state.handle(press(.char("c"), .control)) == [.quit])
    }

    @Test func resizeKeepsTheSelectionVisible() {
        var state = loadedBrowser()
        _ = state.handle(press(.end))
        _ = state.handle(.resized(browserLayout(columns: 60)))
        #expect(state.layout.slots.count == 2)
        #expect(state.visibleRange == 8..<10)
    }
}
