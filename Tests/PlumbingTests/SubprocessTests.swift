import Foundation
import Plumbing
import TestSupport
import Testing

/// Programs run without a shell: their output read back, their input fed,
/// and how they ended told apart. One at a time, and taking turns with
/// other tests of signal dispositions (`SignalDispositions`): `run` sets
/// process-wide ones, which two runs at once would restore out of order.
@Suite(.serialized) struct SubprocessTests {
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
        #expect(run(["sh", "-c", "cat > \"$1\"", "sh", copy], input: input) == .exited(0))
        #expect(FileManager.default.contents(atPath: copy).map { Array($0) } == input)
        let large = [UInt8](repeating: 65, count: 1 << 20)
        #expect(run(["true"], input: large) == .exited(0))
        #expect(run(["sh", "-c", "exit 3"], input: []) == .exited(3))
        #expect(run(["sh", "-c", "kill -TERM $$"], input: []) == .signalled(SIGTERM))
        #expect(run([directory.appendingPathComponent("missing").path], input: []) == .notStarted(ENOENT))
        #expect(run([copy], input: []) == .notStarted(EACCES))
    }

    /// A Ctrl-C typed while the key handler starts must not end pxview:
    /// SIGINT and SIGQUIT are ignored before the child exists, so it finds
    /// them ignored in its parent before it reads a byte of the input
    /// (1 MB: more than the socket holds, so `run` is still sending), and
    /// they are as they were once it has been waited for. The child has
    /// them at their defaults.
    @Test func interruptsAreIgnoredFromBeforeTheSpawnUntilTheWait() throws {
        ProcessSignals.install()
        try SignalDispositions.exclusively { try interruptsIgnored() }
    }

    private func interruptsIgnored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-signals-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("ignored").path
        // The shell's own `read`: no program is started before the check.
        let script = """
            for pid in $PPID $$; do
              while read -r key value; do [ "$key" = SigIgn: ] && echo "$value"; done < /proc/$pid/status
            done > "$1"
            exec cat > /dev/null
            """
        let before = [SIGINT, SIGQUIT].map(handler)
        let input = [UInt8](repeating: 65, count: 1 << 20)
        #expect(Subprocess.run(["sh", "-c", script, "sh", report], input: input) == .exited(0))
        #expect([SIGINT, SIGQUIT].map(handler) == before)
        let masks = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").compactMap {
            UInt64($0, radix: 16)
        }
        let interrupts: UInt64 = 1 << (SIGINT - 1) | 1 << (SIGQUIT - 1)
        #expect(masks.count == 2)
        #expect(masks.first.map { $0 & interrupts } == interrupts, "ignored by pxview: \(masks)")
        #expect(masks.last.map { $0 & interrupts } == 0, "ignored by the child: \(masks)")
    }

    /// `Subprocess.run`, taking turns with other tests of dispositions.
    /// pxview's own handlers are installed first, outside any run: installed
    /// lazily by some other test while a run ignored SIGINT, they would be
    /// left ignoring it and then restored to the default.
    private func run(_ arguments: [String], input: [UInt8]) -> Subprocess.Ending {
        ProcessSignals.install()
        return SignalDispositions.exclusively { Subprocess.run(arguments, input: input) }
    }

    /// The handler `signal` has now, as an address (SIG_DFL is nil, SIG_IGN 1).
    private func handler(_ signal: Int32) -> UnsafeRawPointer? {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self)
    }
}
