/// `pxview man`: the manual page in roff, made from the table of commands.
enum Man: PXCommand {
    static let spec = CommandSpec(
        name: "man", abstract: "the manual page (roff)", usage: "pxview man",
        summary: """
            Prints the manual page, pxview.1, made from the same table as --help:
            read it with 'pxview man | man -l -'. scripts/install.sh installs it.
            """,
        options: GlobalOption.all + [CommonOption.help], maxPositionals: 0)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        Output.out(ManPage().text)
        return ExitCode.success
    }
}
