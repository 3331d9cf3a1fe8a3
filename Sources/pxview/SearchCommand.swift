import Explorer
import Photos
import Pixabay
import Rendering
import Terminal

/// `pxview search`: one page of results as a table (or JSON), thumbnails above it on a terminal.
enum Search: PXCommand {
    /// The explorer's launch query, so `pxview search` and `pxview` start in the same place.
    static let launchQuery = "famous quotes"

    /// One option per Pixabay search parameter; values are checked before any request.
    enum Filter {
        static let type: Option<ImageType> = .pixabayWord("--type", "T", help: "all|photo|illustration|vector (default all)")
        static let orientation: Option<Orientation> = .pixabayWord(
            "--orientation", "O", help: "all|horizontal|vertical (default all)")
        static let category: Option<ImageCategory> = .pixabayWord(
            "--category", "NAME", help: "one of Pixabay's 20 categories, e.g. nature, animals")
        static let colors = Option<[ColorFilter]>(
            "--colors", "LIST", help: "comma list, e.g. red,blue (grayscale, transparent, …)",
            completion: .words(ColorFilter.allCases.map(\.rawValue))
        ) { value throws(UsageError) in
            do throws(PixabayError) {
                return try ColorFilter.parseList(value.text, flag: value.option)
            } catch {
                throw UsageError(error, command: value.command)
            }
        }
        static let minWidth: Option<Int> = .wholeNumber("--min-width", "N", help: "smallest original width in pixels")
        static let minHeight: Option<Int> = .wholeNumber("--min-height", "N", help: "smallest original height in pixels")
        static let order: Option<ResultOrder> = .pixabayWord("--order", "O", help: "popular|latest (default popular)")
        static let safe = Flag("--safe", help: "only images suitable for all ages")
        static let editorsChoice = Flag("--editors-choice", help: "only Editor's Choice images")
        static let lang: Option<SearchLanguage> = .pixabayWord(
            "--lang", "CODE", help: "language of the query, e.g. de (default en)")
        static let page: Option<Int> = .wholeNumber("--page", "N", help: "page of results, from 1")
        static let perPage: Option<Int> = .wholeNumber("--per-page", "N", help: "results per page, 3-200 (default 20)")

        static let all: [any DeclaredOption] = [
            type, orientation, category, colors, minWidth, minHeight, order, safe, editorsChoice, lang, page, perPage,
        ]
    }

    static let json = Flag("--json", help: "print Pixabay-shaped JSON (total, totalHits, hits) only")
    static let noImages = Flag("--no-images", help: "text only, no thumbnails")
    static let interactive = Flag("--interactive", aliases: ["-i"], help: "browse the results in the grid")

    static let spec = CommandSpec(
        name: "search", abstract: "search Pixabay (or the offline catalog)", arguments: "[QUERY]",
        usage: "pxview search [QUERY...] [OPTIONS]",
        summary: """
            Prints one page of results: id, size, user, likes and tags, then where they are from.
            With no query, Pixabay's "famous quotes" (the explorer's launch query), or the whole
            offline catalog. Thumbnails are drawn above the table when standard output is a terminal.
            """,
        options: Filter.all + [json, noImages, interactive] + GlobalOption.all + [CommonOption.help],
        maxPositionals: nil, keys: [KeyTables.grid, KeyTables.viewer])

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        var query = try searchQuery(from: parsed)
        let stack = try SourceContext.make(parsed, announceCatalog: true)
        if query.q.isEmpty && !stack.source.isOffline { query.q = launchQuery }
        if parsed.has(interactive) {
            let view = try ViewOptions(parsed)
            let (drawing, typedAhead) = try ExplorerSetup.drawingPlan(view, command: parsed.command)
            return try ExplorerApp.runBrowser(
                source: PixabayPhotos(stack.source), query: query, drawing: drawing,
                options: ExplorerSetup.options(view, typedAhead: typedAhead)
            ).status
        }
        let page = try await stack.source.search(query)
        stack.reportStaleCopies()

        if parsed.has(json) {
            Listing.printJSON(page.response)
            return ExitCode.success
        }
        // Graphics only where they can be seen, or where a protocol was asked
        // for (--protocol or PXVIEW_PROTOCOL): the strip decides as `show` does.
        if !parsed.has(noImages), !page.hits.isEmpty {
            try await drawThumbnailStrip(page: page, source: stack.source, parsed: parsed)
        }
        let table = Listing.table(
            headers: ResultsListing.searchHeaders, rows: page.hits.map(ResultsListing.searchRow(for:)),
            numericColumns: ResultsListing.searchNumericColumns)
        // Links only for a terminal: a pipe gets the table's text alone.
        Output.out(Output.isTerminal(1) ? Listing.linked(table, hits: page.hits) : table)
        Output.out(TerminalText.sanitize(ResultsListing.footer(for: page, offlineCatalogSize: stack.offlineCatalogSize)) + "\n")
        return ExitCode.success
    }

    /// The query the flags describe, checked (exit 2) before any request is made.
    static func searchQuery(from parsed: ParsedArguments) throws(UsageError) -> SearchQuery {
        var query = SearchQuery(q: parsed.positionals.joined(separator: " "))
        query.imageType = try parsed.value(Filter.type) ?? query.imageType
        query.orientation = try parsed.value(Filter.orientation) ?? query.orientation
        query.category = try parsed.value(Filter.category)
        query.order = try parsed.value(Filter.order) ?? query.order
        query.lang = try parsed.value(Filter.lang) ?? query.lang
        query.minWidth = try parsed.value(Filter.minWidth) ?? query.minWidth
        query.minHeight = try parsed.value(Filter.minHeight) ?? query.minHeight
        query.page = try parsed.value(Filter.page) ?? query.page
        query.perPage = try parsed.value(Filter.perPage) ?? query.perPage
        query.colors = try parsed.value(Filter.colors) ?? query.colors
        query.safeSearch = parsed.has(Filter.safe)
        query.editorsChoice = parsed.has(Filter.editorsChoice)
        do {
            try query.validate()
        } catch {
            throw UsageError(error, command: parsed.command)
        }
        return query
    }
}
