import Terminal

/// `pxview completions bash|zsh|fish`: a completion script made from the table of commands.
enum Completions: PXCommand {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static let spec = CommandSpec(
        name: "completions", abstract: "shell completions (bash, zsh or fish)", arguments: "SHELL",
        usage: "pxview completions bash|zsh|fish",
        summary: """
            Prints the completion script for one shell, made from the same table as --help:
            commands, options, the values of options with a fixed set (--protocol, --fit) and
            file names where a command takes files. scripts/install.sh installs all three; to
            try one in the running shell:
              bash: source <(pxview completions bash)
              zsh:  pxview completions zsh > DIR/_pxview, with DIR on $fpath before compinit
              fish: pxview completions fish | source
            """,
        options: GlobalOption.all + [CommonOption.help],
        maxPositionals: 1, minPositionals: 1, positionals: .words(Shell.allCases.map(\.rawValue)),
        missing: ("a shell (bash, zsh or fish)", "pxview completions bash"))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let name = parsed.positionals[0]
        guard let shell = Shell(rawValue: name) else {
            throw UsageError(
                message: "unknown shell '\(TerminalText.sanitize(name))' (expected bash, zsh or fish)", command: parsed.command)
        }
        let scripts = CompletionScripts()
        switch shell {
        case .bash: Output.out(scripts.bash)
        case .zsh: Output.out(scripts.zsh)
        case .fish: Output.out(scripts.fish)
        }
        return ExitCode.success
    }
}
