import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `tmux` on `PATH` that plays tmux's answers from files the test
/// changes: `show` prints `passthrough`, `display` prints `pane` (the
/// answer to `Tmux.paneFormat`).
final class FakeTmux: @unchecked Sendable {
    let directory: TemporaryDirectory

    init(passthrough: String = "on", pane: Pane = Pane()) throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("bin"), withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            case "$1" in
              show) cat '\(directory.file("passthrough"))' ;;
              display) echo >> '\(directory.file("displays"))'; cat '\(directory.file("pane"))' ;;
              refresh-client) echo "$*" >> '\(directory.file("refreshes"))' ;;
              *) exit 1 ;;
            esac

            """
        try script.write(toFile: directory.file("bin/tmux"), atomically: true, encoding: .utf8)
        chmod(directory.file("bin/tmux"), 0o755)
        try passthrough.write(toFile: directory.file("passthrough"), atomically: true, encoding: .utf8)
        set(pane)
    }

    /// pxview's pane as tmux would describe it.
    struct Pane {
        var left = 0
        var top = 0
        var width = 60
        var height = 20
        var active = true
        var windowActive = true
        var termType = "XTerm(379)"
        /// The tmux client's terminal device (the outer terminal).
        var clientTTY = "/dev/null"

        var answer: String {
            "\(left)\t\(top)\t\(width)\t\(height)\t\(active ? 1 : 0)\t\(windowActive ? 1 : 0)\t0\t1\t8\t16\ton\tbottom\t"
                + "\(clientTTY)\t\(termType)\n"
        }
    }

    func set(_ pane: Pane) {
        try? pane.answer.write(toFile: directory.file("pane"), atomically: true, encoding: .utf8)
    }

    /// How many times pxview has asked where its pane is.
    var displays: Int {
        ((try? String(contentsOfFile: directory.file("displays"), encoding: .utf8)) ?? "").count
    }

    /// Waits (at most `seconds`) until pxview has asked tmux `count` more
    /// times: it has seen what the test set before.
    @discardableResult
    func waitForAsks(_ count: Int = 2, seconds: Double = 20) -> Bool {
        let target = displays + count
        let deadline = Date().addingTimeInterval(seconds)
        while displays < target, Date() < deadline { usleep(20_000) }
        return displays >= target
    }

    /// The `refresh-client` commands pxview ran, one a line.
    var refreshes: [String] {
        ((try? String(contentsOfFile: directory.file("refreshes"), encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// pxview's environment inside this tmux.
    var environment: [String: String] {
        var environment = PseudoTerminalSession.environment
        environment["PATH"] = directory.file("bin") + ":/usr/bin:/bin"
        environment["TMUX"] = "/tmp/tmux-fake/default,1,0"
        environment["TMUX_PANE"] = "%1"
        environment["TERM"] = "tmux-256color"
        return environment
    }
}

extension Array where Element == UInt8 {
    /// How many times `needle` occurs not right after an ESC (a query sent
    /// raw, not wrapped in passthrough where every ESC is doubled).
    func rawOccurrences(of needle: String) -> Int {
        let bytes = Array(needle.utf8)
        var found = 0
        var index = 0
        while index + bytes.count <= count {
            if self[index..<(index + bytes.count)].elementsEqual(bytes), index == 0 || self[index - 1] != 0x1B {
                found += 1
                index += bytes.count
            } else {
                index += 1
            }
        }
        return found
    }
}

/// Issue 17: pictures stay in their own pane. pxview runs on a pty with a
/// fake tmux on PATH; the test plays the outer terminal behind it.
@Suite(.serialized) struct TmuxPaneTests {
    static let sixelInPassthrough = "\u{1B}Ptmux;\u{1B}\u{1B}[?25l\u{1B}\u{1B}[r\u{1B}\u{1B}["

    /// Every picture is placed, inside its passthrough, at the pane's place
    /// on the outer screen plus its cell: with the pane at column 41 each
    /// sixel lands at column 42 or beyond. No fence is sent (no raw DA1):
    /// pictures land in pxview's pane whichever pane is active.
    @Test func picturesArePlacedInThePaneWithoutAFence() throws {
        // Active at start (the probe asks the terminal), not after: a split.
        let tmux = try FakeTmux(pane: .init(left: 41, width: 40, active: true))
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 20, columns: 40, environment: tmux.environment)
        #expect(session.waitFor(Self.sixelInPassthrough + "3;"))
        tmux.set(.init(left: 41, width: 40, active: false))
        usleep(500_000)
        let text = String(decoding: session.output, as: UTF8.self)
        let columns = text.matches(of: /\x1BPtmux;\x1B\x1B\[\?25l\x1B\x1B\[r\x1B\x1B\[(\d+);(\d+)H\x1B\x1BP0;1;0q/).map {
            Int($0.2)!
        }
        #expect(!columns.isEmpty && columns.allSatisfy { $0 >= 42 }, "\(columns)")
        #expect(session.output.rawOccurrences(of: "\u{1B}[c") == 0, "no fence, no raw query")
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// Another window: nothing is drawn while it is shown (a key moving the
    /// selection sends no picture); back again, the pictures come back
    /// without a key (within 300 ms of tmux saying so, `PaneWatch`; the
    /// test waits for what it checks, so a busy machine only makes it slower).
    @Test func nothingIsDrawnWhileHiddenAndEverythingComesBack() throws {
        let tmux = try FakeTmux()
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 20, columns: 60, environment: tmux.environment)
        #expect(session.waitFor(Self.sixelInPassthrough))
        #expect(session.waitForQuiet(quietMs: 600))
        tmux.set(.init(windowActive: false))
        #expect(tmux.waitForAsks(), "pxview asked tmux where its pane is")
        #expect(session.waitForQuiet(quietMs: 300))
        let hidden = session.output.count
        session.send("l")
        #expect(tmux.waitForAsks())
        #expect(session.waitForQuiet(quietMs: 500))
        #expect(!Array(session.output[hidden...]).containsSequence(Array("P0;1;0q".utf8)), "a picture while hidden")
        tmux.set(.init())
        let back = session.output.count
        let deadline = Date().addingTimeInterval(20)
        var redrawn = false
        while Date() < deadline, !redrawn {
            usleep(20_000)
            redrawn = Array(session.output[back...]).containsSequence(Array("P0;1;0q".utf8))
        }
        #expect(redrawn, "pictures back, no key pressed")
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// A split while pictures are on their way: a sixel frame written just
    /// before it reached the terminal after tmux had cleared the screen,
    /// and its pixels stayed over the new pane (xterm, a GIF playing). So
    /// once the relayout has settled, tmux draws its whole screen again,
    /// for sixel only: kitty's pictures go with their placements.
    @Test(arguments: [true, false])
    func aRelayoutHasTmuxRedrawItsScreenForSixel(sixel: Bool) throws {
        let tmux = try FakeTmux(pane: .init(termType: sixel ? "XTerm(379)" : "kitty(0.26.5)"))
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: sixel ? .sixel : .kitty, rows: 20, columns: 60,
            environment: tmux.environment)
        #expect(session.waitFor(sixel ? "P0;1;0q" : "\u{1B}\u{1B}_Ga=t"))
        #expect(session.waitForQuiet(quietMs: 600))
        #expect(tmux.refreshes.isEmpty, "no redraw without a relayout")
        tmux.set(.init(width: 30, termType: sixel ? "XTerm(379)" : "kitty(0.26.5)"))
        session.resize(rows: 20, columns: 30, xpixel: 240, ypixel: 320)
        let deadline = Date().addingTimeInterval(sixel ? 20 : 0)
        while Date() < deadline, tmux.refreshes.isEmpty { usleep(20_000) }
        // kitty: none, once the relayout has settled and its redraw is past.
        if !sixel {
            tmux.waitForAsks(3)
            #expect(session.waitForQuiet(quietMs: 600))
        }
        #expect(tmux.refreshes == (sixel ? ["refresh-client -t /dev/null"] : []))
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// Started in a pane that is not the active one: the outer terminal's
    /// answers would be typed into the active pane, so nothing is asked.
    /// tmux's word for the terminal says kitty, so kitty is drawn.
    @Test func aPaneNotActiveAtStartAsksNothing() throws {
        let xterm = try FakeTmux(pane: .init(active: false))
        let blocks = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 20, columns: 100, environment: xterm.environment)
        #expect(blocks.waitFor("the terminal was not asked (? for why)"))
        #expect(!blocks.output.containsSequence(Array("[c".utf8)), "no DA1, wrapped or not")
        blocks.send("q")
        #expect(blocks.waitForExit() == 0)

        let kitty = try FakeTmux(pane: .init(active: false, termType: "kitty(0.26.5)"))
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .kitty, rows: 20, columns: 60, environment: kitty.environment)
        #expect(session.waitFor("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t"))
        #expect(!session.output.containsSequence(Array("[c".utf8)))
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// Started in a pane not active (`tmux split-window -d pxview`): text,
    /// nothing asked; once tmux says the pane is active, the terminal is
    /// asked and real pixels come, without a key (and with one, at once).
    @Test(arguments: [false, true])
    func aPaneNotActiveAtStartAsksOnceActiveAndDrawsPixels(withKey: Bool) throws {
        let tmux = try FakeTmux(pane: .init(active: false))
        // SIGQUIT below: Swift's backtracer would otherwise wait on the pty.
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 20, columns: 100,
            environment: tmux.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 })
        #expect(session.waitFor("the terminal was not asked (? for why)"))
        usleep(700_000)
        #expect(!session.output.containsSequence(Array("[c".utf8)), "nothing asked while another pane is active")
        tmux.set(.init(active: true))
        if withKey { session.send("l") }
        #expect(session.waitFor(Self.sixelInPassthrough, seconds: 20), "sixel pictures once the pane is active")
        #expect(session.output.containsSequence(Array("[c".utf8)), "the terminal was asked")
        // The late probe left the explorer's terminal recorded: a crash
        // signal, which is handled by what is recorded alone, still puts
        // everything back (a session of the probe's own had replaced it).
        kill(session.process.processIdentifier, SIGQUIT)
        #expect(session.waitForExit() != nil)
        #expect(endedBySignal(session.process, SIGQUIT))
        expectRestored(session)
    }

    /// The viewer the same way: once asked, the photo is drawn as sixel at
    /// the view's size, not the text picture's few pixels scaled up.
    @Test func aViewerInAPaneNotActiveDrawsItsPhotoWholeOnceActive() throws {
        let tmux = try FakeTmux(pane: .init(width: 100, active: false))
        let session = try PseudoTerminalSession(
            arguments: ["show", ReliabilityTests.photo], emulation: .sixel, rows: 20, columns: 100,
            environment: tmux.environment)
        #expect(session.waitFor("the terminal was not asked"))
        tmux.set(.init(width: 100, active: true))
        #expect(session.waitFor(Self.sixelInPassthrough, seconds: 20))
        #expect(session.waitForQuiet(quietMs: 800))
        let text = String(decoding: session.output, as: UTF8.self)
        let widths = text.matches(of: /P0;1;0q"1;1;(\d+);(\d+)/).compactMap { Int($0.1) }
        // 100x19 cells of 8x16 px: the 640x427 photo fits 455x304 px.
        #expect((widths.max() ?? 0) >= 400, "\(widths)")
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// Over SSH from a tmux pane (no `$TMUX`, `TERM=tmux-256color`): tmux
    /// answers XTVERSION for itself, so every query goes wrapped and a raw
    /// kitty query never reaches tmux (it would become the pane title).
    /// Passthrough on: sixel; off: text (symbols), said on the status line.
    @Test(arguments: [true, false])
    func aRemoteTmuxIsKnownByItsOwnAnswer(passthrough: Bool) throws {
        var environment = PseudoTerminalSession.environment
        environment["TERM"] = "tmux-256color"
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .remoteTmux(passthrough: passthrough, outer: .sixel), rows: 20, columns: 100,
            environment: environment)
        if passthrough {
            // Pictures follow pxview's own keys there: one says its pane is the active one.
            #expect(session.waitFor("Search:"))
            usleep(300_000)
            session.send("l")
            #expect(session.waitFor("\u{1B}Ptmux;\u{1B}\u{1B}P0;1;0q"))
        } else {
            #expect(session.waitFor("tmux passthrough is off (? for why)"))
            #expect(session.waitFor("▄"))
        }
        #expect(session.output.rawOccurrences(of: "\u{1B}_G") == 0)
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// Every answer 400 ms late (a long SSH hop): still sixel, and no
    /// answer left over for the shell.
    @Test func aSlowTerminalStillGetsPictures() throws {
        let session = try PseudoTerminalSession(
            arguments: ["show", "--once", "--size", "160x120", ReliabilityTests.photo], emulation: .sixel, replyDelayMs: 400)
        #expect(session.waitFor(sixelStart))
        #expect(session.waitForExit() == 0)
    }

    /// A key typed at once, while the probe waits for a slow terminal's
    /// answers, is the explorer's first key: `q` quits (it was read with
    /// the answers and lost, and pxview ran on).
    @Test func aKeyTypedDuringTheProbeIsKept() throws {
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, replyDelayMs: 400)
        session.send("q")
        #expect(session.waitForExit(seconds: 10) == 0)
    }

    /// `pxview show --once x.jpg &`: the terminal's input belongs to the
    /// shell, so nothing is asked (every answer would land at its prompt).
    @Test func aBackgroundJobAsksNothing() throws {
        var environment = PseudoTerminalSession.environment
        environment["PATH"] = PseudoTerminalSession.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        environment["PS1"] = "PROMPT$ "
        let shell = try PseudoTerminalSession(
            arguments: ["--norc", "--noprofile", "--noediting", "-i"], emulation: .sixel, rows: 24, columns: 80,
            executable: URL(fileURLWithPath: "/bin/bash"), environment: environment, controllingTerminal: true)
        defer { for pid in descendants(of: shell.process.processIdentifier).reversed() { kill(pid, SIGKILL) } }
        #expect(shell.waitFor("PROMPT$ "))
        let before = shell.output.count
        shell.send("pxview show --once --size 80x60 \(ReliabilityTests.photo) & wait; echo done-$((1+1))\r")
        #expect(shell.waitFor("done-2"))
        let after = Array(shell.output[before...])
        #expect(!after.containsSequence(Array("\u{1B}[c".utf8)), "a query from the background")
        #expect(after.containsSequence(Array("▄".utf8)), "a text picture drawn")
        shell.send("exit\r")
        _ = shell.waitForExit(seconds: 5)
    }

    /// `pxview doctor` inside tmux: one line per finding, the pane, the
    /// passthrough, the probe's answer and time, the protocol and why.
    @Test func doctorSaysWhatItFoundInsideTmux() throws {
        let tmux = try FakeTmux(pane: .init(left: 41, width: 40))
        let session = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .sixel, rows: 20, columns: 100, environment: tmux.environment)
        #expect(session.waitForExit() == 0)
        let text = String(decoding: session.output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        #expect(text.contains("multiplexer       tmux, allow-passthrough on\n"))
        #expect(text.contains("tmux pane         at column 41, row 0 of the window, 40x20 cells, shown, active\n"))
        #expect(text.contains("protocol          sixel (auto: the terminal lists sixel in its DA1 answer"))
        #expect(text.contains("sixel             yes (DA1 ?62;4;22)\n"))
        #expect(text.contains("\nprobe             answered in "))

        try "off\n".write(toFile: tmux.directory.file("passthrough"), atomically: true, encoding: .utf8)
        let off = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .sixel, rows: 20, columns: 100, environment: tmux.environment)
        #expect(off.waitForExit() == 0)
        let offText = String(decoding: off.output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        #expect(offText.contains("protocol          symbols (auto: tmux passthrough is off)\n"))
        #expect(
            offText.contains(
                "glyphs            eighths, halves and quadrants (PXVIEW_SEXTANTS=1 adds sextants where the font has them)\n"))
        // tmux names the terminal outside though no query reaches it.
        #expect(offText.contains("terminal          XTerm(379) (tmux's client_termtype)\n"), "\(offText)")
        #expect(
            offText.contains(
                "fix               add 'set -g allow-passthrough on' to ~/.tmux.conf (tmux 3.3+) for sixel or kitty pictures\n"))

        // A C locale's text picture is coloured spaces: no block characters named.
        var cLocale = tmux.environment
        cLocale["LANG"] = "C"
        let ascii = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .sixel, rows: 20, columns: 100, environment: cLocale)
        #expect(ascii.waitForExit() == 0)
        let asciiText = String(decoding: ascii.output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        #expect(asciiText.contains("glyphs            none: coloured spaces (the locale is not UTF-8)\n"), "\(asciiText)")
    }

    /// A terminal that never answers, and a tmux without `$TMUX`: doctor
    /// names each, with the fix.
    @Test func doctorNamesATimeoutAndARemoteTmux() throws {
        var environment = PseudoTerminalSession.environment
        environment["PXVIEW_PROBE_TIMEOUT_MS"] = "300"
        let silent = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .silent, rows: 20, columns: 160, environment: environment)
        #expect(silent.waitForExit() == 0)
        let timedOut = Self.findings(silent.output)
        #expect(timedOut.contains("probe no answer within 300 ms (PXVIEW_PROBE_TIMEOUT_MS)\n"))
        #expect(timedOut.contains("protocol symbols (auto: the terminal did not answer)\n"))
        #expect(timedOut.contains("fix no answer within 300 ms: PXVIEW_PROBE_TIMEOUT_MS=5000 waits longer"))
        #expect(
            timedOut.contains(
                "previews symbols (show --place asks nothing: from nothing (no earlier probe, no telling variable))\n"))

        environment["PXVIEW_PROBE_TIMEOUT_MS"] = nil
        environment["TERM"] = "tmux-256color"
        let remote = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .remoteTmux(passthrough: true, outer: .kitty), rows: 20, columns: 160,
            environment: environment)
        #expect(remote.waitForExit() == 0)
        let text = Self.findings(remote.output)
        #expect(
            text.contains(
                "multiplexer tmux without $TMUX (a remote shell?): passthrough on (the outer terminal answered through it)\n"))
        #expect(text.contains("tmux answered tmux 3.3a\n"))
        #expect(text.contains("kitty graphics answered OK\n"))
        #expect(text.contains("kitty transfer through the terminal (inside tmux)\n"))
    }

    /// `pxview doctor > /dev/null` (a line in a shell's rc) asks the
    /// terminal itself and remembers it per outer terminal: a preview in
    /// another pane of the same tmux client (a new pty: nnn's preview
    /// pane) draws sixel from it; without it tmux's name for the terminal
    /// (xterm) would have given text.
    @Test func aProbePrimedInOnePaneIsFoundInAnother() throws {
        let tmux = try FakeTmux()
        let runtime = try TemporaryDirectory()
        var environment = tmux.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        let doctor = try PseudoTerminalSession(
            arguments: ["-c", "pxview doctor >/dev/null 2>&1"], emulation: .sixel, rows: 20, columns: 60,
            executable: URL(fileURLWithPath: "/bin/sh"),
            environment: environment.merging(["PATH": tmux.directory.file("bin") + ":" + Self.binaryFolder + ":/usr/bin:/bin"]) {
                $1
            }, controllingTerminal: true)
        #expect(doctor.waitForExit() == 0)
        #expect(doctor.output.containsSequence(Array("[c".utf8)), "doctor asked the terminal")
        environment["TMUX_PANE"] = "%2"
        let preview = try PseudoTerminalSession(
            arguments: [
                "-c", "pxview show --once --place 20x8@10,2 '\(ReliabilityTests.photo)' </dev/null >/dev/null 2>&1",
            ], emulation: .sixel, rows: 20, columns: 60, executable: URL(fileURLWithPath: "/bin/sh"),
            environment: environment.merging(["PATH": tmux.directory.file("bin") + ":" + Self.binaryFolder + ":/usr/bin:/bin"]) {
                $1
            }, controllingTerminal: true)
        #expect(preview.waitForExit() == 0)
        #expect(preview.output.containsSequence(Array("P0;1;0q".utf8)), "the preview drew sixel")
    }

    /// kitty previews in two panes of one tmux client (one kitty window,
    /// one id space) take turns in one sequence of ids: never the same one.
    @Test func previewsInTwoPanesTakeDifferentIds() throws {
        let tmux = try FakeTmux()
        let runtime = try TemporaryDirectory()
        var ids: [UInt32] = []
        for pane in ["%1", "%2"] {
            var environment = tmux.environment
            environment["TMUX_PANE"] = pane
            environment["XDG_RUNTIME_DIR"] = runtime.path
            environment["PXVIEW_PROTOCOL"] = "kitty"
            let session = try PseudoTerminalSession(
                arguments: ["show", "--once", "--place", "20x8@10,2", ReliabilityTests.photo], emulation: .kitty, rows: 20,
                columns: 60, environment: environment)
            #expect(session.waitForExit() == 0)
            let text = String(decoding: session.output, as: UTF8.self)
            // Inside tmux the upload (a=t) and its placement go apart.
            ids += text.matches(of: /a=t,f=100,i=(\d+),/).compactMap { UInt32($0.1) }
        }
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
        #expect(ids.count == 2 && ids[1] == (ids[0] == 0xFF00_00FF ? 0xFF00_0001 : ids[0] + 1))
    }

    /// `pxview doctor > report.txt` inside tmux with passthrough off says
    /// so (it asks the terminal, not standard output) and names the fix.
    @Test func doctorToAFileInsideTmuxTellsThePassthroughAsItIs() throws {
        let tmux = try FakeTmux(passthrough: "off")
        let runtime = try TemporaryDirectory()
        let report = runtime.file("report.txt")
        var environment = tmux.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["PATH"] = tmux.directory.file("bin") + ":" + Self.binaryFolder + ":/usr/bin:/bin"
        let session = try PseudoTerminalSession(
            arguments: ["-c", "pxview doctor > '\(report)'"], emulation: .sixel, rows: 20, columns: 100,
            executable: URL(fileURLWithPath: "/bin/sh"), environment: environment, controllingTerminal: true)
        #expect(session.waitForExit() == 0)
        let text = Self.findings(Array((try String(contentsOfFile: report, encoding: .utf8)).utf8))
        #expect(text.contains("passthrough off"), "\(text)")
        #expect(text.contains("multiplexer tmux, allow-passthrough off\n"))
        #expect(text.contains("fix add 'set -g allow-passthrough on' to ~/.tmux.conf"))
    }

    static var binaryFolder: String { PseudoTerminalSession.binary.deletingLastPathComponent().path }

    /// doctor's lines with the label column's padding made one space.
    static func findings(_ output: [UInt8]) -> String {
        String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
            .replacing(#/ {2,}/#, with: " ")
    }

    /// Off a terminal it says there is none (exact output), and `--json`
    /// gives the same for scripts.
    @Test func doctorWithoutATerminal() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["doctor"])
        #expect(result.status == 0)
        #expect(
            result.out == """
                terminal     none: no terminal to ask (pxview describes images instead of drawing)
                multiplexer  none
                protocol     symbols (auto: no terminal)
                locale       C.UTF-8 (UTF-8)

                """)
        let console = try sandbox.run(["doctor"], environment: ["TERM": "linux"])
        #expect(
            console.out.contains(
                "protocol     blocks (auto: no terminal, half-blocks: the Linux console's font has no other block characters)\n"))
        let json = try sandbox.run(["doctor", "--json"], environment: ["LANG": "C"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        #expect(object["drawing"] as? String == "symbols")
        #expect(object["locale"] as? String == "C (not UTF-8)")
        #expect(object["fixes"] as? [String] == ["export LANG=C.UTF-8 (or another UTF-8 locale) for frames and text in UTF-8"])
    }
}
