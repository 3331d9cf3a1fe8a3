import Foundation

/// What a list of results says, independent of how it is laid out.
///
/// The texts here are raw: tags and user names come from Pixabay (or a
/// favourites file) and are untrusted. Whoever prints them must sanitize
/// them for the terminal first; this module cannot, since it does not
/// depend on Terminal.
package enum ResultsListing {
    /// Column titles of the search results table.
    package static let searchHeaders = ["ID", "SIZE", "USER", "LIKES", "TAGS"]
    /// Column titles of the favourites table: the search's, plus when it was saved.
    package static let favouriteHeaders = ["ID", "SIZE", "USER", "LIKES", "ADDED", "TAGS"]
    /// Columns holding numbers, right-aligned so digits line up.
    package static let searchNumericColumns: Set<Int> = [0, 3]
    package static let favouriteNumericColumns: Set<Int> = [0, 3]

    /// Pixabay asks that results always say where they are from.
    package static let attribution = "Images from Pixabay"

    /// One row of the search table, in `searchHeaders` order.
    package static func searchRow(for hit: PixabayHit) -> [String] {
        [String(hit.id), sizeText(hit), hit.user, String(hit.likes), hit.tagList.joined(separator: ", ")]
    }

    /// One row of the favourites table, in `favouriteHeaders` order.
    package static func favouriteRow(for entry: FavouriteEntry) -> [String] {
        [
            String(entry.id), sizeText(entry.hit), entry.user, String(entry.likes), dayText(entry.added),
            entry.hit.tagList.joined(separator: ", "),
        ]
    }

    /// "4000x2250", or "?" when the server left the size out.
    static func sizeText(_ hit: PixabayHit) -> String {
        hit.imageWidth > 0 && hit.imageHeight > 0 ? "\(hit.imageWidth)x\(hit.imageHeight)" : "?"
    }

    /// "2025-11-30" in UTC: a day is enough to recognise a favourite.
    static func dayText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// "page 2 of 25, 500 hits · Images from Pixabay". Offline photos are not
    /// Pixabay's, so the catalog says what it is instead:
    /// "page 1 of 1, 15 hits · offline catalog (15 photos, see SOURCES.md)".
    /// - Parameter offlineCatalogSize: the catalog's photo count when the page came from it.
    package static func footer(for page: SearchPage, offlineCatalogSize: Int?) -> String {
        let hits = page.response.totalHits
        let position =
            hits == 0
            ? "no hits"
            : "page \(page.page) of \(page.totalPages), \(hits) \(hits == 1 ? "hit" : "hits")"
        let origin = offlineCatalogSize.map { "offline catalog (\($0) photos, see SOURCES.md)" } ?? attribution
        return "\(position) · \(origin)"
    }

    /// Pixabay-shaped JSON (`total`, `totalHits`, `hits`) with sorted keys,
    /// safe to print to a terminal: JSON already escapes C0 controls, and
    /// this also escapes DEL, C1 controls and bidirectional overrides as
    /// `\uXXXX` (they can only occur inside strings, so the JSON stays
    /// equivalent) so a hostile tag cannot reorder or steer what is shown.
    package static func json(_ response: PixabayResponse) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // PixabayResponse holds only strings, numbers and booleans: encoding cannot fail.
        let data = (try? encoder.encode(response)) ?? Data(#"{"hits":[],"total":0,"totalHits":0}"#.utf8)
        return escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }

    static func escapingTerminalControls(_ json: String) -> [UInt8] {
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += String(format: "\\u%04X", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return Array(out.utf8)
    }
}
