import Foundation
import Testing

/// File names are bytes: `caf\xe9.jpg` (Latin-1, not UTF-8) is read and
/// written as named, and shown with U+FFFD in messages.
@Suite struct ByteNameTests {
    /// Runs a shell script in the sandbox's work folder with `$PXVIEW` set.
    private func shell(_ sandbox: CLISandbox, _ script: String) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = sandbox.baseEnvironment
        environment["PXVIEW"] = try pxviewExecutable()
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.workDirectory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func aLatin1NameIsShown() throws {
        let sandbox = try CLISandbox()
        let jpeg = packageRoot().appendingPathComponent("Tests/Fixtures/images/p01_china_640x427.jpg").path
        let result = try shell(
            sandbox,
            """
            name=$(printf 'caf\\351.jpg'); cp '\(jpeg)' "$name" || exit 9
            "$PXVIEW" show --size 40x40 "$name"
            """)
        #expect(result.status == 0, "\(result.err)")
        // Described (not a terminal), the name shown safely.
        #expect(result.out.hasPrefix("caf\u{FFFD}.jpg: JPEG 640x427"))
        let missing = try shell(sandbox, #""$PXVIEW" show "$(printf 'nope\351.jpg')""#)
        #expect(missing.status == 1)
        #expect(missing.err == "pxview: cannot read nope\u{FFFD}.jpg: no such file\n")
    }

    @Test func aLatin1OutputNameIsWrittenAsGiven() throws {
        let sandbox = try CLISandbox()
        let result = try shell(
            sandbox,
            """
            "$PXVIEW" save 1000013 --offline --size preview --out "$(printf 'out\\351.jpg')" || exit 8
            test -f "$(printf 'out\\351.jpg')" || exit 7
            test ! -e 'out\u{FFFD}.jpg' || exit 6
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("saved out\u{FFFD}.jpg ("))
    }
}
