/// `pxview` with no command: the explorer (issue 4), until then the help.
enum Explore {
    static func run(_ parsed: ParsedArguments) async -> Int32 {
        Output.out(Commands.main.helpText)
        return ExitCode.success
    }
}
