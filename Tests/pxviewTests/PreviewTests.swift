import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 18: pxview as a file manager's previewer. The host (lf, fzf) owns
/// the terminal: pxview must ask it nothing, read nothing, draw in one
/// write that leaves the cursor where it was, and take away only its own.
@Suite(.serialized) struct PreviewTests {
    static let photo = ReliabilityTests.photo
    static let queries = ["\u{1B}[c", "\u{1B}[>q", "\u{1B}]11;?", "_Gi=31", "$p", "\u{1B}[16t", "\u{1B}[14t", "\u{1B}[6n"]

    static func environment(_ extra: [String: String], runtime: TemporaryDirectory) -> [String: String] {
        var environment = PseudoTerminalSession.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["PATH"] = PseudoTerminalSession.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        return environment.merging(extra) { $1 }
    }

    /// `script` run by /bin/sh on a 24x80 terminal, as a host's shell runs previews.
    static func shell(
        _ script: String, emulation: PseudoTerminalSession.Emulation, environment: [String: String],
        controllingTerminal: Bool = false
    ) throws -> PseudoTerminalSession {
        try PseudoTerminalSession(
            arguments: ["-c", script], emulation: emulation, rows: 24, columns: 80,
            executable: URL(fileURLWithPath: "/bin/sh"), environment: environment,
            controllingTerminal: controllingTerminal)
    }

    /// Bytes typed at the terminal meanwhile stay there for the host.
    func unreadInput(_ session: PseudoTerminalSession) -> [UInt8] {
        let fd = open(session.slavePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    @Test(arguments: ["sixel", "kitty", "blocks"])
    func aPreviewAsksNothingReadsNothingAndLeavesTheCursorWhereItWas(protocol name: String) throws {
        let runtime = try TemporaryDirectory()
        let session = try PseudoTerminalSession(
            arguments: ["show", "--once", "--place", "20x8@10,2", Self.photo], emulation: .sixel, rows: 24, columns: 80,
            environment: Self.environment(["PXVIEW_PROTOCOL": name], runtime: runtime))
        // The host's keys, typed meanwhile (no echo, so the output is pxview's alone).
        session.setEcho(false)
        session.send("jk\n")
        #expect(session.waitForExit() == 0)
        let output = session.output
        let text = String(decoding: output, as: UTF8.self)
        // kitty: a nudge follows, which has kitty 0.48 draw the picture.
        let nudge = "\u{1B}_Ga=d,d=i,i=4294967295,q=2\u{1B}\\"
        #expect(text.hasPrefix("\u{1B}7"))
        #expect(text.hasSuffix(name == "kitty" ? "\u{1B}8" + nudge : "\u{1B}8"), "one placement, cursor saved and restored")
        for query in Self.queries { #expect(!text.contains(query), "\(query.debugDescription) sent") }
        #expect(unreadInput(session) == Array("jk\n".utf8), "the host's keys were read")
        // Drawn inside the box: every cursor position is in rows 3-10, columns 11-30.
        for match in text.matches(of: /\x1B\[(\d+);(\d+)H/) {
            let row = Int(match.1)!
            let column = Int(match.2)!
            #expect((3...10).contains(row) && (11...30).contains(column), "\(row);\(column)")
        }
    }

    /// As lf runs it: standard input /dev/null, standard output a pipe (which
    /// keeps only colour codes). The picture goes to the terminal itself;
    /// the pipe gets nothing.
    @Test func withStdoutAPipeThePictureGoesToTheTerminal() throws {
        let runtime = try TemporaryDirectory()
        let out = runtime.file("stdout")
        let session = try Self.shell(
            "exec pxview show --once --place 20x8@10,2 '\(Self.photo)' </dev/null >'\(out)' 2>&1", emulation: .sixel,
            environment: Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime), controllingTerminal: true)
        #expect(session.waitForExit() == 0)
        #expect(session.output.containsSequence(Array("\u{1B}P0;1;0q".utf8)))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: out)))?.isEmpty == true)
    }

    /// A preview whose stdout is not the terminal (lf's pipe, /dev/null)
    /// draws on `/dev/tty`, and still finds what an earlier pxview on the
    /// same terminal learnt: sixel here, with nothing in the environment.
    /// `pxview doctor >/dev/null` (a line in a shell's rc) primes it too:
    /// doctor asks the terminal itself whatever its standard output.
    @Test(arguments: [
        "pxview show --once --size 40x30 '\(photo)'", "pxview doctor >/dev/null 2>&1", "pxview doctor --prime",
    ])
    func aPreviewOnDevTTYRemembersTheTerminal(priming: String) throws {
        let runtime = try TemporaryDirectory()
        let session = try Self.shell(
            "\(priming) && printf 'PREVIEW-NEXT' && "
                + "pxview show --once --place 20x8@10,2 '\(Self.photo)' </dev/null >/dev/null 2>&1", emulation: .sixel,
            environment: Self.environment([:], runtime: runtime), controllingTerminal: true)
        #expect(session.waitForExit() == 0)
        let text = String(decoding: session.output, as: UTF8.self)
        let marker = try #require(text.range(of: "PREVIEW-NEXT"))
        let preview = String(text[marker.upperBound...])
        #expect(preview.contains("\u{1B}P0;1;0q"), "the preview drew sixel")
        for query in Self.queries { #expect(!preview.contains(query), "\(query.debugDescription) sent") }
    }

    /// `pxview doctor --prime` (for a shell's rc) asks a terminal only once:
    /// the next shell's finds it known, asks nothing and prints nothing.
    @Test func primingAsksOnlyOnce() throws {
        let runtime = try TemporaryDirectory()
        let session = try Self.shell(
            "pxview doctor --prime && printf '|' && pxview doctor --prime && printf '|'", emulation: .sixel,
            environment: Self.environment([:], runtime: runtime), controllingTerminal: true)
        #expect(session.waitForExit() == 0)
        let parts = String(decoding: session.output, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.first?.contains("\u{1B}[c") == true, "the first asked")
        #expect(parts.dropFirst().first == "", "the second asked and printed nothing")
    }

    /// `clear` removes pxview's picture only: kitty's by the preview's own
    /// image id, sixel's by blanking the box, the last preview's box when
    /// none is given (remembered for this terminal).
    @Test func clearTakesAwayOnlyPxviewsPreview() throws {
        let runtime = try TemporaryDirectory()
        let kitty = try Self.shell(
            "pxview show --once --place 3x2@10,2 '\(Self.photo)' && printf '|' && pxview clear --place 20x8@10,2 "
                + "&& printf '|' && pxview clear", emulation: .kitty,
            environment: Self.environment(["PXVIEW_PROTOCOL": "kitty"], runtime: runtime))
        #expect(kitty.waitForExit() == 0)
        let parts = String(decoding: kitty.output, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let id = try #require(parts.first?.firstMatch(of: /a=T,f=100,i=(\d+),p=1,C=1,q=2/)?.1)
        #expect(parts.dropFirst().first == "\u{1B}7\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\\u{1B}8")
        // Cleared already: nothing more to take away.
        #expect(parts.last == "")
        // With nothing remembered, every id previews use goes.
        let fresh = try PseudoTerminalSession(
            arguments: ["clear"], emulation: .kitty,
            environment: Self.environment(["PXVIEW_PROTOCOL": "kitty"], runtime: try TemporaryDirectory()))
        #expect(fresh.waitForExit() == 0)
        #expect(String(decoding: fresh.output, as: UTF8.self).contains("d=R,x=4278190081,y=4278190335"))

        let shell = try Self.shell(
            "pxview show --once --place 3x2@10,2 '\(Self.photo)' && printf '|' && pxview clear", emulation: .sixel,
            environment: Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime))
        #expect(shell.waitForExit() == 0)
        let cleared = String(decoding: shell.output, as: UTF8.self).split(separator: "|").last.map(String.init)
        #expect(cleared == "\u{1B}7\u{1B}[3;11H\u{1B}[0m\u{1B}[3X\u{1B}[4;11H\u{1B}[0m\u{1B}[3X\u{1B}8")
    }

    /// Previews replacing one another in one box (what lf, fzf and ranger
    /// do) never reuse a kitty image id, and each deletes the one before
    /// only after it is placed; a `clear` that started before the last
    /// preview (lf runs both at once) leaves it alone.
    @Test func kittyPreviewsTakeTurnsBetweenIdsAndAnOlderClearLeavesTheNewest() throws {
        let runtime = try TemporaryDirectory()
        let environment = Self.environment(["PXVIEW_PROTOCOL": "kitty"], runtime: runtime)
        let shell = try Self.shell(
            "pxview show --once --place 20x8@10,2 '\(Self.photo)' '\(Self.photo)' && printf '|' && "
                + "pxview show --once --place 20x8@10,2 '\(Self.photo)'", emulation: .kitty, environment: environment)
        #expect(shell.waitForExit() == 0)
        let text = String(decoding: shell.output, as: UTF8.self)
        let placed = text.matches(of: /a=T,f=100,i=(\d+),/).compactMap { UInt32($0.1) }
        let deleted = text.matches(of: /a=d,d=I,i=(\d+),/).compactMap { UInt32($0.1) }
        #expect(placed.count == 3 && Set(placed).count == 3)
        #expect(placed.allSatisfy { (0xFF00_0001...0xFF00_00FF).contains($0) })
        #expect(deleted == Array(placed.prefix(2)))
        // Each deletion comes after the next picture's placement.
        #expect(text.range(of: "d=I,i=\(placed[0])")!.lowerBound > text.range(of: "i=\(placed[1]),")!.lowerBound)
        #expect(text.range(of: "d=I,i=\(placed[1])")!.lowerBound > text.range(of: "i=\(placed[2]),")!.lowerBound)

        // A clear that started before the last preview was remembered
        // (its record made to say it started ten minutes from now).
        let clear = try Self.shell(
            "pxview show --once --place 20x8@10,2 '\(Self.photo)' && "
                + "sed -i \"s/^started=.*/started=$(( $(date +%s%3N) + 600000 ))/\" \"$XDG_RUNTIME_DIR\"/pxview/preview-* && "
                + "printf '|' && pxview clear --place 20x8@10,2 && printf '|'", emulation: .kitty, environment: environment)
        #expect(clear.waitForExit() == 0)
        #expect(String(decoding: clear.output, as: UTF8.self).hasSuffix("||"), "the newer preview was left alone")
    }

    /// A preview still decoding when a clear starts (lf's cleaner as the
    /// selection moves onto a text file) draws nothing: the clear's time,
    /// made here to be ten minutes on, is after the preview's start.
    @Test func aPreviewThatAClearStartedAfterDrawsNothing() throws {
        let runtime = try TemporaryDirectory()
        let session = try Self.shell(
            "pxview clear && sed -i \"s/^last-clear=.*/last-clear=$(( $(date +%s%3N) + 600000 ))/\" "
                + "\"$XDG_RUNTIME_DIR\"/pxview/preview-???????????????? && printf '|' && "
                + "pxview show --once --place 20x8@10,2 '\(Self.photo)' && printf '|'", emulation: .kitty,
            environment: Self.environment(["PXVIEW_PROTOCOL": "kitty"], runtime: runtime))
        #expect(session.waitForExit() == 0)
        let text = String(decoding: session.output, as: UTF8.self)
        #expect(text.hasSuffix("||"), "nothing drawn: \(text.suffix(80).debugDescription)")
    }

    /// Inside tmux the box is the pane's, drawn at the pane's place on the
    /// outer screen (inside the passthrough), whichever pane is active.
    @Test func insideTmuxTheBoxIsThePanes() throws {
        let runtime = try TemporaryDirectory()
        let tmux = try FakeTmux(pane: .init(left: 41, top: 3, width: 39, height: 20, active: false))
        let session = try PseudoTerminalSession(
            arguments: ["show", "--once", "--place", "20x8@10,2", "--align", "top-left", Self.photo], emulation: .sixel,
            rows: 20, columns: 39,
            environment: tmux.environment.merging(["PXVIEW_PROTOCOL": "sixel", "XDG_RUNTIME_DIR": runtime.path]) { $1 })
        #expect(session.waitForExit() == 0)
        let text = String(decoding: session.output, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}7\u{1B}[3;11H\u{1B}[0m\u{1B}[20X"))
        #expect(text.contains("\u{1B}Ptmux;\u{1B}\u{1B}[?25l\u{1B}\u{1B}[r\u{1B}\u{1B}[6;52H\u{1B}\u{1B}P0;1;0q"))
        #expect(text.hasSuffix("\u{1B}8"))
    }

    /// A FIFO named like a photo (`mkfifo pipe.png`) is refused at once,
    /// by a preview, the viewer and a drawing alike: opening it to read
    /// had waited for a writer for ever. Devices are refused too.
    @Test(arguments: [["show", "--once", "--place", "20x8@10,2"], ["show"], ["show", "--once"]])
    func aFIFOOrADeviceIsOneLineAtOnce(command: [String]) throws {
        let runtime = try TemporaryDirectory()
        let fifo = runtime.file("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/zero", "a device")] {
            let session = try PseudoTerminalSession(
                arguments: command + [path], emulation: .sixel,
                environment: Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime))
            #expect(session.waitForExit() == 1)
            // The message, after whatever the start asked of the terminal.
            let lines = String(decoding: session.output, as: UTF8.self).split(separator: "\r\n").compactMap { line in
                line.range(of: "pxview: ").map { String(line[$0.lowerBound...]) }
            }
            #expect(lines == ["pxview: cannot read \(path): not a regular file (\(kind))"])
            #expect(!session.output.containsSequence(Array("\u{1B}P".utf8)))
        }
    }

    /// A box on the window's last row is inside it: drawn (as text where a
    /// sixel would scroll the screen); `clear` of a box larger than the
    /// window blanks only what is inside it.
    @Test func theLastRowIsInsideAndClearStaysInTheWindow() throws {
        let runtime = try TemporaryDirectory()
        let environment = Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime)
        let preview = try PseudoTerminalSession(
            arguments: ["show", "--once", "--place", "10x10@0,23", Self.photo], emulation: .sixel, rows: 24, columns: 80,
            environment: environment)
        #expect(preview.waitForExit() == 0)
        let drawn = String(decoding: preview.output, as: UTF8.self)
        #expect(drawn.contains("\u{1B}[24;1H") && !drawn.contains("\u{1B}P"), "a text picture on row 24")
        let clear = try PseudoTerminalSession(
            arguments: ["clear", "--place", "2048x2048@0,0"], emulation: .sixel, rows: 24, columns: 80,
            environment: environment)
        #expect(clear.waitForExit() == 0)
        let erased = String(decoding: clear.output, as: UTF8.self)
        #expect(erased.components(separatedBy: "\u{1B}[80X").count - 1 == 24)
        #expect(!erased.contains("\u{1B}[25;") && !erased.contains("2048X"))
    }

    /// A file that is not an image: one line naming it, exit 1, nothing drawn.
    @Test func aBadFileIsOneLineAndNothingDrawn() throws {
        let runtime = try TemporaryDirectory()
        let text = runtime.file("notes.txt")
        try "just text".write(toFile: text, atomically: true, encoding: .utf8)
        let session = try PseudoTerminalSession(
            arguments: ["show", "--once", "--place", "20x8@10,2", text], emulation: .sixel,
            environment: Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime))
        #expect(session.waitForExit() == 1)
        let output = String(decoding: session.output, as: UTF8.self)
        #expect(output.hasPrefix("pxview: cannot decode \(text): not a"))
        #expect(!output.contains("\u{1B}P"))
    }

    /// The recipes in contrib/ are what users copy: each shell script
    /// parses, and lf's previewer and cleaner, run as lf runs them (`FILE W
    /// H X Y`, stdin /dev/null, stdout a pipe), draw into the box less lf's
    /// border column, exit 1 (so lf calls the cleaner) and clear only it.
    @Test func theRecipesRunAsTheirHostsRunThem() throws {
        let contrib = packageRoot().appendingPathComponent("contrib").path
        for script in ["lf/pxview-preview", "lf/pxview-clean", "fzf/pxview-fzf-preview", "nnn/preview-pxview", "ranger/scope.sh"]
        {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/bin/sh")
            check.arguments = ["-n", "\(contrib)/\(script)"]
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "\(script) does not parse")
            #expect(access("\(contrib)/\(script)", X_OK) == 0, "\(script) is not executable")
        }
        let runtime = try TemporaryDirectory()
        let out = runtime.file("stdout")
        let environment = Self.environment(["PXVIEW_PROTOCOL": "sixel"], runtime: runtime)
        let preview = try Self.shell(
            "'\(contrib)/lf/pxview-preview' '\(Self.photo)' 21 8 10 2 </dev/null >'\(out)'", emulation: .sixel,
            environment: environment, controllingTerminal: true)
        #expect(preview.waitForExit() == 1)
        let drawn = String(decoding: preview.output, as: UTF8.self)
        #expect(drawn.hasPrefix("\u{1B}7\u{1B}[3;11H\u{1B}[0m\u{1B}[20X") && drawn.hasSuffix("\u{1B}8"), "a 20-column box")
        #expect(drawn.contains("\u{1B}P0;1;0q"))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: out)))?.isEmpty == true)

        let clean = try Self.shell(
            "'\(contrib)/lf/pxview-clean' '\(Self.photo)' 21 2 10 2", emulation: .sixel, environment: environment,
            controllingTerminal: true)
        #expect(clean.waitForExit() == 0)
        #expect(
            String(decoding: clean.output, as: UTF8.self)
                == "\u{1B}7\u{1B}[3;11H\u{1B}[0m\u{1B}[20X\u{1B}[4;11H\u{1B}[0m\u{1B}[20X\u{1B}8")
    }
}
