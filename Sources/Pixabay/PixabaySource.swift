/// Where Pixabay hits come from: Pixabay itself (`PixabayClient`) or the
/// bundled `OfflineCatalog` (shaped as hits). The commands that speak in
/// hits (`search`, `open`, `save`) talk to this and never need to know which.
package protocol PixabaySource: Sendable {
    /// One page of results for a validated query.
    func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage
    /// One image by id; `.notFound(id:)` when there is none.
    func hit(id: Int) async throws(PixabayError) -> PixabayHit
    /// The encoded bytes (any format of the codec table: sniff, do not trust extensions) of one rendition.
    func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8]
    /// True for the bundled catalog, so the UI can say the photos are not from Pixabay.
    var isOffline: Bool { get }
}

/// A response plus where it sits in the result list.
package struct SearchPage: Sendable, Equatable {
    package var response: PixabayResponse
    /// 1-based.
    package var page: Int
    package var perPage: Int
    /// Shown above results: "offline catalog…", "cached…". Nil for a fresh Pixabay answer.
    package var note: String?

    package init(response: PixabayResponse, page: Int, perPage: Int, note: String? = nil) {
        self.response = response
        self.page = page
        self.perPage = perPage
        self.note = note
    }

    package var hits: [PixabayHit] { response.hits }

    /// ceil(totalHits / perPage); 0 when nothing matched.
    package var totalPages: Int {
        Self.pageCount(hits: response.totalHits, perPage: perPage)
    }

    package var hasNextPage: Bool { page < totalPages }

    static func pageCount(hits: Int, perPage: Int) -> Int {
        guard perPage > 0, hits > 0 else { return 0 }
        return (hits + perPage - 1) / perPage
    }
}
