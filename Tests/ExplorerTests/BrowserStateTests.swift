import Photos
import Pixabay
import Pixels
import Rendering
import Terminal
import Testing

@testable import Explorer

/// 80x24 cells of 10x20 px: 3 columns of 26-cell slots (tiles of 24x8
/// cells, 240x160 px) and 2 rows of them, 6 tiles on screen.
func browserLayout(columns: Int = 80, rows: Int = 24) -> BrowserLayout {
    BrowserLayout(
        screen: BackendGeometry(
            graphics: .sixel, windowCells: CellCount(width: columns, height: rows), cellPixels: PixelSize(width: 10, height: 20)))
}

/// A folder's grid (`show DIR`) of `files` files, p1.jpg…, loaded.
func folderBrowser(files count: Int) -> BrowserState {
    var state = BrowserState(
        layout: BrowserLayout(
            screen: BackendGeometry(
                graphics: .kitty, windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16)),
            nameLines: true),
        query: "", offline: true, folder: "/photos")
    _ = state.start()
    _ = state.handle(
        .searchFinished(
            query: "", page: 1,
            result: .page(
                photos: (1...count).map { filePhoto($0, "p\($0).jpg") }, totalHits: count, totalPages: 1, note: "folder")))
    return state
}

func loadedBrowser(hits count: Int = 10, totalPages: Int = 9, offline: Bool = false) -> BrowserState {
    var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: offline)
    _ = state.start()
    _ = state.handle(
        .searchFinished(
            query: "famous quotes", page: 1,
            result: .page(photos: (1...count).map(samplePhoto), totalHits: 173, totalPages: totalPages, note: nil)))
    return state
}

/// A browser started on a query and showing `photos`, one page of them.
func browserListing(
    _ photos: [Photo], query: String = "", offline: Bool = false, folder: String? = nil, note: String? = nil
) -> BrowserState {
    var state = BrowserState(layout: browserLayout(), query: query, offline: offline, folder: folder)
    _ = state.start()
    _ = state.handle(
        .searchFinished(
            query: query, page: 1, result: .page(photos: photos, totalHits: photos.count, totalPages: 1, note: note)))
    return state
}

func press(_ code: KeyCode, _ modifiers: Modifiers = []) -> BrowserEvent { .input(.key(Key(code, modifiers))) }
func press(_ character: Character) -> BrowserEvent { .input(.key(Key(.char(character)))) }

@Suite struct BrowserLayoutTests {
    @Test func at80x24TheGridHasThreeColumnsAndTwoRowsOfRecognisableTiles() {
        let layout = browserLayout()
        #expect(layout.tileCells == CellCount(width: 24, height: 8))
        #expect(layout.columns == 3 && layout.rows == 2 && layout.tileFrames.count == 6)
        #expect(layout.tileFrames[0] == CellRect(column: 1, row: 1, columns: 26, rows: 10))
        #expect(layout.tileFrames[4] == CellRect(column: 27, row: 11, columns: 26, rows: 10))
        #expect(layout.slot(atColumn: 1, row: 1) == 0)
        #expect(layout.slot(atColumn: 30, row: 15) == 4)
        #expect(layout.slot(atColumn: 0, row: 5) == nil)
        #expect(layout.detailsRow == 21 && layout.statusRow == 23)
        #expect(layout.tileBox == PixelSize(width: 240, height: 160))
    }

    /// The default follows the window: a wide one gets larger tiles as
    /// well as more (300 columns: 6 of 48 columns, 11 of 25 before).
    @Test func aLargeWindowGetsLargerTiles() {
        let layout = browserLayout(columns: 200, rows: 60)
        #expect(layout.columns == 5 && layout.rows == 3)
        #expect(layout.tileCells == CellCount(width: 38, height: 13))
        // Every slot is inside the window, above the detail rows.
        #expect(layout.tileFrames.allSatisfy { $0.column + $0.columns <= 200 && $0.row + $0.rows <= layout.detailsRow })
        let wide = browserLayout(columns: 300, rows: 80)
        #expect(wide.columns == 6 && wide.tileCells.width == 48)
    }

    /// A small window: fewer tiles, but each large enough to tell a photo
    /// by (40x12 once got two 38x2-cell strips, squeezed into two rows).
    @Test func aSmallWindowGetsFewerLegibleTiles() {
        let layout = browserLayout(columns: 40, rows: 12)
        #expect(layout.columns == 2 && layout.rows == 1)
        #expect(layout.tileCells == CellCount(width: 18, height: 6))
    }

    /// A huge window gets the grid of a large one, centred: never
    /// thousands of slots, never tiles that take seconds to draw.
    @Test func aHugeWindowHasAtMostTwelveByTwelveSlots() {
        let layout = browserLayout(columns: 2048, rows: 2048)
        #expect(layout.columns == 12 && layout.rows == 12)
        #expect(layout.tileCells.width == 46)
        #expect(layout.tileFrames.allSatisfy { $0.column + $0.columns <= 2048 && $0.row + $0.rows <= layout.detailsRow })
    }
}

@Suite struct BrowserStateTests {
    /// A folder's grid: `m` marks and unmarks the selected photo, `M`
    /// marks all, then none; the tile shows the mark (issue 29).
    @Test func mMarksAndMMarksAll() {
        var state = folderBrowser(files: 3)
        #expect(state.handle(.input(.key(Key(.char("m"))))).isEmpty)
        #expect(state.markedIDs == [1] && state.message == "marked · 1 marked")
        #expect(BrowserPlan(state, hasPicture: { _ in true }).marks.first == "✓")
        _ = state.handle(.input(.key(Key(.char("m")))))
        #expect(state.markedIDs.isEmpty && state.message == "unmarked · 0 marked")
        _ = state.handle(.input(.key(Key(.char("M")))))
        #expect(state.markedIDs == [1, 2, 3])
        _ = state.handle(.input(.key(Key(.char("M")))))
        #expect(state.markedIDs.isEmpty)
    }

    @Test func startSearchesTheLaunchQuery() {
        var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: false)
        #expect(state.start() == [.search(query: "famous quotes", page: 1)])
        #expect(state.statusText == "searching…")
    }

    @Test func resultsLoadVisibleAndNextScreenfulOfThumbnailsAndShowTheStatus() {
        var state = BrowserState(layout: browserLayout(), query: "famous quotes", offline: false)
        _ = state.start()
        let hits = (1...20).map(samplePhoto)
        let effects = state.handle(
            .searchFinished(
                query: "famous quotes", page: 1, result: .page(photos: hits, totalHits: 173, totalPages: 9, note: nil)))
        #expect(effects == [.loadThumbnails(Array(hits[0..<12]))])
        #expect(state.tiles[1] == .loading)
        #expect(state.statusText == "1 of 173 · Images from Pixabay")
        _ = state.start()
        _ = state.handle(
            .searchFinished(
                query: "famous quotes", page: 1,
                result: .page(photos: hits, totalHits: 173, totalPages: 9, note: "network unavailable: showing cached results")))
        #expect(state.statusText == "1 of 173 · Images from Pixabay · network unavailable: showing cached results")
        _ = state.handle(.thumbnailFinished(id: 1, loaded: true))
        _ = state.handle(.thumbnailFinished(id: 2, loaded: false))
        #expect(state.tiles[1] == .loaded && state.tiles[2] == .failed)
    }

    @Test func offlineStatusCarriesTheCatalogNote() {
        let state = browserListing([samplePhoto(1)], offline: true, note: "offline catalog: 1 photos")
        #expect(state.statusText == "1 of 1 · offline catalog: 1 photos")
    }

    @Test func lateResultsOfAReplacedSearchAreDropped() {
        var state = loadedBrowser()
        _ = state.handle(press("/"))
        _ = state.handle(.input(.key(Key(.char("u"), .control))))
        for character in "cats" { _ = state.handle(press(character)) }
        #expect(state.handle(press(.enter)) == [.search(query: "cats", page: 1)])
        #expect(
            state.handle(
                .searchFinished(
                    query: "famous quotes", page: 1, result: .page(photos: [], totalHits: 0, totalPages: 0, note: nil))) == [])
        #expect(state.photos.count == 10)
        _ = state.handle(.searchFinished(query: "cats", page: 1, result: .failed("network down")))
        #expect(state.statusText == "network down")
    }

    @Test func arrowsAndVimKeysMoveInTwoDimensionsAndTheGridScrollsByRows() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        _ = state.handle(press(.right))
        _ = state.handle(press("l"))
        #expect(state.selection == 2 && state.scroll == 0)
        _ = state.handle(press(.down))
        #expect(state.selection == 5 && state.scroll == 0)
        // Into the third row: the grid scrolls one row; the row after it loads.
        let effects = state.handle(press("j"))
        #expect(state.selection == 8 && state.scroll == 1)
        #expect(state.visibleRange == 3..<9)
        #expect(effects == [.loadThumbnails([samplePhoto(13), samplePhoto(14), samplePhoto(15)])])
        _ = state.handle(press("k"))
        _ = state.handle(press(.up))
        #expect(state.selection == 2 && state.scroll == 0)
        _ = state.handle(press("h"))
        _ = state.handle(press(.left))
        _ = state.handle(press(.left))
        #expect(state.selection == 0)
        _ = state.handle(press(.up))
        #expect(state.selection == 0)
        _ = state.handle(press(.end))
        #expect(state.selection == 19 && state.scroll == 5)
        #expect(state.visibleRange == 15..<20)
        _ = state.handle(press(.home))
        #expect(state.selection == 0 && state.scroll == 0)
    }

    @Test func pageKeysMoveByAScreenfulOfTiles() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        _ = state.handle(press(.pageDown))
        #expect(state.selection == 6 && state.scroll == 1)
        _ = state.handle(press("n"))
        #expect(state.selection == 12 && state.scroll == 3)
        _ = state.handle(press(.pageUp))
        #expect(state.selection == 6 && state.scroll == 2)
        _ = state.handle(press("p"))
        _ = state.handle(press("p"))
        #expect(state.selection == 0 && state.scroll == 0)
    }

    @Test func theNextPageLoadsAheadAndAppends() {
        var state = loadedBrowser(hits: 10, totalPages: 9)
        // Within a screenful (6) of the last of 10 hits: page 2 is asked for, once.
        #expect(state.handle(press(.down)) == [])
        let effects = state.handle(press(.down))
        #expect(effects.contains(.search(query: "famous quotes", page: 2)))
        #expect(state.loadingMore && state.statusText.hasSuffix("loading more…"))
        #expect(!state.handle(press(.right)).contains(.search(query: "famous quotes", page: 2)))
        // Scrolling past the last row stays on the last hit until the page is there.
        _ = state.handle(press(.pageDown))
        #expect(state.selection == 9)
        let arrived = state.handle(
            .searchFinished(
                query: "famous quotes", page: 2,
                result: .page(photos: (9...20).map(samplePhoto), totalHits: 173, totalPages: 9, note: nil)))
        // Hit 9 and 10 were on page 1 already: listed once.
        #expect(state.photos.map(\.id) == Array(1...20))
        #expect(state.page == 2 && !state.loadingMore)
        #expect(arrived.contains { if case .loadThumbnails = $0 { return true } else { return false } })
        _ = state.handle(press(.down))
        #expect(state.selection == 12)
    }

    /// End goes to the real end, not the last photo loaded: a page at a
    /// time, the status line counting them, the selection on each page's
    /// last photo; any other key stops it where it is.
    @Test func endLoadsPagesToTheRealEnd() {
        func page(_ number: Int) -> BrowserEvent {
            .searchFinished(
                query: "famous quotes", page: number,
                result: .page(
                    photos: ((number - 1) * 10 + 1...number * 10).map(samplePhoto), totalHits: 30, totalPages: 3, note: nil))
        }
        var state = loadedBrowser(hits: 10, totalPages: 3)
        #expect(state.handle(press(.end)).contains(.search(query: "famous quotes", page: 2)))
        #expect(state.selection == 9 && state.seekingEnd)
        #expect(state.statusText == "10 of 173 · Images from Pixabay · to the end: page 2 of 3…")
        #expect(state.handle(page(2)).contains(.search(query: "famous quotes", page: 3)))
        #expect(state.selection == 19 && state.visibleRange.contains(19))
        #expect(!state.handle(page(3)).contains { if case .search = $0 { return true } else { return false } })
        #expect(state.selection == 29 && state.photos.count == 30 && !state.seekingEnd && !state.loadingMore)
        #expect(state.statusText == "30 of 30 · Images from Pixabay")

        var stopped = loadedBrowser(hits: 10, totalPages: 3)
        _ = stopped.handle(press("G"))
        _ = stopped.handle(press(.home))
        _ = stopped.handle(page(2))
        #expect(stopped.selection == 0 && !stopped.seekingEnd && stopped.photos.count == 20)
    }

    @Test func theLastPageIsNotAskedForTwiceOrPastTheEnd() {
        var state = loadedBrowser(hits: 10, totalPages: 1)
        _ = state.handle(press(.end))
        #expect(!state.loadingMore)
        #expect(state.handle(press(.down)).allSatisfy { if case .search = $0 { return false } else { return true } })
    }

    /// A new search that fails leaves nothing of the old one for the next
    /// page to be appended to (found in review: "dog" page 2 after "cat").
    @Test func aFailedSearchLeavesNoOldPhotosToAppendTo() {
        var state = loadedBrowser(hits: 10, totalPages: 9)
        _ = state.handle(press("/"))
        _ = state.handle(.input(.key(Key(.char("u"), .control))))
        for character in "dog" { _ = state.handle(press(character)) }
        _ = state.handle(press(.enter))
        _ = state.handle(.searchFinished(query: "dog", page: 1, result: .failed("network down")))
        #expect(state.photos.isEmpty && state.totalPages == 0)
        #expect(state.statusText == "network down")
        #expect(state.handle(press(.end)) == [])
    }

    @Test func theSelectionFollowsThePhotoTheViewerShows() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        state.select(id: 14)
        #expect(state.selection == 13 && state.scroll == 3)
        state.select(id: 99)
        #expect(state.selection == 13)
    }

    @Test func enterAndClickOpenTheViewer() {
        var state = loadedBrowser()
        _ = state.handle(press(.right))
        #expect(state.handle(press(.enter)) == [.openViewer(samplePhoto(2))])
        // Slot 4 (second row, middle) starts at column 27, row 11 (0-based).
        let click = BrowserEvent.input(.mouse(MouseEvent(kind: .press(.left), x: 35, y: 16)))
        #expect(state.handle(click) == [.openViewer(samplePhoto(5))])
        #expect(state.selection == 4)
        let outside = BrowserEvent.input(.mouse(MouseEvent(kind: .press(.left), x: 3, y: 23)))
        #expect(state.handle(outside) == [])
    }

    @Test func theWheelScrollsARow() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        _ = state.handle(.input(.mouse(MouseEvent(kind: .wheelDown, x: 5, y: 5))))
        #expect(state.selection == 3)
        _ = state.handle(.input(.mouse(MouseEvent(kind: .wheelUp, x: 5, y: 5))))
        #expect(state.selection == 0)
    }

    @Test func questionMarkShowsTheKeysUntilAnyKey() {
        var state = loadedBrowser()
        #expect(state.handle(press("?")) == [])
        #expect(state.showHelp)
        // Keys do nothing else while the help shows; any key closes it.
        #expect(state.handle(press("q")) == [])
        #expect(!state.showHelp && state.selection == 0)
        _ = state.handle(press("?"))
        #expect(state.handle(press(.char("c"), .control)) == [.quit])
    }

    @Test func theViewerStepsThroughTheGridAndLoadsAhead() {
        var state = loadedBrowser(hits: 10, totalPages: 9)
        let next = state.step(by: 1)
        #expect(next?.photo == samplePhoto(2) && state.selection == 1)
        #expect(state.step(by: -1)?.photo == samplePhoto(1))
        #expect(state.step(by: -1) == nil)
        #expect(state.message == "this is the first photo")
        _ = state.handle(press(.end))
        #expect(state.step(by: 1) == nil)
        #expect(state.message == "loading more…")
    }

    @Test func favouritesToggleShowAndGoBack() {
        var state = loadedBrowser()
        #expect(state.handle(press("f")) == [.toggleFavourite(sampleHit(1))])
        _ = state.handle(.favouriteChanged(id: 1, isFavourite: true))
        #expect(state.favouriteIDs == [1])
        #expect(state.handle(press("F")) == [.showFavourites])
        _ = state.handle(.favouritesLoaded([samplePhoto(42)]))
        #expect(state.showingFavourites && state.photos == [samplePhoto(42)])
        #expect(state.statusText.hasPrefix("favourites: 1"))
        #expect(state.handle(press("n")) == [])
        #expect(state.handle(press("F")) == [.search(query: "famous quotes", page: 1)])
        #expect(!state.showingFavourites)
    }

    @Test func aFolderHasNoFavouritesAndSaysWhereItIs() {
        var state = browserListing([filePhoto(1, "a.jpg"), filePhoto(2, "b.jpg")], offline: true, folder: "~/Pictures")
        #expect(state.statusText == "1 of 2 · ~/Pictures")
        // Not a folder grid's keys (its help does not list them).
        #expect(state.handle(press("f")) == [])
        #expect(state.handle(press("F")) == [])
        #expect(state.message == nil)
        let local = filePhoto(3, "c.jpg")
        _ = state.handle(
            .searchFinished(
                query: "", page: 1, result: .page(photos: [local], totalHits: 1, totalPages: 1, note: nil)))
        _ = state.start()
        _ = state.handle(
            .searchFinished(
                query: "", page: 1, result: .page(photos: [local], totalHits: 1, totalPages: 1, note: nil)))
        _ = state.handle(.imageSize(id: 3, width: 640, height: 427))
        #expect(state.photos[0].pixelSize == PixelSize(width: 640, height: 427))
        // A new search lists the file again without its size: the learnt one stays.
        _ = state.handle(press("/"))
        _ = state.handle(press(.enter))
        _ = state.handle(
            .searchFinished(
                query: "", page: 1, result: .page(photos: [local], totalHits: 1, totalPages: 1, note: nil)))
        #expect(state.photos[0].pixelSize == PixelSize(width: 640, height: 427))
    }

    /// `f` asks the photo, not the screen: a file is never a favourite, even
    /// in a grid that is not a folder's; a Pixabay photo is, by its hit.
    @Test func fAsksThePhotoWhetherItCanBeAFavourite() {
        var state = browserListing([filePhoto(1, "pixabay-1.jpg"), samplePhoto(2)])
        #expect(state.handle(press("f")) == [])
        #expect(state.message == "favourites are for Pixabay images")
        _ = state.handle(press("l"))
        #expect(state.handle(press("f")) == [.toggleFavourite(sampleHit(2))])
    }

    /// A Pixabay photo keeps the size Pixabay sent: its thumbnail is a
    /// smaller rendition (it once put a preview's 150x100 in the details of
    /// a hit sent without a size).
    @Test func aPixabayPhotoKeepsItsOwnSizeWhenItsThumbnailIsDecoded() {
        var hit = sampleHit(4)
        hit.imageWidth = 0
        hit.imageHeight = 0
        var state = browserListing([Photo(hit: hit)])
        _ = state.handle(.imageSize(id: 4, width: 150, height: 100))
        #expect(state.photos[0].pixelSize == nil)
        #expect(state.photos[0].pixabayHit?.imageWidth == 0)
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

    /// A paste is bounded like typing, in the field and outside it (where
    /// it starts editing): a megabyte pasted into the grid once froze it.
    @Test func pastesAreCappedAtTheQueryLength() {
        var state = loadedBrowser()
        _ = state.handle(.input(.paste(String(repeating: "y", count: 1 << 20))))
        let typed = state.query
        #expect(
            state.editText == typed + String(repeating: "y", count: SearchQuery.maxQueryCharacters - typed.count))
        _ = state.handle(press(.escape))
        _ = state.handle(press("/"))
        _ = state.handle(.input(.paste("ab")))
        _ = state.handle(.input(.paste(String(repeating: "z", count: 1 << 20))))
        let text = state.editText ?? ""
        #expect(text.count == SearchQuery.maxQueryCharacters && text.hasPrefix(state.query + "ab"))
    }

    @Test func qAndControlCQuit() {
        var state = loadedBrowser()
        #expect(state.handle(press("q")) == [.quit])
        #expect(state.handle(press(.char("c"), .control)) == [.quit])
        _ = state.handle(press("/"))
        #expect(state.handle(press("q")) == [])
        #expect(state.handle(press(.char("c"), .control)) == [.quit])
    }

    /// A folder's tiles, decoded at the tile size, are decoded again when
    /// the tiles grow; Pixabay previews are not.
    @Test func largerTilesReloadAFoldersThumbnails() {
        var folder = BrowserState(layout: browserLayout(), query: "", offline: true, folder: "/photos")
        _ = folder.start()
        _ = folder.handle(
            .searchFinished(
                query: "", page: 1, result: .page(photos: (1...4).map(samplePhoto), totalHits: 4, totalPages: 1, note: nil)))
        for id in 1...4 { _ = folder.handle(.thumbnailFinished(id: id, loaded: true)) }
        let grown = folder.handle(
            .resized(
                BrowserLayout(
                    screen: BackendGeometry(
                        graphics: .sixel, windowCells: CellCount(width: 80, height: 24),
                        cellPixels: PixelSize(width: 16, height: 32)))))
        #expect(grown == [.loadThumbnails((1...4).map(samplePhoto))])
        var online = loadedBrowser(hits: 4, totalPages: 1)
        for id in 1...4 { _ = online.handle(.thumbnailFinished(id: id, loaded: true)) }
        #expect(
            online.handle(
                .resized(
                    BrowserLayout(
                        screen: BackendGeometry(
                            graphics: .sixel, windowCells: CellCount(width: 80, height: 24),
                            cellPixels: PixelSize(width: 16, height: 32))))) == [])
    }

    @Test func resizeKeepsTheSelectionVisible() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        _ = state.handle(press(.end))
        _ = state.handle(.resized(browserLayout(columns: 60)))
        #expect(state.layout.columns == 3 && state.layout.tileFrames.count == 6)
        #expect(state.visibleRange == 15..<20)
    }
}

/// `+` and `-` in the grid, as nsxiv's thumbnail mode has them.
@Suite struct TileSizeTests {
    /// A column fewer per `+`, a column more per `-`, said at either end.
    @Test func plusAndMinusStepTheTileSizeAColumnAtATime() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        #expect(state.layout.columns == 3)
        _ = state.handle(press("+"))
        // Taller too: one row of 3:2 tiles, not two squeezed ones.
        #expect(state.layout.columns == 2 && state.layout.tileCells == CellCount(width: 38, height: 13))
        _ = state.handle(press("="))
        // One slot, as wide as a slot may be (64 columns), centred in the 80.
        #expect(state.layout.columns == 1 && state.message == nil)
        #expect(state.layout.tileFrames.map(\.columns) == [64] && state.layout.tileFrames[0].column == 8)
        _ = state.handle(press("+"))
        #expect(state.layout.columns == 1 && state.message == "the tiles are at their largest")
        for columns in 2...8 {
            _ = state.handle(press("-"))
            #expect(state.layout.columns == columns)
        }
        _ = state.handle(press("-"))
        #expect(state.layout.columns == 8 && state.message == "the tiles are at their smallest")
        // The selection stays in sight: the last photo, 20 of 20.
        _ = state.handle(press(.end))
        for _ in 0..<7 { _ = state.handle(press("+")) }
        #expect(state.visibleRange.contains(state.selection))
    }

    /// The size chosen stays: a larger window gets more of those tiles,
    /// not the window's default, and a new search keeps it.
    @Test func theChosenSizeIsKeptThroughResizesAndSearches() {
        var state = loadedBrowser(hits: 20, totalPages: 1)
        _ = state.handle(press("-"))
        #expect(state.layout.columns == 4)
        _ = state.handle(.resized(browserLayout(columns: 160, rows: 48)))
        #expect(state.layout.columns == 8)
        #expect(browserLayout(columns: 160, rows: 48).columns == 4)  // the default there
        for event in [press("/"), press(.char("u"), .control), press("x"), press(.enter)] { _ = state.handle(event) }
        _ = state.handle(
            .searchFinished(query: "x", page: 1, result: .page(photos: [samplePhoto(5)], totalHits: 1, totalPages: 1, note: nil)))
        #expect(state.layout.columns == 8 && state.photos.count == 1)
    }

    /// Pixabay's 150-px previews stretched over a large tile look soft: past
    /// 225 px the tiles come from the web size, fetched anew.
    @Test func largeTilesOfPixabayPhotosComeFromTheWebSize() {
        var state = BrowserState(layout: browserLayout(columns: 60), query: "q", offline: false)
        _ = state.start()
        _ = state.handle(
            .searchFinished(
                query: "q", page: 1, result: .page(photos: (1...8).map(samplePhoto), totalHits: 8, totalPages: 1, note: nil)))
        for id in 1...8 { _ = state.handle(.thumbnailFinished(id: id, loaded: true)) }
        #expect(state.layout.tileCells.width * 10 == 180 && state.thumbnailSize == .preview)
        let effects = state.handle(press("+"))
        #expect(state.layout.tileCells.width * 10 == 280 && state.thumbnailSize == .web)
        // One row of two on screen, two more ahead: fetched anew.
        #expect(effects == [.loadThumbnails((1...4).map(samplePhoto))])
        // Back to smaller tiles: the web-size ones serve, the rest come.
        #expect(state.handle(press("-")) == [.loadThumbnails((5...8).map(samplePhoto))])
    }
}
