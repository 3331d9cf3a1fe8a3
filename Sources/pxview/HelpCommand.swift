import Terminal

/// `pxview help [COMMAND]`: the same text as `pxview --help` or `pxview COMMAND --help`.
enum Help: PXCommand {
    static let spec = CommandSpec(
        name: "help", abstract: "this help, or a command's", arguments: "[COMMAND]", usage: "pxview help [COMMAND]",
        summary: "Prints the help of pxview, or of one command (as 'pxview COMMAND --help' does).",
        options: GlobalOption.all + [CommonOption.help],
        maxPositionals: 1, positionals: .commandNames)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positionals.first.map(PXView.find) ?? Commands.root
        Output.out(command.spec.helpText)
        return ExitCode.success
    }
}
