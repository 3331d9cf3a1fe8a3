import Foundation
import Plumbing

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Runs another program to completion, capturing its standard output, and
/// reports the wall-clock time (how a user waiting at a prompt feels it)
/// and the CPU time it burnt on all its threads.
struct ProcessRun {
    var output: [UInt8]
    var milliseconds: Double
    /// User plus system time of the child (and of any children it waited for).
    var cpuMilliseconds: Double
    var exitCode: Int32
}

struct SpawnError: Error, CustomStringConvertible {
    var program: String
    var code: Int32
    var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
}

enum ProcessTimer {
    static func find(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// posix_spawn and read(2) rather than Foundation's `Process`, whose own
    /// set-up costs tens of milliseconds and would be billed to every tool,
    /// and which hides the child's rusage: `wait4` on the child's pid gives
    /// that one child's CPU time, nothing of pxbench's own. Not its peak
    /// RSS: posix_spawn's child shares pxbench's memory until exec, and
    /// Linux carries that memory's peak into the child's (`peakRSSKB`).
    /// `standardError`: also capture stderr (for `--version` lines); off, it
    /// goes to /dev/null.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], standardError: Bool = false
    ) throws -> ProcessRun {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw SpawnError(program: executable, code: errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        if standardError {
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        let child: (pid: pid_t, start: UInt64)
        do {
            child = try spawn(executable, arguments, environment: environment, actions: &actions)
        } catch {
            close(pipeFDs[0])
            close(pipeFDs[1])
            throw error
        }
        close(pipeFDs[1])
        // Read to the end before waiting: a child blocked on a full pipe never exits.
        var output: [UInt8] = []
        output.reserveCapacity(1 << 20)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if n > 0 {
                output += buffer[0..<n]
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(pipeFDs[0])
        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(child.pid, &waitStatus, 0, &usage) < 0 && errno == EINTR {}
        return finished(output: output, start: child.start, waitStatus: waitStatus, usage: usage)
    }

    /// posix_spawn with `actions`, the start time taken just before it.
    fileprivate static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String],
        actions: inout posix_spawn_file_actions_t
    ) throws -> (pid: pid_t, start: UInt64) {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw SpawnError(program: executable, code: status) }
        return (pid, start)
    }

    /// What a finished child did, from its wait status and rusage.
    fileprivate static func finished(output: [UInt8], start: UInt64, waitStatus: Int32, usage: rusage) -> ProcessRun {
        let end = DispatchTime.now().uptimeNanoseconds
        let exitCode: Int32 = (waitStatus & 0x7F) == 0 ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F)
        return ProcessRun(
            output: output, milliseconds: Double(end - start) / 1e6,
            cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime), exitCode: exitCode)
    }

    /// GNU time, when installed: a small process that forks the program
    /// itself, so the child's peak RSS is the program's own.
    static let gnuTime: String? = {
        guard let time = find("time"), firstLine(time, ["--version"], environment: [:])?.contains("GNU") == true else {
            return nil
        }
        return time
    }()

    /// The program's peak resident set size in KB, from one run under GNU
    /// time (`%M`); nil without GNU time or when the program fails.
    static func peakRSSKB(_ executable: String, _ arguments: [String], environment: [String: String]) -> Int? {
        guard let gnuTime else { return nil }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-rss-\(getpid()).txt").path
        defer { unlink(report) }
        guard let run = try? run(gnuTime, ["-f", "%M", "-o", report, executable] + arguments, environment: environment),
            run.exitCode == 0, let text = FileManager.default.contents(atPath: report)
        else { return nil }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").last.flatMap { Int($0) }
    }

    fileprivate static func milliseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000
    }

    /// The first line a program prints for `arguments` (`--version`), on
    /// either stream; nil when it cannot be run.
    static func firstLine(_ executable: String, _ arguments: [String], environment: [String: String]) -> String? {
        guard let run = try? run(executable, arguments, environment: environment, standardError: true) else { return nil }
        let text = String(decoding: run.output, as: UTF8.self)
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

extension ProcessTimer {
    /// Runs a program with a pseudo-terminal of `cells` (and `cellPixels`
    /// per cell) as its standard output, as a file manager's previewer
    /// runs inside the manager's terminal: programs that draw only on a
    /// terminal (`show --once --place`) draw there. Standard input is
    /// /dev/null, so nothing can be asked and answered. The output is read
    /// as it comes (a pty holds a few KB), to the end.
    static func runOnPseudoTerminal(
        _ executable: String, _ arguments: [String], environment: [String: String], cells: (columns: Int, rows: Int),
        cellPixels: (width: Int, height: Int)
    ) throws -> ProcessRun {
        let (master, slavePath) = try PseudoTerminalDevice.openMaster()
        defer { close(master) }
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw SpawnError(program: executable, code: errno) }
        var size = winsize(
            ws_row: UInt16(cells.rows), ws_col: UInt16(cells.columns), ws_xpixel: UInt16(cells.columns * cellPixels.width),
            ws_ypixel: UInt16(cells.rows * cellPixels.height))
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        // Raw output: the program's bytes as it wrote them (no NL -> CRNL).
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, slave, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The slave stays open here until the child has gone: once every
        // slave is closed, Linux may answer EIO before the last bytes are read.
        defer { close(slave) }
        let child = try spawn(executable, arguments, environment: environment, actions: &actions)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var waitStatus: Int32 = 0
        var usage = rusage()
        var exited = false
        while true {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, exited ? 0 : 2) > 0 {
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n > 0 {
                    output += buffer[0..<n]
                    continue
                }
            }
            if exited { break }
            let waited = wait4(child.pid, &waitStatus, WNOHANG, &usage)
            if waited == child.pid || (waited < 0 && errno != EINTR) { exited = true }
        }
        return finished(output: output, start: child.start, waitStatus: waitStatus, usage: usage)
    }
}
