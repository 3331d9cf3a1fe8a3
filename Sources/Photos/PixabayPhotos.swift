import Pixabay

/// Pixabay or the offline catalog as a `PhotoSource`: each page's hits
/// become photos; its errors stay `PixabayError`s.
package struct PixabayPhotos: PhotoSource {
    package let source: any PixabaySource

    package init(_ source: any PixabaySource) {
        self.source = source
    }

    package var isOffline: Bool { source.isOffline }

    package func photos(for query: SearchQuery) async throws -> PhotoPage {
        let page = try await source.search(query)
        return PhotoPage(
            photos: page.hits.map(Photo.init(hit:)), totalHits: page.response.totalHits, page: page.page,
            totalPages: page.totalPages, note: page.note)
    }

    package func bytes(of photo: Photo, size: ImageSize) async throws -> [UInt8] {
        guard let hit = photo.pixabayHit else {
            throw PixabayError.imageUnavailable(id: photo.id, detail: "not a Pixabay photo")
        }
        return try await source.imageBytes(for: hit, size: size)
    }
}
