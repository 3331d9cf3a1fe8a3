import Foundation
import HTTP
import Testing

@testable import Pixabay

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
        #expect(ResultsListing.favouriteRow(for: entry) == ["195893", "4000x2250", "Josch13", "5", "2023-11-14", "blossom, bloom, flower"])
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

    @Test func sniffingImages() {
        #expect(ImageFileType(sniffing: [0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(ImageFileType(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFileType(sniffing: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(ImageFileType(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(ImageFileType.jpeg.fileExtension == "jpg")
        #expect(ImageFileType.describeNonImage(Array("  <html><body>".utf8)) == "an HTML page")
        #expect(ImageFileType.describeNonImage(Array(#"{"error": 1}"#.utf8)) == "JSON")
        #expect(ImageFileType.describeNonImage(Array("Forbidden\n".utf8)) == "text")
        #expect(ImageFileType.describeNonImage([0, 1, 2, 200]) == "unrecognised data")
        #expect(ImageFileType.describeNonImage([]) == "an empty body")
    }

    @Test func settingsPreferFlagsOverTheEnvironment() {
        let environment = [
            "PIXABAY_API_KEY": "env-key", "PIXABAY_API_URL": "http://env/api/", "XDG_CACHE_HOME": "/x/cache",
        ]
        let fromEnvironment = SourceSettings(
            apiKeyOption: nil, apiURLOption: nil, offline: false, noCache: false, environment: environment)
        #expect(
            fromEnvironment
                == SourceSettings(
                    apiKey: "env-key", apiURL: "http://env/api/", offline: false, useCache: true,
                    cacheDirectory: "/x/cache/pxview"))
        let fromFlags = SourceSettings(
            apiKeyOption: "flag-key", apiURLOption: "http://flag/api/", offline: true, noCache: true,
            environment: environment)
        #expect(fromFlags.apiKey == "flag-key" && fromFlags.apiURL == "http://flag/api/")
        #expect(fromFlags.offline && !fromFlags.useCache)
    }

    @Test func stackWithoutKeyIsTheCatalogWithTheHint() throws {
        let settings = SourceSettings(apiKey: nil, apiURL: nil, offline: false, useCache: false, cacheDirectory: "/unused")
        let stack = try SourceStack(
            settings: settings, userAgent: "t", transport: FakeFetcher(status: 500, body: ""),
            catalogDirectory: OfflineCatalog.defaultDirectory(environment: [:]))
        #expect(stack.hint == noAPIKeyHint)
        #expect(stack.source.isOffline)
        #expect(stack.cache == nil)
        #expect(stack.offlineCatalogSize == 15)  // the 15 photos shipped in Sources/Pixabay/Catalog
    }

    @Test func staleAgesReadNaturally() {
        #expect(StaleCopyLog.ageText(1) == "1 second ago")
        #expect(StaleCopyLog.ageText(125) == "2 minutes ago")
        #expect(StaleCopyLog.ageText(25 * 3600 + 5) == "25 hours ago")
        #expect(StaleCopyLog.ageText(5 * 86400) == "5 days ago")
    }

    @Test func progressLabelsNeverIncludeTheQuery() {
        #expect(ProgressReportingFetcher.label(for: "https://cdn.pixabay.com/photo/x_1280.jpg?key=abc") == "x_1280.jpg")
        #expect(ProgressReportingFetcher.label(for: "https://pixabay.com/api/?key=abc&id=1") == "api")
        #expect(ProgressReportingFetcher.label(for: "https://host") == "host")
        #expect(ProgressReportingFetcher.label(for: "") == "image")
    }
}
