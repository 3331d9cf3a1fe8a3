/// `pxview show`: being wired to the pixel pipeline.
enum Show {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Commands.show)
        if parsed.has("--help") { Output.out(Commands.show.helpText); return ExitCode.success }
        Output.err("pxview: show is not wired yet\n")
        return ExitCode.failure
    }
}
