import ControlSequences
import Foundation
import Plumbing
import TestSupport

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair for tests (`PseudoTerminalDevice`): code under
/// test gets `slave` as if it were the user's terminal; the test plays the
/// terminal emulator on `master`.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init() throws {
        let (master, slavePath) = try PseudoTerminalDevice.openMaster()
        self.master = master
        slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = TerminalError.last(.open)
            close(master)
            throw error
        }
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Everything the slave side wrote that arrives within `quietMs` of the
    /// previous byte.
    func readFromMaster(quietMs: Int32 = 50) -> [UInt8] {
        Self.read(master, quietMs: quietMs)
    }

    static func read(_ fd: Int32, quietMs: Int32) -> [UInt8] {
        var collected: [UInt8] = []
        while FileDescriptorIO.waitUntilReady(fd, events: Int16(POLLIN), timeoutMs: quietMs) == .ready {
            guard let chunk = try? FileDescriptorIO.readSome(from: fd), !chunk.isEmpty else { break }
            collected += chunk
        }
        return collected
    }

    func settings() -> termios {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings
    }

    func setWindowSize(rows: UInt16, columns: UInt16, width: UInt16, height: UInt16) {
        PseudoTerminalDevice.setWindowSize(master, rows: rows, columns: columns, width: width, height: height)
    }
}

/// Field-by-field termios comparison (the C struct is not Equatable).
func sameSettings(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag
        && a.c_lflag == b.c_lflag
        && withUnsafeBytes(of: &a.c_cc) { ca in withUnsafeBytes(of: &b.c_cc) { cb in ca.elementsEqual(cb) } }
}

/// A thread playing the terminal emulator: waits until the probe's final
/// query (DA1) has arrived on `master`, then writes `answer` in the given
/// pieces, pausing between them so the prober sees split reads.
final class TerminalImpersonator: @unchecked Sendable {
    private let lock = NSLock()
    private var receivedBytes: [UInt8] = []
    private let finished = DispatchSemaphore(value: 0)

    /// `delayMs`: how long the answer takes (a slow link) after the query arrives;
    /// `gapMs` between the pieces.
    init(master: Int32, answer pieces: [[UInt8]], delayMs: Int = 0, gapMs: Int = 3) {
        let thread = Thread { [self] in
            var received: [UInt8] = []
            let deadline = MonotonicClock.milliseconds() + 2000
            while !received.ends(with: TerminalCommand.primaryDeviceAttributesQuery),
                MonotonicClock.milliseconds() < deadline
            {
                received += PseudoTerminal.read(master, quietMs: 20)
            }
            if delayMs > 0 { usleep(useconds_t(delayMs * 1000)) }
            for piece in pieces {
                try? Descriptor.writeAll(piece, to: master)
                usleep(useconds_t(gapMs * 1000))
            }
            lock.withLock { receivedBytes = received }
            finished.signal()
        }
        thread.start()
    }

    /// What the prober sent, once the impersonator has answered.
    func waitForQuery() -> [UInt8] {
        finished.wait()
        return lock.withLock { receivedBytes }
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
