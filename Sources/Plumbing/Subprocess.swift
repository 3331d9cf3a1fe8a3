#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way pxview runs another program: posix_spawn, no shell (the
/// arguments are the argv), signals at their defaults in the child (pxview
/// ignores SIGPIPE; a handler's `head` must not), and the child waited for.
package enum Subprocess {
    /// How a child ended.
    package enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It could not be started (the errno: ENOENT, EACCES…).
        case notStarted(Int32)
    }

    /// Runs `arguments` and returns its standard output (at most
    /// `limit` bytes), or nil when it cannot run or fails. Its stdin and
    /// stderr are /dev/null.
    package static func output(_ arguments: [String], limit: Int = 4096) -> String? {
        var pipeFDs: [Int32] = [-1, -1]
        guard !arguments.isEmpty, pipe(&pipeFDs) == 0 else { return nil }
        let spawned = spawn(arguments, stdin: .devNull, stdout: pipeFDs[1], stderrToNull: true, closing: pipeFDs[0])
        close(pipeFDs[1])
        guard case .success(let pid) = spawned else {
            close(pipeFDs[0])
            return nil
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while output.count < limit {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(pipeFDs[0], into: $0) }
            guard count > 0 else { break }
            output += buffer.prefix(count)
        }
        // Closed before waiting: a child with more to say gets SIGPIPE
        // instead of blocking both on a full pipe.
        close(pipeFDs[0])
        guard wait(pid) == .exited(0) || output.count >= limit else { return nil }
        return String(decoding: output.prefix(limit), as: UTF8.self)
    }

    /// Runs `arguments` on pxview's own terminal (stdout and stderr
    /// inherited) with `input` on its standard input, and waits for it. A
    /// child that reads none of `input` is no error. SIGINT and SIGQUIT
    /// are ignored here from before the child is spawned until it has
    /// been waited for, as system(3) does: a Ctrl-C typed while the child
    /// starts, or while its input is still being sent, ends the child,
    /// not pxview (whose handlers are back after). The child gets them at
    /// their defaults all the same (`spawn` resets every signal).
    package static func run(_ arguments: [String], input: [UInt8]) -> Ending {
        guard !arguments.isEmpty else { return .notStarted(ENOENT) }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var interrupt = sigaction()
        var quit = sigaction()
        sigaction(SIGINT, &ignore, &interrupt)
        sigaction(SIGQUIT, &ignore, &quit)
        defer {
            sigaction(SIGINT, &interrupt, nil)
            sigaction(SIGQUIT, &quit, nil)
        }
        // A socket, not a pipe: `send` with MSG_NOSIGNAL meets a child that
        // left with EPIPE instead of SIGPIPE, whatever the caller's
        // disposition of SIGPIPE is (a test runner's is the default: death).
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return .notStarted(errno)
        }
        let spawned = spawn(arguments, stdin: .descriptor(pair[0]), stdout: nil, stderrToNull: false, closing: pair[1])
        close(pair[0])
        defer { close(pair[1]) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let failure): return .notStarted(failure.code)
        }
        var offset = 0
        while offset < input.count {
            let sent = input.withUnsafeBytes { send(pair[1], $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                break  // EPIPE: the child read no more of it.
            }
        }
        shutdown(pair[1], Int32(SHUT_WR))
        return wait(pid)
    }

    private enum Input {
        case devNull
        case descriptor(Int32)
    }

    private struct SpawnFailure: Error {
        var code: Int32
    }

    private static func spawn(
        _ arguments: [String], stdin: Input, stdout: Int32?, stderrToNull: Bool, closing: Int32
    ) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .devNull: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if stderrToNull { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        posix_spawn_file_actions_addclose(&actions, closing)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        return status == 0 ? .success(pid) : .failure(SpawnFailure(code: status))
    }

    /// Waits for `pid` (EINTR retried) and says how it ended.
    private static func wait(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .notStarted(errno) }
        }
        // WIFEXITED / WIFSIGNALED, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
