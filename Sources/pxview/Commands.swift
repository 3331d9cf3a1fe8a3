/// One `pxview` command, as swift-argument-parser's `ParsableCommand` is
/// one: its spec (name, help, typed options, what its arguments complete
/// to) and what it does. `PXView.run` finds it in `Commands.all`, parses
/// the arguments against `spec`, answers `--help` from it, then calls `run`.
protocol PXCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Runs with the arguments parsed against `spec` (`--help` is already answered).
    static func run(_ parsed: ParsedArguments) async throws -> Int32
}

/// The table of commands. Dispatch, `pxview --help`, the shell completions
/// and the man page all read it: adding a command is one new file with an
/// `enum X: PXCommand` and one row here.
enum Commands {
    static let version = "0.1.0"

    /// `pxview` with no command.
    static let root: any PXCommand.Type = Explore.self

    /// Every `pxview NAME`, in the order help lists them.
    static let all: [any PXCommand.Type] = [
        Show.self,
        Search.self,
        Open.self,
        Save.self,
        Fav.self,
        Cache.self,
        Doctor.self,
        Clear.self,
        Completions.self,
        Man.self,
        Help.self,
    ]

    static func named(_ name: String) -> (any PXCommand.Type)? {
        all.first { $0.spec.name == name }
    }
}
