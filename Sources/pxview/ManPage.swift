import Explorer
import Rendering

/// The manual page, pxview.1, made from the table of commands (`pxview man`):
/// the same usage lines, summaries, options and keys as `--help`, in roff.
struct ManPage {
    /// `pxview` alone: its summary is the description, its options the global ones.
    var root: CommandSpec
    var commands: [CommandSpec]
    var version: String

    init(root: CommandSpec, commands: [CommandSpec], version: String) {
        self.root = root
        self.commands = commands
        self.version = version
    }

    /// From the table the binary dispatches with.
    init() {
        self.init(root: Commands.root.spec, commands: Commands.all.map { $0.spec }, version: Commands.version)
    }

    /// What the exit codes mean (README: Commands).
    static let exitStatus: [(String, String)] = [
        ("0", "success"),
        ("1", "a runtime error: one line on stderr naming the file, id or URL; output that could not be written is one too"),
        ("2", "a usage error: one line on stderr plus a hint, like Try 'pxview show --help'."),
    ]

    /// The variables pxview reads (README: Pixabay, the offline catalog, the cache).
    static let environment: [(String, String)] = [
        ("PIXABAY_API_KEY", "search Pixabay for real (the key is never printed, logged or cached); --api-key overrides it"),
        ("PIXABAY_API_URL", "another endpoint (default https://pixabay.com/api/); --api-url overrides it"),
        (
            "PXVIEW_PROTOCOL",
            ProtocolChoice.allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or "
                + (ProtocolChoice.allCases.last?.rawValue ?? "") + ", as --protocol"
        ),
        (
            "PXVIEW_SEXTANTS",
            "1: symbols pictures use sextants too (kitty, Konsole and WezTerm draw them; elsewhere only fonts that have them); 0: never"
        ),
        ("PXVIEW_CATALOG", "use another offline catalog folder"),
        ("PXVIEW_DEBUG", "when set, print what the terminal probe found, how long it took (and how kitty gets pixels)"),
        ("PXVIEW_PROBE_TIMEOUT_MS", "how long the start-up probe waits for the terminal's answer (default 2000)"),
        ("PXVIEW_DECODE_TIMEOUT_MS", "how long the viewer waits for one photo's decode before giving up on it (default 10000)"),
        ("PXVIEW_KITTY_TRANSFER", "direct: never hand kitty shared memory or files, send PNG through the pty"),
        ("XDG_CACHE_HOME", "the disk cache is $XDG_CACHE_HOME/pxview (default ~/.cache/pxview)"),
        (
            "XDG_DATA_HOME",
            "favourites are $XDG_DATA_HOME/pxview/favourites.json (default ~/.local/share/pxview); D moves files to $XDG_DATA_HOME/Trash"
        ),
        (
            "XDG_CONFIG_HOME",
            "Ctrl-X KEY runs $XDG_CONFIG_HOME/pxview/key-handler KEY (default ~/.config), the paths on its standard input"
        ),
        ("COLUMNS", "the width of search and favourites tables when standard output is not a terminal"),
    ]

    var text: String {
        var lines = [
            ".\\\" pxview.1: made by `pxview man` from pxview's table of commands.",
            ".TH PXVIEW 1 \"\" \"pxview \(version)\" \"User Commands\"",
            ".SH NAME",
            "pxview \\- " + Self.escaped(root.abstract),
            ".SH SYNOPSIS",
        ]
        for (index, spec) in ([root] + commands).enumerated() {
            if index > 0 { lines.append(".br") }
            lines += Self.usage(spec)
        }
        lines.append(".SH DESCRIPTION")
        lines += Self.paragraphs(root.summary)
        lines.append(".SH COMMANDS")
        let global = Set(root.options.flatMap(\.spellings))
        for command in commands {
            lines.append(".SS \(command.name)")
            lines += Self.usage(command)
            lines.append(".PP")
            lines += Self.paragraphs(command.summary)
            let own = command.options.filter { global.isDisjoint(with: $0.spellings) }
            if !own.isEmpty {
                lines += [".PP", "Options (and the global ones, see OPTIONS):"]
                lines += own.flatMap(Self.option)
            }
            let titles = command.keys.map(\.title)
            if !titles.isEmpty {
                lines += [".PP", Self.escaped("See KEYS for " + titles.joined(separator: " and ") + ".")]
            }
        }
        lines += [
            ".SH OPTIONS",
            "Options of pxview alone; all but \\fB\\-\\-version\\fR work with every command too, before or after its name.",
        ]
        lines += root.options.flatMap(Self.option)
        // Each table once, under every title it has.
        var keyTables: [(titles: [String], entries: [KeyHelp.Entry])] = []
        for table in ([root] + commands).flatMap(\.keys) {
            if let index = keyTables.firstIndex(where: { $0.entries == table.entries }) {
                if !keyTables[index].titles.contains(table.title) { keyTables[index].titles.append(table.title) }
            } else {
                keyTables.append(([table.title], table.entries))
            }
        }
        if !keyTables.isEmpty { lines.append(".SH KEYS") }
        for table in keyTables {
            lines.append(".SS \"\(Self.escaped(table.titles.joined(separator: ", ")))\"")
            for entry in table.entries {
                lines += [".TP", ".B \(Self.escaped(entry.keys))", Self.escaped(entry.action)]
            }
        }
        lines.append(".SH EXIT STATUS")
        lines += Self.exitStatus.flatMap { [".TP", ".B \($0.0)", Self.escaped($0.1)] }
        lines.append(".SH ENVIRONMENT")
        lines += Self.environment.flatMap { [".TP", ".B \($0.0)", Self.escaped($0.1)] }
        lines += [".SH SEE ALSO", "pxview \\-\\-help, pxview COMMAND \\-\\-help, pxview completions bash|zsh|fish"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `.B "pxview show"` then the rest of the usage line.
    private static func usage(_ spec: CommandSpec) -> [String] {
        let command = spec.displayName
        let rest = spec.usage.hasPrefix(command) ? String(spec.usage.dropFirst(command.count)) : " " + spec.usage
        let arguments = rest.drop { $0 == " " }
        return [".B \"\(command)\""] + (arguments.isEmpty ? [] : [escaped(String(arguments))])
    }

    private static func option(_ option: OptionSpec) -> [String] {
        let names = option.spellings.map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
        let value = option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? ""
        return [".TP", names + value, escaped(option.help)]
    }

    /// Help text as roff: its lines are filled, a blank line starts a paragraph.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? ".PP" : escaped(String(line))
        }
    }

    /// Text safe on a roff line: backslashes and minus signs escaped,
    /// anything beyond ASCII as a named glyph (`…` is `\[u2026]`: plain
    /// groff reads Latin-1), and a leading `.` or `'` kept from reading as a request.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }
}
