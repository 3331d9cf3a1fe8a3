import Explorer
import Terminal

/// The hand-written stand-in for swift-argument-parser: option tables per
/// command, `--name value` / `--name=value` / short aliases, `--` ends options.
/// Everything a user can get wrong becomes a `UsageError` (exit 2).

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Canonical name with dashes, e.g. `--size`.
    var name: String
    /// Other spellings, e.g. `-i`.
    var aliases: [String] = []
    /// Placeholder shown in help (`WxH`); nil for a flag that takes no value.
    var valueName: String?
    var help: String

    var takesValue: Bool { valueName != nil }
}

/// A command's name, what it does, and what it takes.
struct CommandSpec: Sendable {
    var name: String
    var usage: String
    var summary: String
    var options: [OptionSpec]
    /// Most positionals the command takes (nil: any number).
    var maxPositionals: Int?
    var minPositionals: Int = 0
    /// What a missing first positional is called, and an example of the
    /// whole command line, for "pxview open needs an ID, like 'pxview open 1000010'".
    var missing: (name: String, example: String)? = nil
    /// The keys of the screens this command opens, listed after the options.
    var keys: [(title: String, entries: [KeyHelp.Entry])] = []

    /// How messages name the command: `pxview show`, or just `pxview`.
    var displayName: String { name.isEmpty ? "pxview" : "pxview \(name)" }

    func option(named text: String) -> OptionSpec? {
        options.first { $0.name == text || $0.aliases.contains(text) }
    }

    var helpText: String {
        var lines = ["usage: \(usage)", "", summary]
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

/// The result of parsing: canonical option names to values, flags, positionals.
struct ParsedArguments: Equatable, Sendable {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The same positionals and values as the bytes argv held: paths that
    /// are not UTF-8 reach the file system unchanged.
    var positionalBytes: [[UInt8]] = []
    var valueBytes: [String: [UInt8]] = [:]

    func value(_ name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}

enum ArgumentParser {
    /// Parses `arguments` against `spec`. Options and positionals may mix; a
    /// later repetition of an option wins, as in most Unix tools.
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil, spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let raw = raw.flatMap { $0.count == arguments.count ? $0 : nil } ?? arguments.map { Array($0.utf8) }
        var parsed = ParsedArguments()
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
                    parsed.valueBytes[option.name] = Array(whole[(whole.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 } ?? whole.count)...])
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
            let message = spec.missing.map { "\(spec.displayName) needs \($0.name), like '\($0.example)'" }
                ?? "missing argument: usage: \(spec.usage)"
            throw UsageError(message: message, command: spec.name)
        }
        return parsed
    }
}
