import Pixabay

/// `pxview search`: one page of results as a table (or JSON), thumbnails above it on a terminal.
enum Search {
    /// The explorer's launch query, so `pxview search` and `pxview` start in the same place.
    static let launchQuery = "famous quotes"

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Commands.search)
        if parsed.has("--help") { Output.out(Commands.search.helpText); return ExitCode.success }
        var query = try searchQuery(from: parsed)
        if parsed.has("--interactive") {
            throw CommandError("the interactive explorer is not available yet")
        }
        let stack = try SourceContext.make(parsed)
        if query.q.isEmpty && !stack.source.isOffline { query.q = launchQuery }
        let page = try await stack.source.search(query)
        stack.reportStaleCopies()

        if parsed.has("--json") {
            Listing.printJSON(page.response)
            return ExitCode.success
        }
        // Graphics only where they can be seen, or where the user asked for a protocol explicitly.
        if !parsed.has("--no-images"), Output.isTerminal(1) || parsed.value("--protocol") != nil, !page.hits.isEmpty {
            await drawThumbnailStrip(page: page, source: stack.source, protocolOption: parsed.value("--protocol"))
        }
        Output.out(
            Listing.table(
                headers: ResultsListing.searchHeaders, rows: page.hits.map(ResultsListing.searchRow(for:)),
                numericColumns: ResultsListing.searchNumericColumns))
        Output.out(Sanitized.text(ResultsListing.footer(for: page, offlineCatalogSize: stack.offlineCatalogSize)) + "\n")
        return ExitCode.success
    }

    /// The query the flags describe, checked (exit 2) before any request is made.
    static func searchQuery(from parsed: ParsedArguments) throws(UsageError) -> SearchQuery {
        let command = Commands.search.name
        var query = SearchQuery(q: parsed.positionals.joined(separator: " "))
        if let text = parsed.value("--type") {
            query.imageType = try ValueParser.flagValue(text, option: "--type", command: command)
        }
        if let text = parsed.value("--orientation") {
            query.orientation = try ValueParser.flagValue(text, option: "--orientation", command: command)
        }
        if let text = parsed.value("--category") {
            query.category = try ValueParser.flagValue(text, option: "--category", command: command)
        }
        if let text = parsed.value("--colors") {
            do {
                query.colors = try ColorFilter.parseList(text, flag: "--colors")
            } catch {
                throw UsageError(error, command: command)
            }
        }
        if let text = parsed.value("--order") {
            query.order = try ValueParser.flagValue(text, option: "--order", command: command)
        }
        if let text = parsed.value("--lang") {
            query.lang = try ValueParser.flagValue(text, option: "--lang", command: command)
        }
        if let text = parsed.value("--min-width") {
            query.minWidth = try ValueParser.wholeNumber(text, option: "--min-width", command: command)
        }
        if let text = parsed.value("--min-height") {
            query.minHeight = try ValueParser.wholeNumber(text, option: "--min-height", command: command)
        }
        if let text = parsed.value("--page") {
            query.page = try ValueParser.wholeNumber(text, option: "--page", command: command)
        }
        if let text = parsed.value("--per-page") {
            query.perPage = try ValueParser.wholeNumber(text, option: "--per-page", command: command)
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
