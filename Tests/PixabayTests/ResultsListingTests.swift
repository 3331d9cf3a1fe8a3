import Foundation
import Testing

@testable import Pixabay

/// What `search` and the favourites listing print: table rows, footers, JSON.
@Suite struct ResultsListingTests {
    let hit = PixabayHit(
        id: 195893, tags: "blossom, bloom,, flower ", imageWidth: 4000, imageHeight: 2250, likes: 5,
        user: "Josch13")

    @Test func searchRowsAndHeaders() {
        #expect(ResultsListing.searchHeaders == ["ID", "SIZE", "USER", "LIKES", "TAGS"])
        #expect(ResultsListing.searchRow(for: hit) == ["195893", "4000x2250", "Josch13", "5", "blossom, bloom, flower"])
        #expect(ResultsListing.searchRow(for: PixabayHit(id: 3))[1] == "?")
    }

    @Test func favouriteRowsShowTheDayAdded() {
        let entry = FavouriteEntry(hit: hit, added: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(
            ResultsListing.favouriteRow(for: entry) == [
                "195893", "4000x2250", "Josch13", "5", "2023-11-14", "blossom, bloom, flower",
            ])
    }

    @Test func footersSayWhereThePhotosAreFrom() {
        let online = SearchPage(response: PixabayResponse(total: 9000, totalHits: 500, hits: [hit]), page: 2, perPage: 20)
        #expect(ResultsListing.footer(for: online, offlineCatalogSize: nil) == "page 2 of 25, 500 hits · Images from Pixabay")
        let offline = SearchPage(response: PixabayResponse(total: 1, totalHits: 1, hits: [hit]), page: 1, perPage: 20)
        #expect(
            ResultsListing.footer(for: offline, offlineCatalogSize: 15)
                == "page 1 of 1, 1 hit · offline catalog (15 photos, see SOURCES.md)")
        let empty = SearchPage(response: PixabayResponse(total: 0, totalHits: 0, hits: []), page: 1, perPage: 20)
        #expect(ResultsListing.footer(for: empty, offlineCatalogSize: nil) == "no hits · Images from Pixabay")
    }

    @Test func jsonIsPixabayShapedAndEscapesTerminalControls() throws {
        let hostile = PixabayHit(id: 1, tags: "a\u{1B}]0;owned\u{07}b, \u{202E}gnp.exe, \u{9B}2J, del\u{7F}", user: "u")
        let bytes = ResultsListing.json(PixabayResponse(total: 7, totalHits: 1, hits: [hostile]))
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x7F))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x9B })
        // Escaping changed the bytes, not the meaning.
        let decoded = try PixabayResponse.decode(from: bytes)
        #expect(decoded.total == 7 && decoded.totalHits == 1)
        #expect(decoded.hits == [hostile])
    }
}
