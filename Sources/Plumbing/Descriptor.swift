#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call and the errno it left.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system calls pxview tells apart when they fail (an atomic write
    /// removes its temporary file unless `open` failed; the cache names the
    /// destination when `rename` failed).
    package enum Call: String, Sendable {
        case open, read, write, poll, close, fsync, fchmod, rename, link, pipe, tcgetattr, tcsetattr
    }

    /// The call that failed.
    package var call: Call
    package var code: Int32

    package init(call: Call, code: Int32) {
        self.call = call
        self.code = code
    }

    /// A failure of `call`, taking the errno the call just left.
    package static func last(_ call: Call) -> SystemError {
        SystemError(call: call, code: errno)
    }

    /// strerror's text for the errno the last call left, for messages that
    /// name their own step ("cannot lock PATH: ...").
    package static var lastReason: String { String(cString: strerror(errno)) }

    /// strerror's text: "No space left on device".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(call.rawValue) failed: \(reason)" }
}

/// The one write-everything loop over a file descriptor: the terminal's
/// frames, `OutputGuard`'s sliced drawing, stdout and stderr, and the atomic
/// file writer all end here.
package enum Descriptor {
    /// One read(2) into `buffer`, retried while a signal interrupts it:
    /// the bytes read, 0 at the end, -1 on an error (errno says which).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count >= 0 || errno != EINTR { return count }
        }
    }

    /// Writes every byte of `bytes` to `fd`: short writes continue where
    /// they stopped, EINTR retries, EAGAIN (a non-blocking descriptor that
    /// is full) waits in poll(2) until it drains. A write that returns 0
    /// counts as EIO rather than spinning.
    ///
    /// - Parameters:
    ///   - sliceBytes: at most this many bytes per write(2).
    ///   - beforeEachWrite: called before every write(2), also after an
    ///     interruption: `OutputGuard` stops there when a signal is pending.
    ///   - afterEachWrite: the bytes each write(2) wrote.
    package static func writeAll(
        _ bytes: UnsafeRawBufferPointer, to fd: Int32, sliceBytes: Int = .max, beforeEachWrite: () -> Void = {},
        afterEachWrite: (Int) -> Void = { _ in }
    ) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            beforeEachWrite()
            let written = write(fd, base + offset, min(max(1, sliceBytes), bytes.count - offset))
            if written > 0 {
                offset += written
                afterEachWrite(written)
                continue
            }
            if written == 0 { throw SystemError(call: .write, code: EIO) }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // One poll, then back round the loop (an interrupted poll
                // too, so `beforeEachWrite` sees the signal).
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&descriptor, 1, -1) < 0 && errno != EINTR { throw .last(.poll) }
            default:
                throw .last(.write)
            }
        }
    }

    /// `writeAll` of an array.
    package static func writeAll(
        _ bytes: [UInt8], to fd: Int32, sliceBytes: Int = .max, beforeEachWrite: () -> Void = {}
    ) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) {
                try writeAll(raw, to: fd, sliceBytes: sliceBytes, beforeEachWrite: beforeEachWrite)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

/// read(2), under a name `Descriptor.read` does not hide.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
