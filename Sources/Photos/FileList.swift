import Pixabay

/// The files given to `pxview show`, or the images of a folder
/// (`pxview show DIR`), as a `PhotoSource`: the grid and the viewer's
/// `n`/`p` work on them as on search results. Photo `id` is the entry's
/// 1-based place; a search keeps the names containing its text, all on
/// one page (a folder is listed in one go).
package struct FileList: PhotoSource {
    package struct Entry: Sendable {
        package var file: LocalFile
        /// Reads the whole file (or fetches the URL given).
        package var load: @Sendable () async throws(LocalFileError) -> [UInt8]

        package init(file: LocalFile, load: @escaping @Sendable () async throws(LocalFileError) -> [UInt8]) {
            self.file = file
            self.load = load
        }
    }

    package let entries: [Entry]
    package var isOffline: Bool { true }

    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// Every entry as a photo, in order.
    package var photos: [Photo] { entries.indices.map { Photo(id: $0 + 1, file: entries[$0].file) } }

    package func photos(for query: SearchQuery) async throws -> PhotoPage {
        let text = query.q.lowercased()
        let matching = text.isEmpty ? photos : photos.filter { entries[$0.id - 1].file.name.lowercased().contains(text) }
        return PhotoPage(photos: matching, totalHits: matching.count, page: 1, totalPages: matching.isEmpty ? 0 : 1)
    }

    package func bytes(of photo: Photo, size: ImageSize) async throws -> [UInt8] {
        guard entries.indices.contains(photo.id - 1) else {
            throw LocalFileError(name: photo.title, reason: "not among the files given")
        }
        return try await entries[photo.id - 1].load()
    }
}
