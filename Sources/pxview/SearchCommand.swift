import Terminal
import Explorer
import Pixabay
import Rendering

/// `pxview search`: one page of results as a table (or JSON), thumbnails above it on a terminal.
enum Search {
    /// The explorer's launch query, so `pxview search` and `pxview` start in the same place.
    static let launchQuery = "famous quotes"

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Commands.search)
        if parsed.has("--help") { Output.out(Commands.search.helpText); return ExitCode.success }
        var query = try searchQuery(from: parsed)
        let stack = try SourceContext.make(parsed, announceCatalog: true)
        if query.q.isEmpty && !stack.source.isOffline { query.q = launchQuery }
        if parsed.has("--interactive") {
            let view = try ViewOptions(parsed, command: Commands.search.name)
            let display = try ExplorerSetup.display(view, command: Commands.search.name)
            return try ExplorerApp.runBrowser(
                source: stack.source, query: query, display: display, options: ExplorerSetup.options(maxPixels: view.maxPixels))
        }
        let page = try await stack.source.search(query)
        stack.reportStaleCopies()

        if parsed.has("--json") {
            Listing.printJSON(page.response)
            return ExitCode.success
        }
        // Graphics only where they can be seen, or where a protocol was asked
        // for (--protocol or PXVIEW_PROTOCOL): the strip decides as `show` does.
        if !parsed.has("--no-images"), !page.hits.isEmpty {
            try await drawThumbnailStrip(page: page, source: stack.source, parsed: parsed)
        }
        Output.out(
            Listing.table(
                headers: ResultsListing.searchHeaders, rows: page.hits.map(ResultsListing.searchRow(for:)),
                numericColumns: ResultsListing.searchNumericColumns))
        Output.out(TerminalText.sanitize(ResultsListing.footer(for: page, offlineCatalogSize: stack.offlineCatalogSize)) + "\n")
        return ExitCode.success
    }

    /// The query the flags describe, checked (exit 2) before any request is made.
    static func searchQuery(from parsed: ParsedArguments) throws(UsageError) -> SearchQuery {
        let command = Commands.search.name
        func word<T: FlagValue>(_ option: String) throws(UsageError) -> T? {
            guard let text = parsed.value(option) else { return nil }
            return try ValueParser.flagValue(text, option: option, command: command)
        }
        func number(_ option: String) throws(UsageError) -> Int? {
            guard let text = parsed.value(option) else { return nil }
            return try ValueParser.wholeNumber(text, option: option, command: command)
        }
        var query = SearchQuery(q: parsed.positionals.joined(separator: " "))
        query.imageType = try word("--type") ?? query.imageType
        query.orientation = try word("--orientation") ?? query.orientation
        query.category = try word("--category")
        query.order = try word("--order") ?? query.order
        query.lang = try word("--lang") ?? query.lang
        query.minWidth = try number("--min-width") ?? query.minWidth
        query.minHeight = try number("--min-height") ?? query.minHeight
        query.page = try number("--page") ?? query.page
        query.perPage = try number("--per-page") ?? query.perPage
        if let text = parsed.value("--colors") {
            do {
                query.colors = try ColorFilter.parseList(text, flag: "--colors")
            } catch {
                throw UsageError(error, command: command)
            }
        }
        query.safeSearch = parsed.has("--safe")
        query.editorsChoice = parsed.has("--editors-choice")
        do {
            try query.validate()
        } catch {
            throw UsageError(error, command: command)
        }
        return query
    }
}
