import Foundation
import Testing

@testable import Plumbing

@Suite struct DescriptorTests {
    /// A non-blocking pipe far smaller than the data: writes come back short
    /// or with EAGAIN until the slow reader drains it, and every byte
    /// arrives once, in order.
    @Test func writesEverythingThroughAFullNonBlockingPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        try #require(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let received = ReceivedBytes()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.append(buffer[..<count])
                usleep(100)
            }
            received.finish()
        }
        reader.start()
        try Descriptor.writeAll(bytes, to: writeEnd)
        close(writeEnd)
        received.waitUntilFinished()
        #expect(received.bytes == bytes)
    }

    @Test func aFailedWriteThrowsItsErrno() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: SystemError(call: .write, code: ENOSPC)) { try Descriptor.writeAll([1, 2, 3], to: fd) }
    }

    @Test func slicesCallTheHookBeforeEachWrite() throws {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var calls = 0
        try Descriptor.writeAll(Array(repeating: 0, count: 10), to: fd, sliceBytes: 3) { calls += 1 }
        #expect(calls == 4)
        try Descriptor.writeAll([], to: fd) { calls += 1 }
        #expect(calls == 4)
    }

    @Test func systemErrorsReadLikeStrerror() {
        #expect(SystemError(call: .write, code: ENOSPC).description == "write failed: No space left on device")
    }
}

private final class ReceivedBytes: @unchecked Sendable {
    private let lock = Lock()
    private var storage: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { storage += chunk } }
    func finish() { done.signal() }
    func waitUntilFinished() { done.wait() }
    var bytes: [UInt8] { lock.withLock { storage } }
}
