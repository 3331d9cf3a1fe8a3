import Foundation
import HTTP
import Plumbing
import Terminal

/// Entry point: finds the command, hands the rest of the arguments to it, and
/// turns every error into one line on stderr and an exit code.
@main
struct PXView {
    static func main() async {
        // Every handler in place before anything can change the terminal
        // or make a file (`ProcessSignals`: the one signal story).
        ProcessSignals.install()
        OutputGuard.protectStandardDescriptors()
        let code = await run(Array(CommandLine.arguments.dropFirst()), raw: rawArguments())
        Chores.finish()
        CurlProcess.closeForExit()
        ProcessSignals.exit(finished(code))
    }

    /// A command whose output could not be written has failed: one line on
    /// stderr and exit 1. A reader that left (EPIPE, `| head`) is the usual
    /// quiet end.
    static func finished(_ code: Int32) -> Int32 {
        guard let failure = OutputGuard.writeFailure, failure != EPIPE else { return code }
        Output.err("pxview: cannot write to standard output: \(String(cString: strerror(failure)))\n")
        return code == ExitCode.success ? ExitCode.failure : code
    }

    /// argv as the bytes the shell passed: paths are bytes, and a file name
    /// that is not UTF-8 (`caf\xe9.jpg`) must reach open(2) unchanged.
    static func rawArguments() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// `raw` holds the same arguments as bytes (nil: their UTF-8).
    static func run(_ arguments: [String], raw: [[UInt8]]? = nil) async -> Int32 {
        let raw = raw ?? arguments.map { Array($0.utf8) }
        // Global options may come before the command name: split at the first positional.
        let root = Commands.root.spec
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            index += 1
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if !argument.contains("="), root.option(named: name)?.takesValue == true, index < arguments.count {
                index += 1
            }
        }
        let leading = Array(arguments.prefix(index))
        let commandName = index < arguments.count ? arguments[index] : nil
        let rest = index < arguments.count ? Array(arguments[(index + 1)...]) : []
        let rawRest = Array(raw.prefix(index)) + (index < raw.count ? Array(raw[(index + 1)...]) : [])
        do {
            let command = try commandName.map(find) ?? Commands.root
            let parsed = try ArgumentParser.parse(leading + rest, raw: rawRest, spec: command.spec)
            if parsed.has(CommonOption.help) {
                Output.out(command.spec.helpText)
                return ExitCode.success
            }
            return try await command.run(parsed)
        } catch let error as UsageError {
            Output.err("pxview: \(error.message)\n\(error.hint)\n")
            return ExitCode.usage
        } catch {
            Output.err("pxview: \(TerminalText.sanitize(String(describing: error)))\n")
            return ExitCode.failure
        }
    }

    /// The command called `name` in the table.
    static func find(_ name: String) throws(UsageError) -> any PXCommand.Type {
        guard let command = Commands.named(name) else {
            throw UsageError(message: "unknown command '\(TerminalText.sanitize(name))'", command: nil)
        }
        return command
    }
}
