import Foundation
import Pixabay
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Output that cannot be written is a failure, said on stderr: /dev/full,
/// a closed stdout. A reader that leaves early (EPIPE) is a quiet end.
@Suite struct OutputFailureTests {
    /// Runs pxview with stdout `setup` gives (nil: closed) and stderr captured.
    private func run(_ arguments: [String], stdout: FileHandle?) throws -> (status: Int32, err: String, signalled: Bool) {
        let sandbox = try CLISandbox()
        let errPath = sandbox.root.file("err")
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try #require(FileHandle(forWritingAtPath: errPath))
        // /bin/sh closes stdout (`>&-`) when asked to, which Process cannot.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let command = (try [pxviewExecutable()] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-c", stdout == nil ? "exec \(command) >&-" : "exec \(command)"]
        process.environment = sandbox.baseEnvironment
        process.standardInput = FileHandle.nullDevice
        if let stdout { process.standardOutput = stdout }
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self),
            process.terminationReason == .uncaughtSignal
        )
    }

    private var full: FileHandle { FileHandle(forWritingAtPath: "/dev/full")! }

    @Test func aFullDiskIsExitOne() throws {
        for arguments in [["search", "--offline", "--json"], ["search", "--offline"], ["--version"]] {
            let result = try run(arguments, stdout: full)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.err.hasSuffix("pxview: cannot write to standard output: No space left on device\n"), "\(result.err)")
        }
        let images = packageRoot().appendingPathComponent("Tests/Fixtures/images").path
        let show = try run(["show", "--protocol", "sixel", "--size", "50x50", "\(images)/p01_china_640x427.jpg"], stdout: full)
        #expect(show.status == 1 && show.err == "pxview: cannot write to standard output: No space left on device\n")
    }

    @Test func aClosedStdoutIsExitOne() throws {
        let result = try run(["search", "--offline"], stdout: nil)
        #expect(result.status == 1)
        #expect(result.err.hasSuffix("pxview: cannot write to standard output: Bad file descriptor\n"))
    }

    @Test func aReaderThatLeavesIsQuiet() throws {
        let pipe = Pipe()
        pipe.fileHandleForReading.closeFile()
        let result = try run(["search", "--offline", "--json"], stdout: pipe.fileHandleForWriting)
        #expect(result.err.isEmpty || result.err == noAPIKeyHint + "\n")
        // Ended by SIGPIPE, as `cat` and the rest are (the shell says 141).
        #expect(result.signalled && result.status == SIGPIPE)
    }
}
