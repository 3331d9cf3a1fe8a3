import Foundation
import HTTP
import Pixabay
import Terminal
import TestSupport
import Testing

@Suite struct CLISearchTests {
    @Test func offlineSearchPrintsEveryCatalogPhotoInAnAlignedTable() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["search"])
        #expect(result.status == 0)
        #expect(result.err == noAPIKeyHint + "\n")
        let lines = result.outLines
        #expect(lines.first == "     ID  SIZE       USER                      LIKES  TAGS")
        #expect(lines.last == "page 1 of 1, 15 hits · offline catalog (15 photos, see SOURCES.md)")
        let catalog = try sourceCatalog()
        let rows = lines.dropFirst().dropLast()
        #expect(rows.count == catalog.entries.count)
        #expect(Set(rows.compactMap { Int($0.split(separator: " ").first ?? "") }) == Set(catalog.entries.map(\.hit.id)))
        // Columns line up by cells: the SIZE column starts at the same place on every line.
        let sizeColumn = TerminalText.displayWidth("     ID  ")
        for row in rows {
            let prefix = String(row.prefix(sizeColumn))
            #expect(TerminalText.displayWidth(prefix) == sizeColumn && prefix.hasSuffix("  "))
            #expect(TerminalText.displayWidth(row) <= 100)
        }
    }

    @Test func narrowOutputTruncatesTagsWithAnEllipsis() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["--offline", "search", "flower", "--per-page", "3"], environment: ["COLUMNS": "60"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)  // --offline: the user asked, so no hint
        let rows = result.outLines.dropFirst().dropLast()
        #expect(rows.count == 3)
        for row in rows {
            #expect(TerminalText.displayWidth(row) == 60)
            #expect(row.hasSuffix("…"))
        }
        #expect(result.outLines.last == "page 1 of 1, 3 hits · offline catalog (15 photos, see SOURCES.md)")
    }

    @Test func jsonIsValidPixabayShapedAndAlone() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["search", "--offline", "--json", "--per-page", "5", "--page", "2"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(object["totalHits"] as? Int == 15)
        #expect(object["total"] as? Int == 15)
        let hits = try #require(object["hits"] as? [[String: Any]])
        #expect(hits.count == 5)
        let decoded = try PixabayResponse.decode(from: result.stdout)
        #expect(decoded.hits.count == 5)
    }

    static let colorChoices = ColorFilter.allCases.map(\.rawValue).joined(separator: ", ")
    static let invalidFilters: [([String], String)] = [
        (["--per-page", "500"], "--per-page must be between 3 and 200 (got 500)"),
        (["--per-page", "2"], "--per-page must be between 3 and 200 (got 2)"),
        (["--type", "gif"], #"--type must be one of: all, photo, illustration, vector (got "gif")"#),
        (["--orientation", "diagonal"], #"--orientation must be one of: all, horizontal, vertical (got "diagonal")"#),
        (["--order", "random"], #"--order must be one of: popular, latest (got "random")"#),
        (["--colors", "red,plaid"], #"--colors must be one of: \#(colorChoices) (got "plaid")"#),
        (["--min-width", "wide"], "--min-width expects a whole number (got 'wide')"),
        (["--min-height", "-5"], "--min-height must be 0 or more (got -5)"),
        (["--page", "0"], "--page must be 1 or more (got 0)"),
        ([String(repeating: "q", count: 101)], "the query must be at most 100 characters (got 101)"),
    ]

    @Test(arguments: invalidFilters)
    func invalidValuesAreRefusedBeforeAnyRequest(arguments: [String], message: String) throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let result = try sandbox.run(["search"] + arguments + pixabay.options)
        #expect(result.status == 2)
        #expect(result.errLines == ["pxview: \(message)", "Try 'pxview search --help'."])
        #expect(result.stdout.isEmpty)
        #expect(pixabay.server.requests.isEmpty)
    }

    @Test func unknownCategoryAndLanguageListTheChoices() throws {
        let sandbox = try CLISandbox()
        let category = try sandbox.run(["search", "--category", "cars"])
        #expect(category.status == 2)
        #expect(category.errLines.first?.hasPrefix("pxview: --category must be one of: backgrounds, fashion,") == true)
        #expect(category.errLines.first?.hasSuffix(#"(got "cars")"#) == true)
        let language = try sandbox.run(["search", "--lang", "xx"])
        #expect(language.status == 2)
        #expect(language.errLines.first?.hasSuffix(#"(got "xx")"#) == true)
    }

    @Test func interactiveNeedsATerminal() throws {
        for arguments in [["search", "-i", "--offline"], ["--offline"]] {
            let result = try CLISandbox().run(arguments)
            #expect(result.status == 1)
            #expect(result.err == "pxview: the explorer needs a terminal on standard input and output\n")
            #expect(result.stdout.isEmpty)
        }
        // `open` and `show` open the viewer only on a terminal; elsewhere
        // (and with --once) they draw once, so `-i` in a script still works.
        for arguments in [["open", "1000008", "-i", "--offline"], ["open", "1000008", "--once", "--offline"]] {
            let viewer = try CLISandbox().run(arguments)
            #expect(viewer.status == 0)
            #expect(viewer.out.hasPrefix("pixabay-1000008.jpg: JPEG "))
            #expect(viewer.out.hasSuffix(" (not a terminal: pass --protocol to draw)\n"))
        }
    }

    @Test func onlineSearchUsesTheLaunchQueryAndNeverPrintsTheKey() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let result = try sandbox.run(["search", "--no-images"] + pixabay.options)
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        #expect(result.outLines.first == " ID  SIZE     USER  LIKES  TAGS")
        #expect(result.outLines.dropFirst().first == "101  640x480  Ann       7  cat, pet")
        #expect(result.outLines.last == "page 1 of 1, 2 hits · Images from Pixabay")
        #expect(!result.out.contains(CLIPixabay.key) && !result.err.contains(CLIPixabay.key))
        let request = try #require(pixabay.apiRequests.first)
        #expect(request.target == "/api/?q=famous+quotes&page=1&per_page=20&key=\(CLIPixabay.key)")
        #expect(request.headers["user-agent"]?.hasPrefix("pxview/") == true)
    }

    @Test func keyAndURLComeFromTheEnvironmentToo() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let result = try sandbox.run(
            ["search", "cat", "--type", "photo", "--safe", "--editors-choice", "--colors", "red,blue"],
            environment: ["PIXABAY_API_KEY": CLIPixabay.key, "PIXABAY_API_URL": pixabay.server.url("/api/")])
        #expect(result.status == 0)
        #expect(
            pixabay.apiRequests.map(\.target) == [
                "/api/?q=cat&image_type=photo&colors=red,blue&editors_choice=true&safesearch=true&page=1&per_page=20&key=\(CLIPixabay.key)"
            ])
    }

    @Test func serverErrorsAreOneLineWithoutTheKey() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        pixabay.server.route("/api/") { request in
            .text("[ERROR 400] Invalid or missing API key (\(request.query ?? ""))\u{1B}[2J", status: 400)
        }
        let refused = try sandbox.run(["search", "dog", "--no-cache"] + pixabay.options)
        #expect(refused.status == 1)
        #expect(refused.errLines.count == 1)
        #expect(refused.err.hasPrefix("pxview: Pixabay refused the request (HTTP 400): [ERROR 400] Invalid or missing API key ("))
        #expect(!refused.err.contains(CLIPixabay.key))
        #expect(!refused.stderr.contains(0x1B))

        pixabay.server.route("/api/") { _ in
            .text("API rate limit exceeded", status: 429, headers: ["X-RateLimit-Reset": "37", "X-RateLimit-Remaining": "0"])
        }
        let limited = try sandbox.run(["search", "dog"] + pixabay.options)
        #expect(limited.status == 1)
        #expect(limited.err == "pxview: Pixabay rate limit reached (100 requests per minute): try again in 37 s\n")
    }

    @Test func resultsAreCachedAndTheCacheCanBeInspectedAndCleared() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        let first = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options)
        let second = try sandbox.run(["search", "cat", "--no-images"] + pixabay.options)
        #expect(first.status == 0 && second.status == 0)
        #expect(second.out == first.out)
        #expect(pixabay.apiRequests.count == 1)
        _ = try sandbox.run(["--no-cache", "search", "cat"] + pixabay.options)
        #expect(pixabay.apiRequests.count == 2)

        let info = try sandbox.run(["cache", "info"])
        #expect(info.status == 0)
        #expect(info.outLines.first == "directory: \(sandbox.cacheDirectory)")
        #expect(info.outLines.dropFirst().first == "entries: 1")
        #expect(info.outLines.last?.hasPrefix("size: ") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.cacheDirectory)
        #expect(names.allSatisfy { !$0.contains(CLIPixabay.key) })

        let clear = try sandbox.run(["cache", "clear"])
        #expect(clear.status == 0)
        #expect(clear.out.hasPrefix("cleared 1 entry ("))
        #expect(try sandbox.run(["cache", "info"]).outLines.dropFirst().first == "entries: 0")
        #expect(try sandbox.run(["cache", "purge"]).status == 2)
    }

    @Test func aStaleCopyIsShownWithANoteWhenTheNetworkIsDown() async throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay.standard()
        // Fill the cache as a run 25 hours ago would have, then take the server away.
        let longAgo = Date().addingTimeInterval(-25 * 3600)
        let cache = DiskCache(directory: sandbox.cacheDirectory, now: { longAgo })
        let fetcher = CachingFetcher(wrapping: CurlClient(), cache: cache)
        let client = PixabayClient(fetcher: fetcher, apiKey: CLIPixabay.key, baseURL: pixabay.server.url("/api/"))
        _ = try await client.search(SearchQuery(q: "sea"))
        let options = pixabay.options
        pixabay.server.stop()

        let result = try sandbox.run(["search", "sea", "--no-images"] + options)
        #expect(result.status == 0)
        #expect(result.err == "pxview: network unavailable: showing cached results from 25 hours ago\n")
        #expect(result.outLines.last == "page 1 of 1, 2 hits · Images from Pixabay")
    }

    @Test func hostileTagsAndNamesNeverReachTheTerminalRaw() throws {
        let sandbox = try CLISandbox()
        let hostileTags = "nice\u{1B}]0;pwned\u{07}, \u{1B}[2J, \u{202E}gpj.exe, \u{9B}31m"
        let pixabay = try CLIPixabay { server in
            [CLIPixabay.hit(id: 666, tags: hostileTags, user: "eve\u{1B}[31m\u{200F}", likes: 1, large: server.url("/x.jpg"))]
        }
        let forbidden: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{202E}", "\u{200F}", "\u{9B}"]
        func isClean(_ text: String) -> Bool { !text.unicodeScalars.contains(where: forbidden.contains) }

        let table = try sandbox.run(["search", "--no-images"] + pixabay.options)
        #expect(table.status == 0)
        #expect(isClean(table.out) && isClean(table.err))
        #expect(table.out.contains("nice\u{FFFD}]0;pwned\u{FFFD}"))

        let json = try sandbox.run(["search", "--json"] + pixabay.options)
        #expect(json.status == 0)
        #expect(isClean(json.out))
        #expect(try PixabayResponse.decode(from: json.stdout).hits.first?.tags == hostileTags)

        #expect(try sandbox.run(["fav", "add", "666"] + pixabay.options).status == 0)
        let favourites = try sandbox.run(["fav", "list"])
        #expect(favourites.status == 0)
        #expect(isClean(favourites.out))
        #expect(favourites.out.contains("eve\u{FFFD}[31m\u{FFFD}"))
    }
}
