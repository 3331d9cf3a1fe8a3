/// Photos that are not Pixabay's: the files given to `pxview show` or the
/// images of a folder (`pxview show DIR`), as a `PixabaySource`, so the grid
/// browser and the viewer's `n`/`p` work on them exactly as on search
/// results. Each entry becomes a hit with id = its 1-based position, its
/// name as the tags and its byte size; the pixel size is learnt when its
/// thumbnail is decoded. A search keeps the names containing the text.
public struct ListSource: PixabaySource {
    public struct Entry: Sendable {
        /// What the grid and the viewer call it (a basename), sanitized by whoever prints it.
        public var name: String
        public var byteCount: Int
        public var load: @Sendable () async throws(PixabayError) -> [UInt8]

        public init(name: String, byteCount: Int, load: @escaping @Sendable () async throws(PixabayError) -> [UInt8]) {
            self.name = name
            self.byteCount = byteCount
            self.load = load
        }
    }

    /// The hit type that marks a local entry.
    public static let hitType = "local"
    public let entries: [Entry]
    public var isOffline: Bool { true }

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Every entry as a hit, in order.
    public var hits: [PixabayHit] { entries.indices.map(hit(at:)) }

    private func hit(at index: Int) -> PixabayHit {
        PixabayHit(id: index + 1, type: Self.hitType, tags: entries[index].name, imageSize: entries[index].byteCount)
    }

    public func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage {
        let text = query.q.lowercased()
        let matching = text.isEmpty ? hits : hits.filter { $0.tags.lowercased().contains(text) }
        // One page holds them all: a folder is listed in one go.
        return SearchPage(
            response: PixabayResponse(total: matching.count, totalHits: matching.count, hits: matching), page: 1,
            perPage: max(1, matching.count))
    }

    public func hit(id: Int) async throws(PixabayError) -> PixabayHit {
        guard entries.indices.contains(id - 1) else { throw .notFound(id: id) }
        return hit(at: id - 1)
    }

    public func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8] {
        guard entries.indices.contains(hit.id - 1) else { throw .notFound(id: hit.id) }
        return try await entries[hit.id - 1].load()
    }
}

extension PixabayHit {
    /// True for a file from `pxview show`, not a Pixabay photo.
    public var isLocal: Bool { type == ListSource.hitType }
}
