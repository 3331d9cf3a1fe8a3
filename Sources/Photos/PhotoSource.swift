import Pixabay

/// Where the explorer's photos come from: Pixabay or the offline catalog
/// (`PixabayPhotos`), or the files given to `pxview show` (`FileList`).
/// The grid and the viewer talk to this alone and ask each photo what it is.
package protocol PhotoSource: Sendable {
    /// One page of photos for `query` (its text, its filters, its page).
    func photos(for query: SearchQuery) async throws -> PhotoPage
    /// The encoded bytes of `photo` (any format of the codec table: sniff,
    /// do not trust extensions): the rendition `size` where there are
    /// several, else the file itself. A file that cannot be read throws a
    /// `LocalFileError`, which names it.
    func bytes(of photo: Photo, size: ImageSize) async throws -> [UInt8]
    /// True for the bundled catalog and local files, so the grid never
    /// says its photos are Pixabay's.
    var isOffline: Bool { get }
}

/// One page of photos and where it sits among all that matched.
package struct PhotoPage: Sendable, Equatable {
    package var photos: [Photo]
    /// How many photos can be paged through (Pixabay's `totalHits`).
    package var totalHits: Int
    /// 1-based.
    package var page: Int
    /// 0 when nothing matched.
    package var totalPages: Int
    /// Shown on the status line: "offline catalog…", "cached…"; nil for a fresh Pixabay answer.
    package var note: String?

    package init(photos: [Photo], totalHits: Int, page: Int, totalPages: Int, note: String? = nil) {
        self.photos = photos
        self.totalHits = totalHits
        self.page = page
        self.totalPages = totalPages
        self.note = note
    }
}
