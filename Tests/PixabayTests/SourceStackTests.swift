import Testing

@testable import Pixabay

/// Where photos come from: settings, the stack built from them, and its
/// notes (stale copies, progress labels).
@Suite struct SourceStackTests {
    @Test func settingsPreferFlagsOverTheEnvironment() {
        let environment = [
            "PIXABAY_API_KEY": "env-key", "PIXABAY_API_URL": "http://env/api/", "XDG_CACHE_HOME": "/x/cache",
        ]
        let fromEnvironment = SourceSettings(
            apiKeyOption: nil, apiURLOption: nil, offline: false, noCache: false, environment: environment)
        #expect(
            fromEnvironment
                == SourceSettings(
                    apiKey: "env-key", apiURL: "http://env/api/", offline: false, useCache: true,
                    cacheDirectory: "/x/cache/pxview"))
        let fromFlags = SourceSettings(
            apiKeyOption: "flag-key", apiURLOption: "http://flag/api/", offline: true, noCache: true,
            environment: environment)
        #expect(fromFlags.apiKey == "flag-key" && fromFlags.apiURL == "http://flag/api/")
        #expect(fromFlags.offline && !fromFlags.useCache)
    }

    @Test func stackWithoutKeyIsTheCatalogWithTheHint() throws {
        let settings = SourceSettings(apiKey: nil, apiURL: nil, offline: false, useCache: false, cacheDirectory: "/unused")
        let stack = try SourceStack(
            settings: settings, userAgent: "t", transport: FakeFetcher(status: 500, body: ""),
            catalogDirectory: OfflineCatalog.defaultDirectory(environment: [:]))
        #expect(stack.hint == noAPIKeyHint)
        #expect(stack.source.isOffline)
        #expect(stack.cache == nil)
        #expect(stack.offlineCatalogSize == 15)  // the 15 photos shipped in Sources/Pixabay/Catalog
    }

    @Test func staleAgesReadNaturally() {
        #expect(StaleCopyLog.ageText(1) == "1 second ago")
        #expect(StaleCopyLog.ageText(125) == "2 minutes ago")
        #expect(StaleCopyLog.ageText(25 * 3600 + 5) == "25 hours ago")
        #expect(StaleCopyLog.ageText(5 * 86400) == "5 days ago")
    }

    @Test func progressLabelsNeverIncludeTheQuery() {
        #expect(ProgressReportingFetcher.label(for: "https://cdn.pixabay.com/photo/x_1280.jpg?key=abc") == "x_1280.jpg")
        #expect(ProgressReportingFetcher.label(for: "https://pixabay.com/api/?key=abc&id=1") == "api")
        #expect(ProgressReportingFetcher.label(for: "https://host") == "host")
        #expect(ProgressReportingFetcher.label(for: "") == "image")
    }
}
