import Pixabay
import Pixels

/// Typed option declarations: each names its spellings and help once and
/// knows how to read its value, so a command lists them in its spec and reads
/// them back with `parsed.value(_:)` and `parsed.has(_:)`.

/// Anything a `CommandSpec` can list: an `Option`, a `Flag` or a bare `OptionSpec`.
protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}

extension OptionSpec: DeclaredOption {
    var spec: OptionSpec { self }
}

/// The text typed after an option, with what a message about it names.
struct OptionValue {
    var text: String
    /// The same value as the bytes argv held (a path need not be UTF-8).
    var bytes: [UInt8]
    /// The option's canonical name, e.g. `--size`.
    var option: String
    var command: String
}

/// An option that takes a value of type `Value`.
struct Option<Value>: DeclaredOption {
    let spec: OptionSpec
    let read: @Sendable (OptionValue) throws(UsageError) -> Value

    init(
        _ name: String, aliases: [String] = [], _ valueName: String, help: String, completion: Completion = .none,
        read: @escaping @Sendable (OptionValue) throws(UsageError) -> Value
    ) {
        spec = OptionSpec(name: name, aliases: aliases, valueName: valueName, help: help, completion: completion)
        self.read = read
    }
}

/// An option that takes no value.
struct Flag: DeclaredOption {
    let spec: OptionSpec

    init(_ name: String, aliases: [String] = [], help: String) {
        spec = OptionSpec(name: name, aliases: aliases, help: help)
    }
}

extension Option where Value == String {
    /// Any text, taken as it is (a key, a URL).
    static func text(_ name: String, _ valueName: String, help: String) -> Self {
        Option(name, valueName, help: help) { $0.text }
    }
}

extension Option where Value == [UInt8] {
    /// A path, as the bytes argv held.
    static func path(_ name: String, aliases: [String] = [], _ valueName: String, help: String) -> Self {
        Option(name, aliases: aliases, valueName, help: help, completion: .files) { $0.bytes }
    }
}

extension Option where Value == PixelSize {
    /// `WxH`, each side at most `limit` (`ValueParser.size`).
    static func size(
        _ name: String, _ valueName: String, help: String, limit: Int = 16384, example: String = "800x600"
    ) -> Self {
        Option(name, valueName, help: help) { value throws(UsageError) in
            try ValueParser.size(value.text, option: value.option, command: value.command, limit: limit, example: example)
        }
    }
}

extension Option where Value == Int {
    /// A positive whole number (`ValueParser.positiveInteger`).
    static func positiveInteger(_ name: String, _ valueName: String, help: String) -> Self {
        Option(name, valueName, help: help) { value throws(UsageError) in
            try ValueParser.positiveInteger(value.text, option: value.option, command: value.command)
        }
    }

    /// Any whole number, its range checked where the meaning is known (`ValueParser.wholeNumber`).
    static func wholeNumber(_ name: String, _ valueName: String, help: String) -> Self {
        Option(name, valueName, help: help) { value throws(UsageError) in
            try ValueParser.wholeNumber(value.text, option: value.option, command: value.command)
        }
    }
}

extension Option where Value: RawRepresentable<String> & CaseIterable & Sendable {
    /// One of an enum's words (`--protocol auto|kitty|sixel|symbols|blocks`), which
    /// the shells complete.
    static func choice(_ name: String, _ valueName: String, help: String) -> Self {
        Option(name, valueName, help: help, completion: .words(Value.allCases.map(\.rawValue))) { value throws(UsageError) in
            try ValueParser.choice(value.text, option: value.option, command: value.command)
        }
    }
}

extension Option where Value: FlagValue {
    /// One of a Pixabay parameter's words, with Pixabay's message listing
    /// the choices (`ValueParser.flagValue`).
    static func pixabayWord(_ name: String, _ valueName: String, help: String) -> Self {
        Option(name, valueName, help: help, completion: .words(Value.allCases.map(\.rawValue))) { value throws(UsageError) in
            try ValueParser.flagValue(value.text, option: value.option, command: value.command)
        }
    }
}
