import Foundation
import Plumbing
import Testing

/// Programs run without a shell: their output read back, their input fed,
/// and how they ended told apart.
@Suite struct SubprocessTests {
    @Test func outputComesBackOnlyFromAProgramThatSucceeds() {
        #expect(Subprocess.output(["echo", "on"]) == "on\n")
        #expect(Subprocess.output(["printf", "%s", "a;b $HOME"]) == "a;b $HOME")
        #expect(Subprocess.output(["false"]) == nil)
        #expect(Subprocess.output(["/no/such/program"]) == nil)
        #expect(Subprocess.output([]) == nil)
        #expect(Subprocess.output(["head", "-c", "5000", "/dev/zero"], limit: 100)?.utf8.count == 100)
    }

    /// The input arrives whole on the child's stdin; a child that reads
    /// none of it (and ignores SIGPIPE's default no more than any program)
    /// is no error; exit statuses and signals come back as they were.
    @Test func aChildGetsItsInputAndItsEndingIsTold() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("copy").path
        let input = Array("/photos/a.jpg\n/photos/b b.jpg\n".utf8)
        #expect(Subprocess.run(["sh", "-c", "cat > \"$1\"", "sh", copy], input: input) == .exited(0))
        #expect(FileManager.default.contents(atPath: copy).map { Array($0) } == input)
        let large = [UInt8](repeating: 65, count: 1 << 20)
        #expect(Subprocess.run(["true"], input: large) == .exited(0))
        #expect(Subprocess.run(["sh", "-c", "exit 3"], input: []) == .exited(3))
        #expect(Subprocess.run(["sh", "-c", "kill -TERM $$"], input: []) == .signalled(SIGTERM))
        #expect(Subprocess.run([directory.appendingPathComponent("missing").path], input: []) == .notStarted(ENOENT))
        #expect(Subprocess.run([copy], input: []) == .notStarted(EACCES))
    }
}
