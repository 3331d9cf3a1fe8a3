import Foundation
import HTTP
import Testing

@testable import Pixabay

@Suite struct OfflineCatalogTests {
    /// The catalog as the app finds it: through the SwiftPM resource bundle.
    func bundled() throws -> OfflineCatalog {
        try OfflineCatalog(directory: try #require(OfflineCatalog.defaultDirectory(environment: [:])))
    }

    func ids(_ query: SearchQuery) throws -> [Int] {
        try bundled().page(for: query).hits.map(\.id)
    }

    @Test func defaultDirectoryIsTheResourceBundle() throws {
        let directory = try #require(OfflineCatalog.defaultDirectory(environment: [:]))
        let viaBundle = try #require(Bundle.module.url(forResource: "Catalog", withExtension: nil))
        #expect(directory.standardizedFileURL == viaBundle.standardizedFileURL)
        #expect(directory.path.hasSuffix("pxview_Pixabay.resources/Catalog"))
        let catalog = try OfflineCatalog(directory: directory)
        #expect(catalog.entries.count == 15)
        #expect(Set(catalog.entries.map(\.hit.id)).count == 15)
    }

    @Test func environmentOverrideWins() {
        let directory = OfflineCatalog.defaultDirectory(environment: ["PXVIEW_CATALOG": "/opt/pxview/Catalog"])
        #expect(directory?.path == "/opt/pxview/Catalog")
    }

    @Test func urlsAreFileURLsInsideTheCatalogAndSizesAreHonest() throws {
        let catalog = try bundled()
        for entry in catalog.entries {
            let hit = entry.hit
            for url in [hit.previewURL, hit.webformatURL, hit.largeImageURL] {
                #expect(url.hasPrefix(catalog.directory.absoluteString), "\(url)")
            }
            #expect(max(hit.previewWidth, hit.previewHeight) <= 150)
            #expect(max(hit.webformatWidth, hit.webformatHeight) <= 640)
            #expect(hit.imageWidth >= hit.webformatWidth && hit.imageHeight >= hit.webformatHeight)
            #expect(!hit.user.isEmpty && !hit.tagList.isEmpty && entry.licence != nil)
        }
    }

    @Test func noQueryShowsEverythingMostLikedFirst() throws {
        let page = try bundled().page(for: SearchQuery())
        #expect(page.response.totalHits == 15)
        #expect(page.totalPages == 1)
        #expect(Array(page.hits.map(\.id).prefix(3)) == [1_000_013, 1_000_008, 1_000_009])  // cat, pagoda, espresso
        #expect(page.note == "offline catalog: 15 photos bundled with pxview (not from Pixabay)")
    }

    @Test func launchQueryMatchesNothingOffline() throws {
        let page = try bundled().page(for: SearchQuery(q: "famous quotes"))
        #expect(page.response.totalHits == 0)
        #expect(page.hits.isEmpty)
        #expect(page.totalPages == 0)
    }

    @Test func searchByTagIgnoresCaseAndPlural() throws {
        #expect(try ids(SearchQuery(q: "Flowers")) == [1_000_005, 1_000_011, 1_000_006])  // marigold, gerbera, dandelion
        #expect(try ids(SearchQuery(q: "cat")) == [1_000_013])
        #expect(try ids(SearchQuery(q: "milky way")) == [1_000_012])
    }

    @Test func anyWordMatchesAndMoreMatchesRankFirst() throws {
        // marigold has both words; then one-word matches by likes: gerbera, dandelion (flower), fossa (red).
        #expect(try ids(SearchQuery(q: "red flower")) == [1_000_005, 1_000_011, 1_000_006, 1_000_004])
    }

    @Test func latestOrderIsIdDescending() throws {
        #expect(Array(try ids(SearchQuery(order: .latest)).prefix(3)) == [1_000_015, 1_000_014, 1_000_013])
    }

    @Test func paginatesLikePixabay() async throws {
        let catalog = try bundled()
        let page2 = try await catalog.search(SearchQuery(page: 2, perPage: 4))
        #expect(page2.response.totalHits == 15)
        #expect(page2.totalPages == 4)
        #expect(page2.hits.map(\.id) == [1_000_012, 1_000_011, 1_000_001, 1_000_006])
        #expect(page2.hasNextPage)
        let last = try await catalog.search(SearchQuery(page: 4, perPage: 4))
        #expect(last.hits.map(\.id) == [1_000_003, 1_000_015, 1_000_007])
        #expect(!last.hasNextPage)
        let error = await pixabayError { _ = try await catalog.search(SearchQuery(page: 5, perPage: 4)) }
        #expect(error == .pageOutOfRange(page: 5, lastPage: 4))
        let invalid = await pixabayError { _ = try await catalog.search(SearchQuery(perPage: 1)) }
        #expect(invalid == .invalidQuery("--per-page must be between 3 and 200 (got 1)"))
    }

    @Test func filtersUseTheStoredData() throws {
        #expect(Set(try ids(SearchQuery(imageType: .illustration))) == [1_000_003, 1_000_004, 1_000_012, 1_000_015])
        #expect(try ids(SearchQuery(imageType: .vector)).isEmpty)
        #expect(try ids(SearchQuery(orientation: .vertical)).isEmpty)
        let horizontal = Set(try ids(SearchQuery(orientation: .horizontal)))
        #expect(horizontal.count == 12)
        #expect(horizontal.isDisjoint(with: [1_000_012, 1_000_014, 1_000_015]))  // squares
        #expect(try ids(SearchQuery(category: .animals)) == [1_000_013, 1_000_003])
        #expect(try ids(SearchQuery(colors: [.transparent])) == [1_000_015])
        #expect(try ids(SearchQuery(colors: [.grayscale, .transparent])) == [1_000_014, 1_000_015])
        #expect(Set(try ids(SearchQuery(minWidth: 4000))) == [1_000_004, 1_000_012])
        #expect(try ids(SearchQuery(minWidth: 2000, minHeight: 1900)) == [1_000_012, 1_000_004, 1_000_007])
        #expect(try ids(SearchQuery(editorsChoice: true)) == [1_000_013, 1_000_008, 1_000_005, 1_000_012, 1_000_001])
        #expect(try ids(SearchQuery(q: "flower", category: .nature, colors: [.red])) == [1_000_005, 1_000_011])
    }

    @Test func hitByID() async throws {
        let catalog = try bundled()
        #expect(try await catalog.hit(id: 1_000_008).tagList.contains("pagoda"))
        let error = await pixabayError { _ = try await catalog.hit(id: 42) }
        #expect(error == .notFound(id: 42))
        #expect(catalog.isOffline)
    }

    @Test func imageBytesAreRealJPEGsExceptTheTransparentLogo() async throws {
        let catalog = try bundled()
        for entry in catalog.entries {
            for size in ImageSize.allCases {
                let bytes = try await catalog.imageBytes(for: entry.hit, size: size)
                if entry.hit.id == 1_000_015 {
                    #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                } else {
                    #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF], "\(entry.hit.id) \(size)")
                    #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
                }
            }
        }
        // Looked up by id: a hit with stale URLs (saved by another install) still works.
        let stale = PixabayHit(id: 1_000_013, previewURL: "file:///gone/preview/cat.jpg")
        #expect(try await catalog.imageBytes(for: stale, size: .preview).count > 1000)
        let unknown = await pixabayError { _ = try await catalog.imageBytes(for: PixabayHit(id: 3), size: .web) }
        #expect(unknown == .imageUnavailable(id: 3, detail: "not in the offline catalog"))
    }

    @Test func totalCatalogSizeStaysSmall() throws {
        let directory = try bundled().directory
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey]))
        var total = 0
        for case let url as URL in files {
            total += try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        }
        #expect(total < 4_000_000)
    }
}

@Suite struct CatalogLoadingErrorTests {
    func temporaryCatalog(json: String, files: [String] = []) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pxview-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("web"), withIntermediateDirectories: true)
        try json.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        for file in files {
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: directory.appendingPathComponent(file))
        }
        return directory
    }

    func loadError(_ directory: URL) async -> PixabayError? {
        await pixabayError { _ = try OfflineCatalog(directory: directory) }
    }

    @Test func pathsOutsideTheCatalogAreRefused() async throws {
        let directory = try temporaryCatalog(json: #"{"hits":[{"id":1,"previewURL":"../../etc/passwd"}]}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await loadError(directory) == .catalog(#"entry 1: "../../etc/passwd" is not a path inside the catalog folder"#))
    }

    @Test func missingFilesAreNamed() async throws {
        let directory = try temporaryCatalog(
            json: #"{"hits":[{"id":2,"previewURL":"web/a.jpg","webformatURL":"web/b.jpg"}]}"#, files: ["web/a.jpg"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await loadError(directory) == .catalog("entry 2: missing file \(directory.standardizedFileURL.path)/web/b.jpg"))
    }

    @Test func smallValidCatalogLoadsWithEmptyLargeFallingBack() async throws {
        let directory = try temporaryCatalog(
            json:
                #"{"hits":[{"id":3,"previewURL":"web/a.jpg","webformatURL":"web/a.jpg","largeImageURL":"","colors":["red"],"category":"food"}]}"#,
            files: ["web/a.jpg"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try OfflineCatalog(directory: directory)
        #expect(catalog.entries.first?.category == .food)
        let hit = try #require(catalog.entries.first?.hit)
        #expect(try await catalog.imageBytes(for: hit, size: .large) == [0xFF, 0xD8, 0xFF, 0xD9])
    }

    @Test func brokenCatalogJSONIsACatalogError() async throws {
        let directory = try temporaryCatalog(json: #"{"hits":[{"id":"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .catalog(let detail) = await loadError(directory) else {
            Issue.record("expected a catalog error")
            return
        }
        #expect(detail.hasPrefix(directory.standardizedFileURL.path + "/catalog.json: Pixabay sent a response"))
    }

    @Test func missingFolder() async {
        let error = await loadError(URL(fileURLWithPath: "/nonexistent/pxview/Catalog"))
        #expect(error == .catalog("cannot read /nonexistent/pxview/Catalog/catalog.json"))
    }
}

@Suite struct ResolveSourceTests {
    let fetcher = FakeFetcher(status: 200, body: "{}")
    let catalog = OfflineCatalog.defaultDirectory(environment: [:])

    @Test func noKeyAndNoURLGivesTheOfflineCatalogWithAHint() throws {
        for key in [nil, "", "   "] {
            let resolved = try resolveSource(
                apiKey: key, apiURL: nil, offline: false, fetcher: fetcher, catalogDirectory: catalog)
            #expect(resolved.source.isOffline)
            #expect(resolved.source is OfflineCatalog)
            #expect(resolved.hint == "pxview: offline catalog (set PIXABAY_API_KEY or use --api-key to search Pixabay)")
        }
    }

    @Test func keyGivesPixabay() throws {
        let resolved = try resolveSource(apiKey: " k1 ", apiURL: nil, offline: false, fetcher: fetcher, catalogDirectory: catalog)
        let client = try #require(resolved.source as? PixabayClient)
        #expect(client.apiKey == "k1")
        #expect(client.baseURL == "https://pixabay.com/api/")
        #expect(resolved.hint == nil)
    }

    @Test func apiURLWithoutKeyGivesThatServer() throws {
        let resolved = try resolveSource(
            apiKey: nil, apiURL: "http://127.0.0.1:8080/api/", offline: false, fetcher: fetcher, catalogDirectory: catalog)
        let client = try #require(resolved.source as? PixabayClient)
        #expect(client.apiKey == "")
        #expect(client.baseURL == "http://127.0.0.1:8080/api/")
    }

    @Test func offlineFlagWinsWithoutHint() throws {
        let resolved = try resolveSource(apiKey: "k", apiURL: nil, offline: true, fetcher: fetcher, catalogDirectory: catalog)
        #expect(resolved.source.isOffline)
        #expect(resolved.hint == nil)
    }

    @Test func noCatalogFoundIsAClearError() async {
        let error = await pixabayError {
            _ = try resolveSource(apiKey: nil, apiURL: nil, offline: false, fetcher: fetcher, catalogDirectory: nil)
        }
        #expect(error == .catalog("no catalog folder found next to the executable; set PXVIEW_CATALOG to the Catalog folder"))
    }
}
