import ControlSequences
import Plumbing
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// For one-shot drawing (`pxview show`, the search strip): if the user
/// presses Ctrl-C or the process is told to stop while a sixel (DCS) or
/// kitty (APC) sequence is half written, the terminal would stay inside that
/// sequence and swallow the shell's next output.
///
/// A signal can land on any thread, not the one writing, and bytes written
/// from a handler would interleave with the writer's. So `write` tells
/// `ProcessSignals` a drawing is under way (its handler then only records
/// the request) and sends frames in slices, checking between slices; when
/// a stop was requested it ends the open string with ST, resets colours,
/// moves to a fresh line and ends the process by that signal. A writer
/// blocked on a terminal that stopped reading never reaches the next
/// slice: `ProcessSignals` then ends the process by alarm, writing the
/// same closing bytes without blocking.
package enum OutputGuard {
    /// errno of the first failed write, 0 if none. Written only by `write`
    /// and `protectStandardDescriptors`, read by `writeFailure`.
    private static let failure = FailureCode()

    /// errno of the first write that failed (ENOSPC on /dev/full, EBADF on a
    /// closed stdout, EPIPE when the reader left), or nil: a command that
    /// could not write what it printed has failed.
    package static var writeFailure: Int32? {
        failure.code
    }

    /// Call first thing: a standard descriptor that is closed gets
    /// /dev/null, so no file pxview opens later (a cache entry, a lock) can
    /// become fd 1 and take its output; a closed stdout counts as a failed
    /// write (EBADF).
    package static func protectStandardDescriptors() {
        for fd: Int32 in [0, 1, 2] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
            if fd == 1 { failure.record(EBADF) }
        }
    }

    /// Bytes that close whatever sequence a slice boundary left open.
    package static let closingBytes: [UInt8] =
        TerminalCommand.stringTerminator + TerminalCommand.resetAttributes + Array("\r\n".utf8)
    /// A preview's (`--place`, `clear`): the string closed and the host's
    /// cursor put back where the preview's `ESC 7` found it.
    package static let previewClosingBytes: [UInt8] = TerminalCommand.stringTerminator + TerminalCommand.restoreCursor

    /// From here on, writes are a preview's inside a host's screen (a file
    /// manager's): cut short, they end with `previewClosingBytes`, and only
    /// their own bytes still queued for the terminal are thrown away.
    package static func installForPreview() {
        install()
        ProcessSignals.setDrawingClosing(previewClosingBytes, ownsTerminal: false)
    }
    /// Small enough that a pending signal is seen within a few milliseconds
    /// of terminal throughput.
    static let sliceBytes = 16 * 1024

    /// Set by `install`: stdout carries pictures, so a stop request waits
    /// for the slice boundary. Plain text (a table to a file) ends at once.
    private static let guarding = Atomic<Bool>(false)

    /// From here on, writes to stdout are drawings whose open sequences a
    /// stop request must close.
    package static func install() {
        ProcessSignals.install()
        guarding.store(true, ordering: .releasing)
    }

    /// Writes `bytes` to `fd` in slices, honouring a pending stop request
    /// between them (`Descriptor.writeAll` retries short writes, EINTR and
    /// EAGAIN).
    package static func write(_ bytes: [UInt8], fd: Int32) {
        bytes.withUnsafeBytes { bytes in writeDrawing(fd: fd) { write in _ = write(bytes) } }
    }

    /// A drawing written in parts as they are made (kitty's upload as it is
    /// encoded): `body` hands each part to the writer it is given, which
    /// returns false once a write has failed. The drawing counts as open
    /// from the first part to the last, so a stop request in between, while
    /// the next part is being made, still closes its sequence first.
    package static func writeDrawing(fd: Int32, _ body: ((UnsafeRawBufferPointer) -> Bool) -> Void) {
        // After a failure nothing more is written (the reader is gone, the disk full).
        if failure.code != nil { return }
        let guarded = guarding.load(ordering: .acquiring)
        if guarded { ProcessSignals.beginDrawing(fd: fd) }
        defer { if guarded { ProcessSignals.endDrawing() } }
        body { bytes in
            guard failure.code == nil else { return false }
            do throws(SystemError) {
                if guarded {
                    try Descriptor.writeAll(
                        bytes, to: fd, sliceBytes: sliceBytes,
                        beforeEachWrite: {
                            if let signal = ProcessSignals.terminationRequested { ProcessSignals.exitNow(signal: signal) }
                        }, afterEachWrite: ProcessSignals.drew)
                } else {
                    try Descriptor.writeAll(bytes, to: fd)
                }
            } catch {
                failure.record(error.code)
                return false
            }
            return true
        }
        if guarded, let signal = ProcessSignals.terminationRequested { ProcessSignals.exitNow(signal: signal) }
    }
}

/// The first errno recorded, for any thread to read.
private final class FailureCode: Sendable {
    private let value = Atomic<Int32>(0)

    var code: Int32? {
        let code = value.load(ordering: .acquiring)
        return code == 0 ? nil : code
    }

    func record(_ code: Int32) {
        _ = value.compareExchange(expected: 0, desired: code, ordering: .acquiringAndReleasing)
    }
}
