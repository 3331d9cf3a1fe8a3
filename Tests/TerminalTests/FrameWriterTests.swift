import Foundation
import Glibc
import Pixels
import Testing
@testable import Terminal

@Suite struct FrameWriterTests {
    private func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError.lastError("pipe") }
        return (fds[0], fds[1])
    }

    @Test func synchronizedFrameIsWrapped() throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd) }
        let frame = Array("\u{1B}[1;1Hhello".utf8)
        try FrameWriter(fd: writeEnd, synchronizedOutput: true).write(frame)
        try FrameWriter(fd: writeEnd, synchronizedOutput: false).write(frame)
        close(writeEnd)
        let written = PseudoTerminal.read(readEnd, quietMs: 50)
        #expect(written == Array("\u{1B}[?2026h\u{1B}[1;1Hhello\u{1B}[?2026l\u{1B}[1;1Hhello".utf8))
    }

    /// A frame several times the pipe's capacity on a non-blocking
    /// descriptor: partial writes and EAGAIN must both be handled.
    @Test func largeFrameSurvivesPartialWritesAndEAGAIN() throws {
        let (readEnd, writeEnd) = try makePipe()
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let frame = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

        final class Collected: @unchecked Sendable {
            var bytes: [UInt8] = []
            let done = DispatchSemaphore(value: 0)
        }
        let collected = Collected()
        Thread {
            while true {
                usleep(500)  // a slow reader keeps the pipe full
                guard let chunk = try? FileDescriptorIO.readSome(from: readEnd, maxCount: 8192), !chunk.isEmpty else { break }
                collected.bytes += chunk
            }
            collected.done.signal()
        }.start()

        try FrameWriter(fd: writeEnd, synchronizedOutput: true).write(frame)
        close(writeEnd)
        collected.done.wait()
        close(readEnd)
        #expect(collected.bytes.count == frame.count + 16)
        #expect(collected.bytes == FrameWriter.beginSynchronizedUpdate + frame + FrameWriter.endSynchronizedUpdate)
    }

    @Test func writeToAClosedDescriptorThrows() {
        #expect(throws: TerminalError.self) {
            try FrameWriter(fd: -1, synchronizedOutput: false).write([0x41])
        }
    }

    @Test func commandBytes() {
        #expect(TerminalCommand.moveTo(row: 3, column: 14) == Array("\u{1B}[3;14H".utf8))
        #expect(TerminalCommand.moveTo(row: 0, column: -2) == Array("\u{1B}[1;1H".utf8))
        #expect(TerminalCommand.clearLine == Array("\u{1B}[2K".utf8))
        #expect(TerminalCommand.clearToEndOfLine == Array("\u{1B}[K".utf8))
        #expect(TerminalCommand.resetAttributes == Array("\u{1B}[0m".utf8))
        #expect(TerminalCommand.foreground(RGBA(r: 255, g: 128, b: 0, a: 255)) == Array("\u{1B}[38;2;255;128;0m".utf8))
        #expect(TerminalCommand.background(RGBA(r: 1, g: 2, b: 3, a: 0)) == Array("\u{1B}[48;2;1;2;3m".utf8))
        #expect(TerminalCommand.foreground(palette: 196) == Array("\u{1B}[38;5;196m".utf8))
        #expect(TerminalCommand.background(palette: 17) == Array("\u{1B}[48;5;17m".utf8))
    }
}
