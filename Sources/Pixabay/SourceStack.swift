import Foundation
import HTTP
import Plumbing

/// Where photos should come from, as flags and environment decide it.
/// Flags win over the environment so one command can override a shell's setting.
package struct SourceSettings: Sendable, Equatable {
    package static let apiKeyVariable = "PIXABAY_API_KEY"
    package static let apiURLVariable = "PIXABAY_API_URL"
    /// Pixabay requires results to be cached for 24 hours.
    package static let cacheMaxAge: TimeInterval = 24 * 60 * 60

    package var apiKey: String?
    package var apiURL: String?
    package var offline: Bool
    /// False for `--no-cache`: neither read nor write the disk cache.
    package var useCache: Bool
    package var cacheDirectory: String

    package init(apiKey: String?, apiURL: String?, offline: Bool, useCache: Bool, cacheDirectory: String) {
        self.apiKey = apiKey
        self.apiURL = apiURL
        self.offline = offline
        self.useCache = useCache
        self.cacheDirectory = cacheDirectory
    }

    /// `--api-key` else `$PIXABAY_API_KEY`, `--api-url` else `$PIXABAY_API_URL`;
    /// the cache under `$XDG_CACHE_HOME` (see `DiskCache.defaultDirectory`).
    package init(
        apiKeyOption: String?, apiURLOption: String?, offline: Bool, noCache: Bool,
        environment: [String: String]
    ) {
        self.init(
            apiKey: apiKeyOption ?? environment[Self.apiKeyVariable],
            apiURL: apiURLOption ?? environment[Self.apiURLVariable],
            offline: offline, useCache: !noCache,
            cacheDirectory: DiskCache.defaultDirectory(environment: environment))
    }
}

/// A photo source with the HTTP layers pxview puts under it:
/// transport → disk cache (unless `--no-cache`) → progress reporting (when
/// asked) → stale-copy log → `PixabayClient`; or the offline catalog.
package struct SourceStack: Sendable {
    package let source: any PixabaySource
    /// The one-line note to print on stderr before anything else (`noAPIKeyHint`), if any.
    package let hint: String?
    /// Which answers were old cached copies served because the network failed.
    package let staleCopies: StaleCopyLog
    /// The disk cache in use; nil with `--no-cache`.
    package let cache: DiskCache?

    /// - Parameters:
    ///   - userAgent: sent with every request, e.g. `pxview/0.1.0`.
    ///   - progress: starts a progress display per request (downloads of photos); nil for none.
    ///   - transport: the bottom fetcher; a `CurlClient` when nil. Tests pass their own.
    ///   - imageCheck: what a downloaded image must pass to be used or cached (see `PixabayClient.imageCheck`).
    ///   - debugNote: told what the cache skipped (`PXVIEW_DEBUG`).
    package init(
        settings: SourceSettings, userAgent: String, progress: ProgressReportingFetcher.Start? = nil,
        transport: (any HTTPFetching)? = nil, cacheClock: @escaping @Sendable () -> Date = Date.init,
        catalogDirectory: URL? = OfflineCatalog.defaultDirectory(), imageCheck: ResponseCheck = .any,
        debugNote: (@Sendable (String) -> Void)? = nil
    ) throws(PixabayError) {
        var fetcher: any HTTPFetching = transport ?? CurlClient(userAgent: userAgent)
        var cache: DiskCache?
        if settings.useCache {
            var diskCache = DiskCache(directory: settings.cacheDirectory, now: cacheClock)
            diskCache.note = debugNote
            fetcher = CachingFetcher(wrapping: fetcher, cache: diskCache, maxAge: SourceSettings.cacheMaxAge)
            cache = diskCache
        }
        if let progress {
            fetcher = ProgressReportingFetcher(wrapping: fetcher, start: progress)
        }
        let log = StaleCopyLog(wrapping: fetcher)
        let resolved = try resolveSource(
            apiKey: settings.apiKey, apiURL: settings.apiURL, offline: settings.offline, fetcher: log,
            catalogDirectory: catalogDirectory, imageCheck: imageCheck)
        self.source = resolved.source
        self.hint = resolved.hint
        self.staleCopies = log
        self.cache = cache
    }

    /// The catalog's photo count when photos come from it (for the footer), else nil.
    package var offlineCatalogSize: Int? {
        (source as? OfflineCatalog)?.entries.count
    }
}

/// Passes requests through and remembers the oldest stale cached copy
/// served (see `CachingFetcher`), so the CLI can say once that results are
/// old instead of presenting them as fresh.
package final class StaleCopyLog: HTTPFetching, @unchecked Sendable {
    package let upstream: any HTTPFetching
    private let lock = Lock()
    private var oldestAge: TimeInterval?

    package init(wrapping upstream: any HTTPFetching) {
        self.upstream = upstream
    }

    /// Age in seconds of the oldest stale copy served so far; nil when every answer was fresh.
    package var oldestStaleAge: TimeInterval? {
        lock.lock()
        defer { lock.unlock() }
        return oldestAge
    }

    package func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await fetch(request, progress: nil)
    }

    package func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse {
        let response = try await upstream.fetch(request, progress: progress)
        if response.isStaleCacheCopy {
            record(age: response.headers["age"].flatMap(TimeInterval.init) ?? 0)
        }
        return response
    }

    private func record(age: TimeInterval) {
        lock.lock()
        oldestAge = max(oldestAge ?? 0, age)
        lock.unlock()
    }

    /// "network unavailable: showing cached results from 3 hours ago".
    package static func note(age: TimeInterval) -> String {
        "network unavailable: showing cached results from \(ageText(age))"
    }

    /// "40 seconds ago", "1 minute ago", "25 hours ago", "3 days ago": hours
    /// up to two days, since a 24-hour cache makes "1 day" too vague.
    static func ageText(_ age: TimeInterval) -> String {
        let seconds = max(0, Int(age))
        let (value, unit): (Int, String)
        switch seconds {
        case ..<60: (value, unit) = (seconds, "second")
        case ..<3600: (value, unit) = (seconds / 60, "minute")
        case ..<(48 * 3600): (value, unit) = (seconds / 3600, "hour")
        default: (value, unit) = (seconds / 86400, "day")
        }
        return "\(value) \(unit)\(value == 1 ? "" : "s") ago"
    }
}

/// Gives every single request its own progress display, started with the
/// last path component of the URL as the label (what is being downloaded).
package struct ProgressReportingFetcher: HTTPFetching {
    /// Starts a display for `label`; returns where to send `(received, total)`
    /// and what to call when the transfer ends either way.
    package typealias Start =
        @Sendable (_ label: String) -> (update: @Sendable (Int64, Int64?) -> Void, finish: @Sendable () -> Void)

    package let upstream: any HTTPFetching
    package let start: Start

    package init(wrapping upstream: any HTTPFetching, start: @escaping Start) {
        self.upstream = upstream
        self.start = start
    }

    package func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await fetch(request, progress: nil)
    }

    package func fetch(
        _ request: HTTPRequest, progress: (@Sendable (Int64, Int64?) -> Void)?
    ) async throws -> HTTPResponse {
        let drawing = start(Self.label(for: request.url))
        defer { drawing.finish() }
        return try await upstream.fetch(request) { received, total in
            drawing.update(received, total)
            progress?(received, total)
        }
    }

    /// `https://cdn.example/photo/x_640.jpg?key=…` -> `x_640.jpg`; the query
    /// (which may hold the key) is never part of the label.
    static func label(for url: String) -> String {
        let withoutQuery = url.prefix { $0 != "?" && $0 != "#" }
        let name = withoutQuery.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty || name.hasSuffix(":") ? "image" : name
    }
}
