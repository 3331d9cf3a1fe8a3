import Explorer
import Terminal

/// The hand-written stand-in for swift-argument-parser: option tables per
/// command, `--name value` / `--name=value` / short aliases, `--` ends options.
/// Everything a user can get wrong becomes a `UsageError` (exit 2). Commands
/// declare their options as typed `Option`s and `Flag`s (Options.swift) and
/// read them back through those declarations, never by spelling a name.

/// What a shell offers to complete a value: nothing, file names, a fixed
/// set of words, or the names of the commands in the table (`help COMMAND`).
enum Completion: Sendable, Equatable {
    case none
    case files
    case words([String])
    case commandNames
}

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Canonical name with dashes, e.g. `--size`.
    var name: String
    /// Other spellings, e.g. `-i`.
    var aliases: [String] = []
    /// Placeholder shown in help (`WxH`); nil for a flag that takes no value.
    var valueName: String?
    var help: String
    /// What shell completion offers for the value.
    var completion: Completion = .none

    var takesValue: Bool { valueName != nil }
    /// The name and its aliases.
    var spellings: [String] { [name] + aliases }
}

/// A titled table of keys, listed after the options of a command that opens that screen.
typealias KeyTable = (title: String, entries: [KeyHelp.Entry])

/// A command's name, what it does, and what it takes: what parsing, `--help`,
/// the completions and the man page are all made from.
struct CommandSpec: Sendable {
    /// The word after `pxview` (empty for `pxview` alone).
    var name: String
    /// One line for the list of commands, e.g. `view images from files, URLs or a folder`.
    var abstract: String
    /// The arguments as that list shows them, e.g. `PATH|URL|DIR`.
    var arguments: String
    var usage: String
    var summary: String
    var options: [OptionSpec]
    /// Most positionals the command takes (nil: any number).
    var maxPositionals: Int?
    var minPositionals: Int
    /// What a shell offers for positionals: `.files` for every one,
    /// `.words` for the first (`fav add|rm|list`).
    var positionals: Completion
    /// What a missing first positional is called, and an example of the
    /// whole command line, for "pxview open needs an ID, like 'pxview open 1000010'".
    var missing: (name: String, example: String)?
    /// The keys of the screens this command opens, listed after the options.
    var keys: [KeyTable]
    /// Other commands, listed after the summary (`pxview --help` lists them all).
    var commands: [CommandSpec]

    init(
        name: String, abstract: String = "", arguments: String = "", usage: String, summary: String,
        options: [any DeclaredOption], maxPositionals: Int?, minPositionals: Int = 0, positionals: Completion = .none,
        missing: (name: String, example: String)? = nil, keys: [KeyTable] = [], commands: [CommandSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.usage = usage
        self.summary = summary
        self.options = options.map(\.spec)
        self.maxPositionals = maxPositionals
        self.minPositionals = minPositionals
        self.positionals = positionals
        self.missing = missing
        self.keys = keys
        self.commands = commands
    }

    /// How messages name the command: `pxview show`, or just `pxview`.
    var displayName: String { name.isEmpty ? "pxview" : "pxview \(name)" }

    func option(named text: String) -> OptionSpec? {
        options.first { $0.name == text || $0.aliases.contains(text) }
    }

    /// The command as the list of commands shows it: `show PATH|URL|DIR`.
    var listing: String { arguments.isEmpty ? name : "\(name) \(arguments)" }

    var helpText: String {
        var lines = ["usage: \(usage)", "", summary]
        if !commands.isEmpty {
            lines += ["", "commands:"]
            let width = commands.map(\.listing.count).max() ?? 0
            for command in commands {
                let gap = String(repeating: " ", count: width + 2 - command.listing.count)
                lines.append("  " + command.listing + gap + command.abstract)
            }
            lines += ["", "Run 'pxview COMMAND --help' for a command's options."]
        }
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            let labels = options.map { spec -> String in
                let names = ([spec.name] + spec.aliases).joined(separator: ", ")
                return spec.valueName.map { "\(names) \($0)" } ?? names
            }
            let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
            for (label, spec) in zip(labels, options) {
                let padded = label.count < width ? label + String(repeating: " ", count: width - label.count) : label + "  "
                lines.append("  " + padded + spec.help)
            }
        }
        for (title, entries) in keys {
            lines.append("")
            lines.append("\(title):")
            lines += KeyHelp.lines(entries).map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What a user typed wrong: one line, plus the command whose help to point at.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var command: String?

    var description: String { message }

    /// The hint printed under the message.
    var hint: String {
        guard let command, !command.isEmpty else { return "Try 'pxview --help'." }
        return "Try 'pxview \(command) --help'."
    }
}

/// The result of parsing: canonical option names to values, flags,
/// positionals. Commands read options through their declarations:
/// `try parsed.value(ViewFlags.size)` is a `PixelSize?`, `parsed.has(Show.once)` a `Bool`.
struct ParsedArguments: Equatable, Sendable {
    /// The command parsed for (empty for `pxview` alone): what value errors point at.
    var command = ""
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The same positionals and values as the bytes argv held: paths that
    /// are not UTF-8 reach the file system unchanged.
    var positionalBytes: [[UInt8]] = []
    var valueBytes: [String: [UInt8]] = [:]

    /// The option's value, read by its declaration (nil when not given): a
    /// bad value is a `UsageError` naming the option and the command.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        let name = option.spec.name
        guard let text = values[name] else { return nil }
        return try option.read(
            OptionValue(text: text, bytes: valueBytes[name] ?? Array(text.utf8), option: name, command: command))
    }

    func has(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }
}

enum ArgumentParser {
    /// Parses `arguments` against `spec`. Options and positionals may mix; a
    /// later repetition of an option wins, as in most Unix tools.
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil, spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let raw = raw.flatMap { $0.count == arguments.count ? $0 : nil } ?? arguments.map { Array($0.utf8) }
        var parsed = ParsedArguments(command: spec.name)
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                parsed.positionalBytes.append(raw[index - 1])
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.option(named: name) else {
                throw UsageError(
                    message: "unknown option '\(TerminalText.sanitize(name))' for '\(spec.displayName)'",
                    command: spec.name.isEmpty ? nil : spec.name)
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                    let whole = raw[index - 1]
                    parsed.valueBytes[option.name] = Array(
                        whole[(whole.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 } ?? whole.count)...])
                } else if index < arguments.count {
                    value = arguments[index]
                    parsed.valueBytes[option.name] = raw[index]
                    index += 1
                } else {
                    throw UsageError(
                        message: "option \(option.name) needs a value (\(option.valueName ?? "VALUE"))",
                        command: spec.name.isEmpty ? nil : spec.name)
                }
                parsed.values[option.name] = value
            } else {
                if inlineValue != nil {
                    throw UsageError(
                        message: "option \(option.name) takes no value", command: spec.name.isEmpty ? nil : spec.name)
                }
                parsed.flags.insert(option.name)
            }
        }
        if parsed.flags.contains("--help") { return parsed }
        if let max = spec.maxPositionals, parsed.positionals.count > max {
            let extra = parsed.positionals[max]
            throw UsageError(
                message: "unexpected argument '\(TerminalText.sanitize(extra))' for '\(spec.displayName)'",
                command: spec.name.isEmpty ? nil : spec.name)
        }
        if parsed.positionals.count < spec.minPositionals {
            let message =
                spec.missing.map { "\(spec.displayName) needs \($0.name), like '\($0.example)'" }
                ?? "missing argument: usage: \(spec.usage)"
            throw UsageError(message: message, command: spec.name)
        }
        return parsed
    }
}
