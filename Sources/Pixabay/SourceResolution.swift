import Foundation
import HTTP

/// Printed once (to stderr) when pxview falls back to the bundled photos.
package let noAPIKeyHint =
    "pxview: offline catalog (set PIXABAY_API_KEY or use --api-key to search Pixabay)"

/// The source pxview will browse and the one-line hint to show about it, if any.
package struct ResolvedSource: Sendable {
    package var source: any PixabaySource
    package var hint: String?

    package init(source: any PixabaySource, hint: String?) {
        self.source = source
        self.hint = hint
    }
}

/// Online or offline, by one rule:
/// - `offline` forces the catalog (no hint: the user asked for it);
/// - a non-blank `apiKey` searches Pixabay (at `apiURL` when given);
/// - no key but an `apiURL` searches that server without a key (a local
///   stand-in for tests and demos);
/// - neither: the offline catalog, with `noAPIKeyHint`.
/// The catalog is loaded from `catalogDirectory` (see `OfflineCatalog.defaultDirectory`).
package func resolveSource(
    apiKey: String?, apiURL: String?, offline: Bool, fetcher: any HTTPFetching,
    catalogDirectory: URL? = OfflineCatalog.defaultDirectory(), imageCheck: ResponseCheck = .any
) throws(PixabayError) -> ResolvedSource {
    let key = apiKey?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let url = apiURL?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    if !offline && (!key.isEmpty || !url.isEmpty) {
        let client = PixabayClient(
            fetcher: fetcher, apiKey: key, baseURL: url.isEmpty ? PixabayClient.defaultBaseURL : url,
            imageCheck: imageCheck)
        return ResolvedSource(source: client, hint: nil)
    }
    guard let catalogDirectory else {
        throw .catalog(
            "no catalog folder found next to the executable; set \(OfflineCatalog.environmentVariable) to the Catalog folder")
    }
    let catalog = try OfflineCatalog(directory: catalogDirectory)
    return ResolvedSource(source: catalog, hint: offline ? nil : noAPIKeyHint)
}
