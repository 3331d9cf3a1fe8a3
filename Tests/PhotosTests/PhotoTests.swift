import Pixabay
import Pixels
import Testing

@testable import Photos

/// A Pixabay hit with every field the photo's answers read.
func pixabayHit(_ id: Int, width: Int = 1920, height: Int = 1280) -> PixabayHit {
    PixabayHit(
        id: id, type: "photo", tags: "storm, sea", imageWidth: width, imageHeight: height, imageSize: 2_516_582, likes: 12,
        user: "Zoë")
}

func localFile(_ name: String, bytes: Int = 2_516_582) -> LocalFile {
    LocalFile(name: name, byteCount: bytes)
}

@Suite struct PhotoTests {
    /// A Pixabay (or offline catalog) photo: `#ID`, no line under its tile,
    /// Pixabay's details, saved as `pixabay-ID`, a favourite if wanted.
    @Test func aPixabayPhotoAnswersAsPixabays() {
        let photo = Photo(hit: pixabayHit(42))
        #expect(photo.id == 42)
        #expect(photo.title == "#42")
        #expect(photo.label == nil)
        #expect(photo.details(isFavourite: false, frames: nil) == ("#42  1920x1280  by Zoë  ♥ 12", "tags: storm, sea"))
        // Frames are a folder's business: a Pixabay tile's animation is marked on the tile alone.
        #expect(photo.details(isFavourite: true, frames: 3) == ("#42  1920x1280  by Zoë  ♥ 12  ★ favourite", "tags: storm, sea"))
        #expect(photo.saveStem == "pixabay-42")
        #expect(photo.isFavouritable)
        #expect(photo.pixabayHit == pixabayHit(42))
        #expect(photo.pixelSize == PixelSize(width: 1920, height: 1280))
        #expect(photo.byteCount == 2_516_582)
        #expect(photo.hasRenditions)
    }

    /// A file: its name is its title and its label, its details are the
    /// name (plus what its thumbnail taught) and its byte size, it saves as
    /// `pxview-NAME`, and it is never a favourite.
    @Test func aLocalFileAnswersAsAFile() {
        var photo = Photo(id: 3, file: localFile("IMG_0042.heic"))
        #expect(photo.id == 3)
        #expect(photo.title == "IMG_0042.heic")
        #expect(photo.label == "IMG_0042.heic")
        #expect(photo.details(isFavourite: false, frames: nil) == ("IMG_0042.heic", "2.4 MB"))
        #expect(photo.saveStem == "pxview-IMG_0042")
        #expect(!photo.isFavouritable && photo.pixabayHit == nil)
        #expect(photo.pixelSize == nil)
        #expect(photo.byteCount == 2_516_582)
        #expect(!photo.hasRenditions)
        photo.learn(pixelSize: PixelSize(width: 640, height: 427))
        #expect(photo.pixelSize == PixelSize(width: 640, height: 427))
        #expect(photo.details(isFavourite: true, frames: 12) == ("IMG_0042.heic  640x427  12 frames", "2.4 MB"))
        // The first size learnt stays (a later, smaller decode says nothing new).
        photo.learn(pixelSize: PixelSize(width: 64, height: 43))
        #expect(photo.pixelSize == PixelSize(width: 640, height: 427))
    }

    /// A URL given to `show` is a file of unknown byte size, saved under
    /// its last path component.
    @Test func aURLGivenToShowIsAFileOfUnknownSize() {
        let photo = Photo(id: 1, file: localFile("https://example.com/a/sunset.webp", bytes: 0))
        #expect(photo.byteCount == nil)
        #expect(photo.details(isFavourite: false, frames: nil) == ("https://example.com/a/sunset.webp", ""))
        #expect(photo.saveStem == "pxview-sunset")
    }

    /// Only a file learns its size from its thumbnail: a Pixabay tile is a
    /// smaller rendition (a 150-px preview once gave a photo Pixabay sent
    /// without a size the preview's 150x100 in the details).
    @Test func aPixabayPhotoDoesNotTakeItsThumbnailsSize() {
        var photo = Photo(hit: pixabayHit(7, width: 0, height: 0))
        #expect(photo.pixelSize == nil)
        photo.learn(pixelSize: PixelSize(width: 150, height: 100))
        #expect(photo.pixelSize == nil)
        #expect(photo.details(isFavourite: false, frames: nil).0 == "#7  0x0  by Zoë  ♥ 12")
    }

    /// The guard of issue 21: whatever a file is called, and whatever its
    /// place in the list, it can never be a favourite (favourites.json
    /// holds Pixabay photos) nor be saved under a Pixabay photo's name.
    @Test func aLocalFileIsNeverFavouritableNorSavedAsPixabays() {
        let names = ["pixabay-42.jpg", "#42", "42", "photo", "", ".jpg", "a.b.c.png", "été ☕.gif", "https://x/pixabay-1.jpg"]
        for (index, name) in names.enumerated() {
            let photo = Photo(id: index + 1, file: localFile(name))
            #expect(!photo.isFavouritable, "\(name)")
            #expect(photo.pixabayHit == nil, "\(name)")
            #expect(photo.saveStem.hasPrefix("pxview-"), "\(name): \(photo.saveStem)")
            #expect(!photo.saveStem.hasPrefix("pixabay-"), "\(name)")
        }
        // And a Pixabay photo is never saved as a file's.
        #expect(Photo(hit: pixabayHit(1)).saveStem.hasPrefix("pixabay-"))
    }

    /// A file that cannot be read says so in one line naming it.
    @Test func aLocalFileErrorNamesTheFile() {
        #expect("\(LocalFileError(name: "a.jpg", reason: "no such file"))" == "cannot read a.jpg: no such file")
    }
}

@Suite struct FileListTests {
    func list(_ names: [String]) -> FileList {
        FileList(
            entries: names.map { name in
                FileList.Entry(file: localFile(name, bytes: name.count)) { () async throws(LocalFileError) in
                    guard name != "gone.jpg" else { throw LocalFileError(name: name, reason: "no such file") }
                    return Array(name.utf8)
                }
            })
    }

    /// Each entry is a photo numbered from 1; a search keeps the names
    /// containing its text, whatever the case, all on one page.
    @Test func filesArePhotosAndASearchFiltersTheirNames() async throws {
        let files = list(["Beach.jpg", "cat.png", "beachball.gif"])
        #expect(files.photos.map(\.id) == [1, 2, 3])
        #expect(files.photos.map(\.title) == ["Beach.jpg", "cat.png", "beachball.gif"])
        #expect(files.isOffline)
        let all = try await files.photos(for: SearchQuery(q: ""))
        #expect(all == PhotoPage(photos: files.photos, totalHits: 3, page: 1, totalPages: 1))
        let beach = try await files.photos(for: SearchQuery(q: "BEACH"))
        #expect(beach.photos.map(\.id) == [1, 3] && beach.totalHits == 2 && beach.totalPages == 1)
        let none = try await files.photos(for: SearchQuery(q: "dog"))
        #expect(none.photos.isEmpty && none.totalHits == 0 && none.totalPages == 0)
    }

    /// A photo's bytes are its entry's; a file that cannot be read throws
    /// its own error, not a Pixabay one.
    @Test func bytesComeFromTheEntryAndFailuresNameTheFile() async throws {
        let files = list(["a.jpg", "gone.jpg"])
        #expect(try await files.bytes(of: files.photos[0], size: .large) == Array("a.jpg".utf8))
        await #expect(throws: LocalFileError(name: "gone.jpg", reason: "no such file")) {
            try await files.bytes(of: files.photos[1], size: .preview)
        }
        await #expect(throws: LocalFileError(name: "#9", reason: "not among the files given")) {
            try await files.bytes(of: Photo(hit: pixabayHit(9)), size: .preview)
        }
    }
}

/// A `PixabaySource` answering one page and recording the renditions asked for.
private struct OnePageSource: PixabaySource {
    let page: SearchPage
    var isOffline: Bool { false }
    func search(_ query: SearchQuery) async throws(PixabayError) -> SearchPage { page }
    func hit(id: Int) async throws(PixabayError) -> PixabayHit { throw .notFound(id: id) }
    func imageBytes(for hit: PixabayHit, size: ImageSize) async throws(PixabayError) -> [UInt8] {
        Array("\(hit.id) \(size.rawValue)".utf8)
    }
}

@Suite struct PixabayPhotosTests {
    /// A search page's hits become photos, its counts and note kept.
    @Test func aSearchPageBecomesAPageOfPhotos() async throws {
        let hits = [pixabayHit(5), pixabayHit(6)]
        let page = SearchPage(
            response: PixabayResponse(total: 900, totalHits: 173, hits: hits), page: 3, perPage: 2, note: "cached")
        let source = PixabayPhotos(OnePageSource(page: page))
        #expect(!source.isOffline)
        let photos = try await source.photos(for: SearchQuery(q: "sea"))
        #expect(photos == PhotoPage(photos: hits.map(Photo.init(hit:)), totalHits: 173, page: 3, totalPages: 87, note: "cached"))
    }

    /// The rendition asked for is the hit's; a file is not Pixabay's to fetch.
    @Test func bytesAreTheHitsRendition() async throws {
        let source = PixabayPhotos(
            OnePageSource(page: SearchPage(response: PixabayResponse(total: 0, totalHits: 0, hits: []), page: 1, perPage: 20)))
        #expect(try await source.bytes(of: Photo(hit: pixabayHit(5)), size: .web) == Array("5 web".utf8))
        await #expect(throws: PixabayError.imageUnavailable(id: 2, detail: "not a Pixabay photo")) {
            try await source.bytes(of: Photo(id: 2, file: localFile("a.jpg")), size: .web)
        }
    }

    /// The bundled catalog's photos are Pixabay-shaped: `#ID`, favourites, `pixabay-ID`.
    @Test func theOfflineCatalogsPhotosAreFavouritable() async throws {
        let catalog = try OfflineCatalog(directory: try #require(OfflineCatalog.defaultDirectory(environment: [:])))
        let page = try await PixabayPhotos(catalog).photos(for: SearchQuery(q: ""))
        #expect(page.photos.count == 15)
        for photo in page.photos {
            #expect(photo.isFavouritable && photo.title == "#\(photo.id)" && photo.saveStem == "pixabay-\(photo.id)")
        }
    }
}
