import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// How much longer than the issue's figures a timed check may take: a
/// sanitized build (the suite runs again under AddressSanitizer in CI) is
/// several times slower, and the figures are for the build users run.
let sanitizerTimeFactor: Double =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil ? 3 : 1

/// What the process has spent on the CPU so far (user + system), from
/// /proc; nil once it has gone.
func cpuSeconds(of pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The process's peak resident memory in MB (VmHWM), from /proc.
func peakResidentMB(of pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 / 1024 }
    }
    return nil
}

/// The processes whose parent is `pid`.
func children(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { child in
        guard let text = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return false }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == pid
    }
}

/// Every process below `pid`, nearest first.
func descendants(of pid: Int32) -> [Int32] {
    var found: [Int32] = []
    var next = [pid]
    while let parent = next.first {
        next.removeFirst()
        let direct = children(of: parent)
        found += direct
        next += direct
    }
    return found
}

/// The cooked mode a shell needs: canonical input, echo, signals from
/// the keyboard, CR read as NL, output post-processing.
func isCooked(_ settings: termios?) -> Bool {
    guard let settings else { return false }
    let local = tcflag_t(ICANON | ECHO | ISIG)
    return settings.c_lflag & local == local && settings.c_iflag & tcflag_t(ICRNL) != 0
        && settings.c_oflag & tcflag_t(OPOST) != 0
}

/// The kitty objects and files a pxview with this process id has made.
func kittyObjects(of pid: Int32) -> [String] {
    let shm = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        .filter { $0.hasPrefix("pxview-\(pid)-") }
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
        .filter { $0.hasPrefix("tty-graphics-protocol-pxview-\(pid)-") }
    return shm + files
}

/// A PNG of noise (stored, uncompressed deflate blocks): large on disk, so
/// saving it takes a while, quick to make and to decode.
func noisePNG(width: Int, height: Int) -> [UInt8] {
    let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }
    func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body[...]))
    }
    var generator = SystemRandomNumberGenerator()
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for _ in 0..<height {
        raw.append(0)
        for _ in 0..<(width * 3 / 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { raw += $0 }
        }
        raw += [UInt8](repeating: 128, count: width * 3 - (width * 3 / 8) * 8)
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    while offset < raw.count {
        let length = min(65535, raw.count - offset)
        zlib.append(offset + length == raw.count ? 1 : 0)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
        zlib += raw[offset..<(offset + length)]
        offset += length
    }
    var a: UInt32 = 1
    var b: UInt32 = 0
    raw.withUnsafeBufferPointer { buffer in
        for byte in buffer {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
    }
    zlib += bigEndian(b << 16 | a)
    let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
}

/// Issue 16: never stuck, never leaves the terminal broken. Each test plays
/// the terminal on a pty, does to pxview what a user, a shell or a broken
/// link does, and checks what the user would see afterwards.
@Suite(.serialized) struct ReliabilityTests {
    static let photo = packageRoot().appendingPathComponent("Tests/Fixtures/images/p01_china_640x427.jpg").path
    static let storm = packageRoot().appendingPathComponent("Tests/Fixtures/images/p03_storm_1920x1280.jpg").path

    /// A megabyte pasted into the grid (no `/` first) is cut to the query's
    /// length: pxview stays responsive and SIGTERM ends it. Trimmed one
    /// character per frame, 1 MB once spun at 100 % CPU for good.
    @Test func aMegabytePasteLeavesTheGridResponsive() throws {
        let session = try PseudoTerminalSession(arguments: ["--offline"], emulation: .sixel, rows: 24, columns: 80)
        #expect(session.waitFor(sixelStart))
        usleep(300_000)
        let pid = session.process.processIdentifier
        let before = try #require(cpuSeconds(of: pid))
        session.send("\u{1B}[200~" + String(repeating: "x", count: 1 << 20) + "\u{1B}[201~")
        #expect(session.waitFor("Enter search · Esc cancel"))
        sleep(3)
        let spent = try #require(cpuSeconds(of: pid)) - before
        #expect(spent < 1.5 * sanitizerTimeFactor, "\(spent) CPU seconds in the 3 s after the paste")
        session.process.terminate()
        #expect(session.waitForExit(seconds: 20) != nil)
        #expect(endedBySignal(session.process, SIGTERM))
    }

    /// A stop request while the probe waits for the terminal's answer (the
    /// first moments of every run): the terminal is left cooked, as found,
    /// and the probe's shared-memory object and file are gone.
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalDuringTheProbeLeavesTheTerminalAsFound(signal: Int32) throws {
        let session = try PseudoTerminalSession(arguments: ["--offline"], emulation: .silent)
        #expect(session.waitFor("\u{1B}[c"))
        let pid = session.process.processIdentifier
        let during = kittyObjects(of: pid)
        kill(pid, signal)
        #expect(session.waitForExit(seconds: 20) != nil)
        #expect(endedBySignal(session.process, signal))
        #expect(isCooked(session.settings()))
        if FileManager.default.fileExists(atPath: "/dev/shm") { #expect(during.count == 2, "\(during)") }
        #expect(kittyObjects(of: pid).isEmpty)
    }

    /// SIGTERM a few milliseconds after `s` in the viewer, while a 12 MB
    /// photo is being saved: the terminal comes back whole (main screen,
    /// mouse off, cooked) and no temporary file is left.
    @Test func aSignalDuringASaveLeavesTheTerminalAsFound() throws {
        let folder = try TemporaryDirectory()
        let big = folder.file("big.png")
        #expect(FileManager.default.createFile(atPath: big, contents: Data(noisePNG(width: 2000, height: 2000))))
        for delay in [5_000, 20_000, 45_000] as [useconds_t] {
            let work = folder.file("work-\(delay)")
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let session = try PseudoTerminalSession(
                arguments: ["show", big], emulation: .sixel, workingDirectory: work)
            #expect(session.waitFor(sixelStart))
            session.send("s")
            usleep(delay)
            session.process.terminate()
            #expect(session.waitForExit(seconds: 20) != nil)
            expectRestored(session)
            #expect(isCooked(session.settings()))
            let left = (try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []
            #expect(!left.contains { $0.contains(".part-") }, "\(left)")
        }
    }

    /// A terminal that reports 65535x65535 cells is taken at the bound
    /// `--cells` has: the grid is drawn, `q` is obeyed at once and memory
    /// stays small (the whole size once grew the grid by 20 MB/s).
    @Test func aHugeWindowIsObeyed() throws {
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 65535, columns: 65535, pixelsPerCell: (0, 0))
        #expect(session.waitFor(alternateScreenOn))
        // Every photo of the catalog drawn (fitting thumbnails takes seconds
        // in a sanitized debug build), then `q`.
        #expect(session.waitFor(sixelStart, count: 30, seconds: 60))
        #expect(session.waitForQuiet(quietMs: 500))
        let peak = try #require(peakResidentMB(of: session.process.processIdentifier))
        #expect(peak < 600, "\(peak) MB")
        let start = Date()
        session.send("q")
        // Obeyed at once: a loop still laying out 65535x65535 cells took minutes.
        #expect(session.waitForExit(seconds: 15 * sanitizerTimeFactor) == 0)
        #expect(Date().timeIntervalSince(start) < 15 * sanitizerTimeFactor)
    }

    /// A terminal that stops reading (a frozen window, a stalled link): a
    /// stop request still ends pxview within a few seconds, in the viewer,
    /// in `show --once` and in a preview, though its writes can never
    /// finish; and once the terminal reads again it is whole: what was
    /// still queued is thrown away, the picture string closed, then the
    /// viewer's screen put back (main screen, mouse off, cursor shown), a
    /// drawing's line ended, a preview's cursor restored (`ESC 8`).
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalEndsPxviewWhileTheTerminalReadsNothing(signal: Int32) throws {
        /// Starts `arguments`, stops reading once a picture began (after
        /// `keys`), signals it, and returns what the terminal read once it
        /// read again: after the last picture string began.
        func stalled(_ arguments: [String], keys: [String] = [], environment: [String: String] = [:]) throws -> [UInt8] {
            let session = try PseudoTerminalSession(
                arguments: arguments, emulation: .sixel, rows: 50, columns: 160,
                environment: PseudoTerminalSession.environment.merging(environment) { $1 })
            #expect(session.waitFor(sixelStart))
            session.pauseReading(true)
            for key in keys { session.send(key) }
            sleep(1)
            let start = Date()
            kill(session.process.processIdentifier, signal)
            #expect(session.waitForExit(seconds: 3 * sanitizerTimeFactor) != nil)
            #expect(Date().timeIntervalSince(start) < 3 * sanitizerTimeFactor, "\(arguments)")
            // How it ended, when not by the signal (a preview of one file once
            // ended by itself before the signal came: exit 0).
            #expect(
                endedBySignal(session.process, signal),
                "\(arguments): \(session.process.terminationReason == .uncaughtSignal ? "signal" : "exit") \(session.process.terminationStatus)"
            )
            session.pauseReading(false)
            session.waitForQuiet(quietMs: 300)
            return session.output.after(last: "\u{1B}P")
        }
        let viewerEnd = try stalled(["show", Self.storm], keys: ["+", "+", "-", "+", "z", "z"])
        #expect(viewerEnd.containsSequence(Array("\u{1B}\\".utf8)), "the sixel closed")
        #expect(viewerEnd.containsSequence(Array(alternateScreenOff.utf8)))
        #expect(viewerEnd.containsSequence(Array(mouseOff.utf8)))
        #expect(viewerEnd.containsSequence(Array(cursorShown.utf8)))

        // (The terminal's own output processing turns the line feed into CR LF.)
        let once = try stalled(["show", "--once", "--protocol", "sixel", "--size", "1920x1280", Self.storm, Self.storm])
        let onceEnd = String(decoding: once.suffix(12), as: UTF8.self)
        #expect(onceEnd.hasSuffix("\u{1B}\\\u{1B}[0m\r\r\n"), "the sixel closed, the line ended: \(onceEnd.debugDescription)")

        // Six files drawn into the box in turn: one alone once went out
        // whole into the pty's buffer before the reading stopped, and the
        // preview ended (exit 0) before the signal came.
        let preview = try stalled(
            ["show", "--once", "--place", "158x48@1,1"] + Array(repeating: Self.storm, count: 6),
            environment: ["PXVIEW_PROTOCOL": "sixel"])
        let previewEnd = String(decoding: preview.suffix(12), as: UTF8.self)
        #expect(
            previewEnd.hasSuffix("\u{1B}\\\u{1B}8"), "the sixel closed, the host's cursor back: \(previewEnd.debugDescription)")
    }

    /// Ctrl-Z (and SIGTSTP from outside) under an interactive bash, as less
    /// and vim do it: the shell gets its terminal back (main screen, mouse
    /// off, cooked: a command typed there runs), and after `fg` pxview is
    /// raw again, redraws and obeys its keys.
    @Test(arguments: [false, true])
    func jobControlUnderBash(fromOutside: Bool) throws {
        var environment = PseudoTerminalSession.environment
        environment["PATH"] = PseudoTerminalSession.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        environment["PS1"] = "PROMPT$ "
        let shell = try PseudoTerminalSession(
            arguments: ["--norc", "--noprofile", "--noediting", "-i"], emulation: .sixel, rows: 24, columns: 80,
            executable: URL(fileURLWithPath: "/bin/bash"), environment: environment, controllingTerminal: true)
        defer { for pid in descendants(of: shell.process.processIdentifier).reversed() { kill(pid, SIGKILL) } }
        #expect(shell.waitFor("PROMPT$ "))
        shell.send("pxview show \(Self.photo)\r")
        #expect(shell.waitFor(sixelStart))
        #expect(shell.waitFor("100%"))
        if fromOutside {
            let pxview = try #require(
                descendants(of: shell.process.processIdentifier).first {
                    (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "pxview\n"
                })
            kill(pxview, SIGTSTP)
        } else {
            shell.send("\u{1A}")
        }
        #expect(shell.waitFor("PROMPT$ ", count: 2))
        let tail = shell.output.after(last: alternateScreenOn)
        #expect(tail.containsSequence(Array(alternateScreenOff.utf8)))
        #expect(tail.containsSequence(Array(mouseOff.utf8)))
        #expect(isCooked(shell.settings()))
        shell.send("echo ok-$((40+2))\r")
        #expect(shell.waitFor("ok-42"))
        let pictures = shell.output.occurrences(of: Array(sixelStart.utf8))
        shell.send("fg\r")
        #expect(shell.waitFor(sixelStart, count: pictures + 1))
        #expect(shell.settings().map { $0.c_lflag & tcflag_t(ICANON) == 0 } == true)
        shell.send("+")
        #expect(shell.waitFor("125%"))
        shell.send("q")
        #expect(shell.waitFor("PROMPT$ ", count: 4))
        shell.send("exit\r")
        #expect(shell.waitForExit(seconds: 5) != nil)
    }

    /// What a pxview killed outright (SIGKILL) left in /dev/shm and /tmp
    /// is removed by the next run.
    @Test func aDeadPxviewsObjectsAreGoneAfterTheNextRun() throws {
        let session = try PseudoTerminalSession(arguments: ["--offline"], emulation: .silent)
        #expect(session.waitFor("\u{1B}[c"))
        let pid = session.process.processIdentifier
        let left = kittyObjects(of: pid)
        // The probe's two objects were made before its queries went out.
        #expect(!left.isEmpty, "nothing to sweep: the test would check nothing")
        kill(pid, SIGKILL)
        // Reaped (a zombie still counts as alive to the sweeper), however busy the machine.
        #expect(session.waitForExit(seconds: 20) != nil)
        #expect(kittyObjects(of: pid) == left)
        let next = try CLISandbox().run(["show", "--protocol", "kitty", Self.photo])
        #expect(next.status == 0)
        #expect(kittyObjects(of: pid).isEmpty)
    }

    /// A favourites file that cannot be read is moved aside and said where
    /// the user looks: the grid's status line.
    @Test func aCorruptFavouritesFileIsReportedInTheGrid() throws {
        var environment = PseudoTerminalSession.environment
        let data = try TemporaryDirectory()
        environment["XDG_DATA_HOME"] = data.path
        try FileManager.default.createDirectory(atPath: data.file("pxview"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: data.file("pxview/favourites.json"), contents: Data("{nope".utf8)))
        let session = try PseudoTerminalSession(
            arguments: ["--offline"], emulation: .sixel, rows: 24, columns: 100, environment: environment)
        #expect(session.waitFor("favourites file was corrupt: kept as favourites.json.corrupt-"))
        session.send("q")
        #expect(session.waitForExit() == 0)
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: data.file("pxview"))) ?? []
        #expect(kept.contains { $0.hasPrefix("favourites.json.corrupt-") })
    }
}
