/// `pxview show`: being wired to the pixel pipeline.
enum Show {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, spec: Commands.show)
        if parsed.has("--help") { Output.out(Commands.show.helpText); return ExitCode.success }
        Output.err("pxview: show is not wired yet\n")
        return ExitCode.failure
    }

    /// Draws one image's encoded bytes as `show` would; `open` calls this
    /// after downloading. Being wired to the pixel pipeline: until then it
    /// describes what it was given.
    static func display(bytes: [UInt8], name: String, parsed: ParsedArguments) async throws -> Int32 {
        Output.out("\(Sanitized.text(name)): \(bytes.count) bytes\n")
        return ExitCode.success
    }
}
