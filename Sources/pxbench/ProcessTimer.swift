import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Runs another program to completion, capturing its standard output, and
/// reports the wall-clock time: how a user waiting at a prompt feels it.
struct ProcessRun {
    var output: [UInt8]
    var milliseconds: Double
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
    /// set-up costs tens of milliseconds and would be billed to every tool.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> ProcessRun {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw SpawnError(program: executable, code: errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(pipeFDs[1])
        guard status == 0 else {
            close(pipeFDs[0])
            throw SpawnError(program: executable, code: status)
        }
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
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        let end = DispatchTime.now().uptimeNanoseconds
        let exitCode: Int32 = (waitStatus & 0x7F) == 0 ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F)
        return ProcessRun(output: output, milliseconds: Double(end - start) / 1e6, exitCode: exitCode)
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
