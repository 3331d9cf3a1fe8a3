import Foundation
import Pixabay
import Pixels
import Plumbing

/// One photo as the explorer knows it, whatever it came from: the grid's
/// labels and details, the viewer's title, `s`'s file name and whether
/// it can be a favourite are each asked of the photo, never worked out
/// from a magic type string (local files were once hits of type "local").
///
/// A new kind of photo (a file manager's preview, say) is a new `Origin`
/// case: every answer below switches over the origins, so the compiler
/// lists each one it must give.
package struct Photo: Sendable, Equatable, Identifiable {
    /// Where a photo comes from, with what that source knows about it.
    package enum Origin: Sendable, Equatable {
        /// A Pixabay hit: from Pixabay itself or the bundled offline
        /// catalog, whose entries are shaped as hits.
        case pixabay(PixabayHit)
        /// A file given to `pxview show` or found in its folder.
        case file(LocalFile)
    }

    /// Unique among the photos of one source: a Pixabay id, or a file's
    /// 1-based place in its list. Tiles, thumbnails and the selection are
    /// keyed by it.
    package let id: Int
    package private(set) var origin: Origin

    /// A Pixabay (or offline catalog) photo: its id is the hit's.
    package init(hit: PixabayHit) {
        id = hit.id
        origin = .pixabay(hit)
    }

    /// A local file, `id` its place in its list.
    package init(id: Int, file: LocalFile) {
        self.id = id
        origin = .file(file)
    }

    /// The Pixabay hit behind the photo, nil for any other. Favourites keep
    /// hits (favourites.json holds Pixabay's fields), so only these can be one.
    package var pixabayHit: PixabayHit? {
        if case .pixabay(let hit) = origin { return hit }
        return nil
    }

    /// Where a user finds it again: a Pixabay photo's page, a file's
    /// absolute path or the URL it came from (`y` copies it).
    package var link: [UInt8]? {
        switch origin {
        case .pixabay(let hit): return hit.pageURL.isEmpty ? nil : Array(hit.pageURL.utf8)
        case .file(let file): return file.location
        }
    }

    /// True when `f` and `*` may add it to the favourites: Pixabay photos only.
    package var isFavouritable: Bool { pixabayHit != nil }

    /// What the viewer calls it and says while it loads: `#ID` for a
    /// Pixabay photo, a file's name.
    package var title: String {
        switch origin {
        case .pixabay(let hit): return "#\(hit.id)"
        case .file(let file): return file.name
        }
    }

    /// The line under its tile in a folder's grid: a file's name; nil for
    /// a Pixabay photo, whose tags are in the details instead.
    package var label: String? {
        switch origin {
        case .pixabay: return nil
        case .file(let file): return file.name
        }
    }

    /// Its pixel size, nil while unknown (a file until its thumbnail is
    /// decoded; a hit Pixabay sent without one).
    package var pixelSize: PixelSize? {
        switch origin {
        case .pixabay(let hit):
            return hit.imageWidth > 0 && hit.imageHeight > 0 ? PixelSize(width: hit.imageWidth, height: hit.imageHeight) : nil
        case .file(let file): return file.pixelSize
        }
    }

    /// The size of its file in bytes, nil when unknown (a URL given to
    /// `show`; a hit without `imageSize`).
    package var byteCount: Int? {
        switch origin {
        case .pixabay(let hit): return hit.imageSize > 0 ? hit.imageSize : nil
        case .file(let file): return file.byteCount > 0 ? file.byteCount : nil
        }
    }

    /// The grid's two detail lines for the selected photo. A Pixabay photo:
    /// `#ID  WxH  by USER  ♥ LIKES` (and `★ favourite` when `isFavourite`),
    /// then its tags; a file: its name, pixel size once known and `frames`
    /// when animated, then its byte size.
    package func details(isFavourite: Bool, frames: Int?) -> (String, String) {
        switch origin {
        case .pixabay(let hit):
            let favourite = isFavourite ? "  ★ favourite" : ""
            return (
                "#\(hit.id)  \(hit.imageWidth)x\(hit.imageHeight)  by \(hit.user)  ♥ \(hit.likes)\(favourite)",
                "tags: \(hit.tags)"
            )
        case .file(let file):
            let size = file.pixelSize.map { "  \($0)" } ?? ""
            let animation = frames.map { "  \($0) frames" } ?? ""
            return ("\(file.name)\(size)\(animation)", byteCount.map(ByteSize.text) ?? "")
        }
    }

    /// The file name `s` saves it under, before the number a taken name
    /// gets and the extension its bytes say: `pixabay-ID` for a Pixabay
    /// photo, `pxview-NAME` for a file (its name without folder or
    /// extension), so a file is never saved under a Pixabay photo's name.
    package var saveStem: String {
        switch origin {
        case .pixabay(let hit): return "pixabay-\(hit.id)"
        case .file(let file): return "pxview-" + ((file.name as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }

    /// True when its tile is made from a small rendition of several
    /// (Pixabay's preview or web size), which is refused past the
    /// thumbnail limit; a file is its own only rendition, decoded to the
    /// tile size under the usual limit.
    package var hasRenditions: Bool {
        switch origin {
        case .pixabay: return true
        case .file: return false
        }
    }

    /// Notes the pixel size its decoded thumbnail found. Only a file learns
    /// it: a Pixabay tile is a smaller rendition, whose size is not the photo's.
    package mutating func learn(pixelSize: PixelSize) {
        guard case .file(var file) = origin, file.pixelSize == nil else { return }
        file.pixelSize = pixelSize
        origin = .file(file)
    }
}

/// What is known of a local file without reading it: its name (a
/// basename, or the URL typed, sanitized by whoever made it), its byte
/// size (0 for a URL) and, once its thumbnail was decoded, its pixel size.
package struct LocalFile: Sendable, Equatable {
    package var name: String
    package var byteCount: Int
    package var pixelSize: PixelSize?
    /// Where it is: an absolute path (as argv's bytes, which need not be
    /// UTF-8) or the URL given; nil when not known. What `y` copies.
    package var location: [UInt8]?

    package init(name: String, byteCount: Int, pixelSize: PixelSize? = nil, location: [UInt8]? = nil) {
        self.name = name
        self.byteCount = byteCount
        self.pixelSize = pixelSize
        self.location = location
    }
}

/// A local file that could not be read: one line naming it,
/// `cannot read NAME: REASON`, already fit for a terminal.
package struct LocalFileError: Error, Equatable, Sendable, CustomStringConvertible {
    package var name: String
    package var reason: String

    package init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    package var description: String { "cannot read \(name): \(reason)" }
}
