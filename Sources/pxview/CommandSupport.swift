import ControlSequences
import Decoding
import Foundation
import HTTP
import Pixabay
import Terminal

/// A runtime failure (network, files, a missing favourite): one line on
/// stderr and exit 1. Usage mistakes are `UsageError`s instead (exit 2).
struct CommandError: Error, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}

/// The photo source of one command run, built from the global options and
/// the environment, with its notes going to stderr.
enum SourceContext {
    static var userAgent: String { "pxview/\(Commands.version)" }

    /// Builds the stack; searches (`announceCatalog`) say once that the
    /// results come from the offline catalog for want of a key.
    /// - Parameter showProgress: show download progress on stderr (photos, not searches).
    static func make(_ parsed: ParsedArguments, showProgress: Bool = false, announceCatalog: Bool = false) throws -> SourceStack {
        let settings = SourceSettings(
            apiKeyOption: try parsed.value(GlobalOption.apiKey), apiURLOption: try parsed.value(GlobalOption.apiURL),
            offline: parsed.has(GlobalOption.offline), noCache: parsed.has(GlobalOption.noCache),
            environment: ProcessInfo.processInfo.environment)
        let stack = try SourceStack(
            settings: settings, userAgent: userAgent, progress: showProgress ? terminalProgress : nil,
            imageCheck: completeImage, debugNote: debugNote())
        if announceCatalog, let hint = stack.hint { Output.err(TerminalText.sanitize(hint) + "\n") }
        return stack
    }

    /// Under `PXVIEW_DEBUG`, one line on stderr per note; else nil.
    static func debugNote(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (@Sendable (String) -> Void)? {
        guard !(environment["PXVIEW_DEBUG"] ?? "").isEmpty else { return nil }
        return { Output.err("pxview: \(TerminalText.sanitize($0))\n") }
    }

    /// A downloaded image is used, saved or cached only when it is whole.
    static let completeImage = ResponseCheck(name: "complete image") { isCompleteImage($0) }

    /// `StderrProgressReporter` per download: silent unless stderr is a
    /// terminal and the download takes more than half a second.
    static let terminalProgress: ProgressReportingFetcher.Start = { label in
        let reporter = StderrProgressReporter(label: TerminalText.sanitize(label))
        return (reporter.callback, { reporter.finish() })
    }
}

extension SourceStack {
    /// Says once, on stderr, that what was shown is an old cached copy.
    func reportStaleCopies() {
        if let age = staleCopies.oldestStaleAge {
            Output.err("pxview: \(StaleCopyLog.note(age: age))\n")
        }
    }
}

extension UsageError {
    /// Pixabay's checks phrase problems for the CLI flag already; anything
    /// else it throws here is still the user's input being refused.
    init(_ error: PixabayError, command: String) {
        switch error {
        case .invalidQuery(let message):
            self.init(message: TerminalText.sanitize(message), command: command)
        default:
            self.init(message: TerminalText.sanitize(error.description), command: command)
        }
    }
}

extension ValueParser {
    /// A Pixabay image id: a positive whole number.
    static func imageID(_ text: String, command: String) throws(UsageError) -> Int {
        guard let id = Int(text), id > 0 else {
            throw UsageError(
                message: "ID must be a positive whole number, like 195893 (got '\(TerminalText.sanitize(text))')",
                command: command)
        }
        return id
    }

    /// Any whole number; the range is checked where the meaning is known
    /// (`SearchQuery.validate`), so the message can say what the limit is.
    static func wholeNumber(_ text: String, option: String, command: String) throws(UsageError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError(
                message: "\(option) expects a whole number (got '\(TerminalText.sanitize(text))')", command: command)
        }
        return value
    }

    /// One of a `FlagValue`'s words, with Pixabay's message listing the choices.
    static func flagValue<T: FlagValue>(
        _ text: String, option: String, command: String, as type: T.Type = T.self
    ) throws(UsageError) -> T {
        do {
            return try T.parse(text, flag: option)
        } catch {
            throw UsageError(error, command: command)
        }
    }
}

/// Output helpers shared by the listing commands.
enum Listing {
    /// The search/favourites table, laid out for the terminal (or $COLUMNS, or 100 cells).
    static func table(headers: [String], rows: [[String]], numericColumns: Set<Int>) -> String {
        let table = TextTable(headers: headers, rows: rows, rightAligned: numericColumns)
        return table.render(width: TextTable.outputWidth()).joined(separator: "\n") + "\n"
    }

    /// The search table with OSC 8 links (issue 29): each photo's ID to its
    /// page, its Pixabay user to their profile, laid over the rendered
    /// text (the links take no columns). A URL that is not printable ASCII
    /// (the JSON is untrusted) is no link.
    static func linked(_ table: String, hits: [PixabayHit]) -> String {
        var lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first, let user = header.range(of: "USER") else { return table }
        let userStart = header.distance(from: header.startIndex, to: user.lowerBound)
        for (index, hit) in hits.enumerated() where index + 1 < lines.count {
            var characters = Array(lines[index + 1])
            // The user's cell: from the USER column to the two spaces after it.
            var end = userStart
            while end < characters.count, !(characters[end] == " " && end + 1 < characters.count && characters[end + 1] == " ") {
                end += 1
            }
            if userStart < end, let profile = hit.profileLink {
                let text = String(characters[userStart..<end])
                characters.replaceSubrange(userStart..<end, with: Array(TerminalCommand.hyperlink(profile, text: text)))
            }
            // The ID: the first run of digits (right-aligned).
            if let first = characters.firstIndex(where: { $0 != " " }), let page = hit.pageLink {
                let last = characters[first...].firstIndex(of: " ") ?? characters.endIndex
                let text = String(characters[first..<last])
                characters.replaceSubrange(first..<last, with: Array(TerminalCommand.hyperlink(page, text: text)))
            }
            lines[index + 1] = String(characters)
        }
        return lines.joined(separator: "\n")
    }

    /// Pixabay-shaped JSON on stdout, nothing else.
    static func printJSON(_ response: PixabayResponse) {
        Output.write(ResultsListing.json(response) + [UInt8(ascii: "\n")])
    }
}
