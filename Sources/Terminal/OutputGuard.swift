import ControlSequences
import Glibc
import Plumbing

/// For one-shot drawing (`pxview show`, the search strip): if the user
/// presses Ctrl-C or the process is told to stop while a sixel (DCS) or
/// kitty (APC) sequence is half written, the terminal would stay inside that
/// sequence and swallow the shell's next output.
///
/// A signal can land on any thread, not the one writing, and bytes written
/// from a handler would interleave with the writer's. So the handler only
/// records the signal (or exits at once when nothing is being drawn), and
/// `write` sends frames in slices, checking between slices; when a signal
/// is pending it ends any open string with ST, resets colours, moves to a
/// fresh line and exits with the usual 128+signal status.
///
/// The two flags live in memory allocated once per process: signal
/// handlers can reach nothing else (the same reason as `EmergencyRestore`).
public enum OutputGuard {
    /// [0]: 1 while `write` is drawing; [1]: the pending signal, 0 if none;
    /// [2]: errno of the first failed write, 0 if none.
    nonisolated(unsafe) static let state: UnsafeMutablePointer<Int32> = {
        let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
        pointer.initialize(repeating: 0, count: 3)
        return pointer
    }()

    /// errno of the first write that failed (ENOSPC on /dev/full, EBADF on a
    /// closed stdout, EPIPE when the reader left), or nil: a command that
    /// could not write what it printed has failed.
    public static var writeFailure: Int32? {
        state[2] == 0 ? nil : state[2]
    }

    /// Call first thing: a standard descriptor that is closed gets
    /// /dev/null, so no file pxview opens later (a cache entry, a lock) can
    /// become fd 1 and take its output; a closed stdout counts as a failed
    /// write (EBADF).
    public static func protectStandardDescriptors() {
        for fd: Int32 in [0, 1, 2] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
            if fd == 1 && state[2] == 0 { state[2] = EBADF }
        }
    }

    /// Bytes that close whatever sequence a slice boundary left open.
    public static let closingBytes: [UInt8] =
        TerminalCommand.stringTerminator + TerminalCommand.resetAttributes + Array("\r\n".utf8)
    /// Small enough that a pending signal is seen within a few milliseconds
    /// of terminal throughput.
    static let sliceBytes = 16 * 1024

    public static func install() {
        _ = state
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                if OutputGuard.state[0] == 0 { _exit(128 + received) }
                OutputGuard.state[1] = received
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a write blocked on the terminal returns EINTR
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Writes `bytes` to `fd` in slices, honouring a pending stop request
    /// between them (`Descriptor.writeAll` retries short writes, EINTR and
    /// EAGAIN).
    public static func write(_ bytes: [UInt8], fd: Int32) {
        // After a failure nothing more is written (the reader is gone, the disk full).
        if state[2] != 0 { return }
        state[0] = 1
        defer { state[0] = 0 }
        do throws(SystemError) {
            try Descriptor.writeAll(bytes, to: fd, sliceBytes: sliceBytes) {
                if state[1] != 0 { stop(fd: fd) }
            }
        } catch {
            if state[2] == 0 { state[2] = error.code }
            return
        }
        if state[1] != 0 { stop(fd: fd) }
    }

    private static func stop(fd: Int32) -> Never {
        closingBytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        _exit(128 + state[1])
    }
}
