import ControlSequences
import Foundation
import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FrameWriterTests {
    private func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError.last(.pipe) }
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
        #expect(collected.bytes == TerminalCommand.beginSynchronizedUpdate + frame + TerminalCommand.endSynchronizedUpdate)
    }

    @Test func writeToAClosedDescriptorThrows() {
        #expect(throws: TerminalError.self) {
            try FrameWriter(fd: -1, synchronizedOutput: false).write([0x41])
        }
    }

    @Test func commandBytes() {
        #expect(TerminalCommand.moveTo(row: 3, column: 14) == Array("\u{1B}[3;14H".utf8))
        #expect(TerminalCommand.moveTo(row: 0, column: -2) == Array("\u{1B}[1;1H".utf8))
        #expect(TerminalCommand.clearToEndOfLine == Array("\u{1B}[K".utf8))
        #expect(TerminalCommand.resetAttributes == Array("\u{1B}[0m".utf8))
        #expect(TerminalCommand.foreground(palette: 196) == Array("\u{1B}[38;5;196m".utf8))
    }

    /// The table's other sequences, byte for byte: the golden outputs are
    /// made of them.
    @Test func tableBytes() {
        let expected: [([UInt8], String)] = [
            (TerminalCommand.stringTerminator, "\u{1B}\\"),
            (TerminalCommand.cursorUp(3), "\u{1B}[3A"),
            (TerminalCommand.cursorDown(12), "\u{1B}[12B"),
            (TerminalCommand.cursorToColumn(7), "\u{1B}[7G"),
            (TerminalCommand.saveCursor, "\u{1B}7"),
            (TerminalCommand.restoreCursor, "\u{1B}8"),
            (TerminalCommand.eraseCharacters(40), "\u{1B}[40X"),
            (TerminalCommand.defaultForeground, "\u{1B}[39m"),
            (TerminalCommand.defaultBackground, "\u{1B}[49m"),
            (TerminalCommand.foregroundRGBPrefix, "\u{1B}[38;2;"),
            (TerminalCommand.backgroundRGBPrefix, "\u{1B}[48;2;"),
            (TerminalCommand.beginSynchronizedUpdate, "\u{1B}[?2026h"),
            (TerminalCommand.endSynchronizedUpdate, "\u{1B}[?2026l"),
            (TerminalCommand.sixelStart, "\u{1B}P0;1;0q"),
            (TerminalCommand.kittyGraphicsStart, "\u{1B}_G"),
            (TerminalCommand.tmuxPassthroughStart, "\u{1B}Ptmux;"),
            (TerminalCommand.kittyGraphicsQuery(imageID: 31), "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"),
            (TerminalCommand.backgroundColorQuery, "\u{1B}]11;?\u{1B}\\"),
            (TerminalCommand.bracketedPasteEnd, "\u{1B}[201~"),
        ]
        for (bytes, text) in expected { #expect(bytes == Array(text.utf8), "\(text.debugDescription)") }
    }
}
