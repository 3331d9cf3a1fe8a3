import Foundation
import Pixabay
import Terminal

/// `pxview fav add|rm|list`: the favourites file, through `FavouritesStore`.
enum Fav: PXCommand {
    static let json = Flag("--json", help: "list as Pixabay-shaped JSON")

    static let spec = CommandSpec(
        name: "fav", abstract: "keep favourites", arguments: "add|rm|list",
        usage: "pxview fav add ID | fav rm ID | fav list [--json]",
        summary: "Keeps favourites in $XDG_DATA_HOME/pxview/favourites.json (tags and user included).",
        options: [json] + GlobalOption.all + [CommonOption.help],
        maxPositionals: 2, minPositionals: 1, positionals: .words(["add", "rm", "list"]),
        missing: ("add, rm or list", "pxview fav list"))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = parsed.command
        let store = FavouritesStore(environment: ProcessInfo.processInfo.environment)
        let action = parsed.positionals[0]
        let argument = parsed.positionals.count > 1 ? parsed.positionals[1] : nil
        switch action {
        case "add", "rm":
            guard let argument else {
                throw UsageError(
                    message: "pxview fav \(action) needs an image ID, like 'pxview fav \(action) 1000010'", command: command)
            }
            let id = try ValueParser.imageID(argument, command: command)
            return action == "add" ? try await add(id: id, to: store, parsed: parsed) : try remove(id: id, from: store)
        case "list":
            if let argument {
                throw UsageError(
                    message: "unexpected argument '\(TerminalText.sanitize(argument))' for 'pxview fav list'", command: command)
            }
            return try list(store, json: parsed.has(json))
        default:
            throw UsageError(
                message: "unknown fav action '\(TerminalText.sanitize(action))' (expected add, rm or list)", command: command)
        }
    }

    /// Fetches the hit first so the favourite keeps its tags, user and URLs.
    static func add(id: Int, to store: FavouritesStore, parsed: ParsedArguments) async throws -> Int32 {
        let stack = try SourceContext.make(parsed)
        let hit = try await stack.source.hit(id: id)
        stack.reportStaleCopies()
        if try store.add(hit) {
            Output.out("added \(id) to favourites\n")
        } else {
            Output.out("\(id) is already a favourite\n")
        }
        return ExitCode.success
    }

    static func remove(id: Int, from store: FavouritesStore) throws -> Int32 {
        guard try store.remove(id: id) else { throw CommandError("\(id) is not a favourite") }
        Output.out("removed \(id) from favourites\n")
        return ExitCode.success
    }

    static func list(_ store: FavouritesStore, json: Bool) throws -> Int32 {
        let entries = try store.list()
        if json {
            Listing.printJSON(PixabayResponse(total: entries.count, totalHits: entries.count, hits: entries.map(\.hit)))
            return ExitCode.success
        }
        guard !entries.isEmpty else {
            Output.out("no favourites yet: add one with 'pxview fav add ID'\n")
            return ExitCode.success
        }
        Output.out(
            Listing.table(
                headers: ResultsListing.favouriteHeaders, rows: entries.map(ResultsListing.favouriteRow(for:)),
                numericColumns: ResultsListing.favouriteNumericColumns))
        Output.out("\(entries.count) \(entries.count == 1 ? "favourite" : "favourites")\n")
        return ExitCode.success
    }
}
