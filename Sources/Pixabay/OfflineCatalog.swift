import Foundation

/// One catalog photo: the hit the UI shows plus what the offline search
/// filters on (Pixabay computes these server-side; offline they are stored).
package struct CatalogEntry: Sendable, Equatable {
    /// URLs already resolved to absolute file:// URLs.
    package var hit: PixabayHit
    package var category: ImageCategory?
    package var colors: [ColorFilter]
    package var editorsChoice: Bool
    /// SPDX-ish licence of the original photo (full attribution in SOURCES.md).
    package var licence: String?
}

/// The `PixabaySource` used without an API key: real photos bundled with pxview
/// (Sources/Pixabay/Catalog, a SwiftPM resource), in Pixabay's response shape.
///
/// Search semantics (Pixabay's are server-side and undocumented, so this is
/// a deliberate choice): the query and every tag are split into lower-case
/// words (a trailing plural "s" dropped); a photo matches when ANY query word
/// equals one of its tag words, and photos matching more query words rank
/// first, then by `order` (popular: likes, latest: id descending). An empty
/// query matches everything. Filters apply where the data allows: image
/// type, orientation (from the original size; squares are neither
/// horizontal nor vertical), category, colours (any of), minimum size and
/// editors' choice. `lang` and `safesearch` change nothing (tags are English,
/// every photo is safe). Pages behave like Pixabay's: `totalHits` capped at
/// 500, a page past the last one is refused.
package struct OfflineCatalog: PixabaySource {
    package static let catalogFileName = "catalog.json"
    package static let environmentVariable = "PXVIEW_CATALOG"
    /// SwiftPM names the resource bundle `<package>_<target>.resources`.
    package static let resourceBundleName = "pxview_Pixabay.resources"

    package let directory: URL
    package let entries: [CatalogEntry]

    /// Loads `directory/catalog.json` and checks every file it names exists,
    /// so a broken install fails at start-up with the missing path, not later.
    package init(directory: URL) throws(PixabayError) {
        self.directory = directory.standardizedFileURL
        let jsonURL = self.directory.appendingPathComponent(Self.catalogFileName)
        guard let data = FileManager.default.contents(atPath: jsonURL.path) else {
            throw .catalog("cannot read \(jsonURL.path)")
        }
        let file: CatalogFile
        do {
            file = try decodeJSON(CatalogFile.self, from: [UInt8](data))
        } catch {
            throw .catalog("\(jsonURL.path): \(error)")
        }
        var entries: [CatalogEntry] = []
        for raw in file.hits {
            var hit = raw.hit
            hit.previewURL = try Self.resolve(hit.previewURL, in: self.directory, id: hit.id)
            hit.webformatURL = try Self.resolve(hit.webformatURL, in: self.directory, id: hit.id)
            hit.largeImageURL = try Self.resolve(hit.largeImageURL, in: self.directory, id: hit.id)
            entries.append(
                CatalogEntry(
                    hit: hit, category: raw.category, colors: raw.colors, editorsChoice: raw.editorsChoice,
                    licence: raw.licence))
        }
        self.entries = entries
    }

    /// A catalog-relative path ("web/cat.jpg") as a file:// URL inside `directory`.
    /// Absolute paths and ".." are refused: catalog.json may only name its own files.
    static func resolve(_ relative: String, in directory: URL, id: Int) throws(PixabayError) -> String {
        if relative.isEmpty { return "" }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !relative.contains("://"), !parts.contains(".."),
            !parts.contains("")
        else {
            throw .catalog("entry \(id): \"\(relative)\" is not a path inside the catalog folder")
        }
        let url = directory.appendingPathComponent(relative)
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .catalog("entry \(id): missing file \(url.path)")
        }
        return url.absoluteString
    }

    /// Where the bundled catalog is, first match wins:
    /// 1. `$PXVIEW_CATALOG` (explicit override; returned even if unusable so `init` can say why);
    /// 2. `Bundle.module`'s `Catalog` — only consulted when the resource bundle sits next to
    ///    the executable, because SwiftPM's generated accessor calls `fatalError` when it finds
    ///    no bundle at all (e.g. a binary copied elsewhere);
    /// 3. `<directory of the real executable>/pxview_Pixabay.resources/Catalog` (symlinks resolved);
    /// 4. the source tree's `Sources/Pixabay/Catalog` (development builds run from elsewhere).
    package static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        if let override = environment[environmentVariable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return candidateDirectories().first { hasCatalog($0) }
    }

    static func candidateDirectories() -> [URL] {
        var candidates: [URL] = []
        let besideMain = Bundle.main.bundleURL.appendingPathComponent(resourceBundleName)
        if FileManager.default.fileExists(atPath: besideMain.path),
            let viaBundle = Bundle.module.url(forResource: "Catalog", withExtension: nil)
        {
            candidates.append(viaBundle)
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(
                executable.deletingLastPathComponent().appendingPathComponent(resourceBundleName)
                    .appendingPathComponent("Catalog"))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Catalog"))
        return candidates
    }

    static func hasCatalog(_ directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(catalogFileName).path)
    }

    package var isOffline: Bool { true }

    /// Shown above offline results: these photos are not from Pixabay.
    package var note: String {
        "offline catalog: \(entries.count) photos bundled with pxview (not from Pixabay)"
    }

    package func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage {
        try page(for: query)
    }

    /// The synchronous core of `search`: filter, rank, paginate.
    package func page(for query: SearchQuery) throws(PixabayError) -> SearchPage {
        try query.validate()
        let wanted = Set(query.words.flatMap(Self.words(in:)))
        var ranked: [(entry: CatalogEntry, score: Int)] = []
        for entry in entries where passesFilters(entry, query) {
            let score = wanted.isEmpty ? 0 : wanted.intersection(Self.tagWords(entry.hit)).count
            if wanted.isEmpty || score > 0 { ranked.append((entry, score)) }
        }
        ranked.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            switch query.order {
            case .latest:
                return a.entry.hit.id > b.entry.hit.id
            case .popular:
                if a.entry.hit.likes != b.entry.hit.likes { return a.entry.hit.likes > b.entry.hit.likes }
                return a.entry.hit.id < b.entry.hit.id
            }
        }
        let totalHits = min(ranked.count, SearchQuery.maxReachableHits)
        let lastPage = SearchPage.pageCount(hits: totalHits, perPage: query.perPage)
        if query.page > max(lastPage, 1) {
            throw .pageOutOfRange(page: query.page, lastPage: lastPage)
        }
        let start = (query.page - 1) * query.perPage
        let end = min(start + query.perPage, totalHits)
        let hits = start < end ? ranked[start..<end].map(\.entry.hit) : []
        return SearchPage(
            response: PixabayResponse(total: ranked.count, totalHits: totalHits, hits: hits),
            page: query.page, perPage: query.perPage, note: note)
    }

    private func passesFilters(_ entry: CatalogEntry, _ query: SearchQuery) -> Bool {
        let hit = entry.hit
        switch query.imageType {
        case .all: break
        case .photo, .illustration: if hit.type != query.imageType.rawValue { return false }
        case .vector: if !hit.type.hasPrefix("vector") { return false }
        }
        switch query.orientation {
        case .all: break
        case .horizontal: if hit.imageWidth <= hit.imageHeight { return false }
        case .vertical: if hit.imageHeight <= hit.imageWidth { return false }
        }
        if let category = query.category, entry.category != category { return false }
        if !query.colors.isEmpty, !query.colors.contains(where: entry.colors.contains) { return false }
        if hit.imageWidth < query.minWidth || hit.imageHeight < query.minHeight { return false }
        if query.editorsChoice && !entry.editorsChoice { return false }
        return true
    }

    /// Lower-case words with a plural "s" dropped, so "flowers" finds "flower".
    static func words(in text: some StringProtocol) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { word in
            word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : String(word)
        }
    }

    static func tagWords(_ hit: PixabayHit) -> Set<String> {
        Set(words(in: hit.tags))
    }

    package func hit(id: Int) async throws(PixabayError) -> PixabayHit {
        guard let entry = entries.first(where: { $0.hit.id == id }) else { throw .notFound(id: id) }
        return entry.hit
    }

    /// Reads the file of the catalog's own copy of `hit` (looked up by id, so a
    /// hit saved by an older install, with stale file URLs, still works).
    /// The files are at most a few hundred KB: a plain read is fine here.
    package func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8] {
        guard let entry = entries.first(where: { $0.hit.id == hit.id }) else {
            throw .imageUnavailable(id: hit.id, detail: "not in the offline catalog")
        }
        let url = entry.hit.url(for: size)
        guard let fileURL = URL(string: url), fileURL.isFileURL,
            let data = FileManager.default.contents(atPath: fileURL.path), !data.isEmpty
        else {
            throw .imageUnavailable(id: hit.id, detail: "cannot read \(url)")
        }
        return [UInt8](data)
    }
}

/// catalog.json: Pixabay's response shape with offline-only keys per hit.
private struct CatalogFile: Decodable {
    var hits: [RawEntry]

    struct RawEntry: Decodable {
        var hit: PixabayHit
        var category: ImageCategory?
        var colors: [ColorFilter]
        var editorsChoice: Bool
        var licence: String?

        enum CodingKeys: String, CodingKey { case category, colors, editorsChoice, licence }

        init(from decoder: any Decoder) throws {
            hit = try PixabayHit(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            category = try c.decodeIfPresent(ImageCategory.self, forKey: .category)
            colors = try c.decodeIfPresent([ColorFilter].self, forKey: .colors) ?? []
            editorsChoice = try c.lenientBool(.editorsChoice) ?? false
            licence = try c.lenientString(.licence)
        }
    }
}
