import Foundation
import Photos
import Pixabay

/// The favourites as the explorer uses them: one locked step per change
/// (another pxview's change in between is kept), and a problem with the
/// file said in a few words for the status line.
struct ExplorerFavourites {
    let store: FavouritesStore?

    /// The ids kept, for the grid's marks.
    func ids() throws -> Set<Int> {
        Set(try store?.list().map(\.id) ?? [])
    }

    /// Adds or removes `hit`: its new state, or the error's text.
    func toggle(_ hit: PixabayHit) -> Result<Bool, ExplorerMessage>? {
        guard let store else { return nil }
        do {
            return .success(try store.toggle(hit))
        } catch {
            return .failure(ExplorerMessage(text: "\(error)"))
        }
    }

    /// Whether `hit` is a favourite.
    func contains(_ hit: PixabayHit) throws -> Bool {
        try store?.contains(id: hit.id) ?? false
    }

    /// Every favourite, newest last.
    func list() throws -> [PixabayHit]? {
        try store?.list().map(\.hit)
    }

    /// A favourites file that could not be used, in a few words for the status line.
    static func problem(_ error: any Error) -> String {
        if case PixabayError.corruptFavourites(_, let movedTo) = error {
            return "favourites file was corrupt: kept as \((movedTo as NSString).lastPathComponent), a new list starts"
        }
        return "\(error)"
    }
}

/// A line for the status line, as an error.
struct ExplorerMessage: Error {
    var text: String
}

/// The photos `n`/`p` step through when the viewer was opened on files
/// given to `show` (not from the grid).
struct PhotoSequence {
    var photos: [Photo] = []
    var index = 0

    init(_ photos: [Photo] = [], showing photo: Photo? = nil) {
        self.photos = photos
        index = photo.flatMap { shown in photos.firstIndex { $0.id == shown.id } } ?? 0
    }

    /// The shown photo gone (to the trash): the one after it is shown
    /// next, or the one before at the end; nil when none is left.
    mutating func removeShown() -> Photo? {
        guard photos.indices.contains(index) else { return nil }
        photos.remove(at: index)
        if index >= photos.count { index = photos.count - 1 }
        return photos.indices.contains(index) ? photos[index] : nil
    }

    /// Whether a photo follows the one shown.
    var hasNext: Bool { index + 1 < photos.count }

    /// The photo `delta` away, or what to say at either end.
    mutating func step(by delta: Int) -> Result<Photo, ExplorerMessage> {
        guard photos.count > 1 else { return .failure(ExplorerMessage(text: "this is the only photo")) }
        let target = index + delta
        guard photos.indices.contains(target) else {
            return .failure(ExplorerMessage(text: delta > 0 ? "this is the last photo" : "this is the first photo"))
        }
        index = target
        return .success(photos[target])
    }
}
