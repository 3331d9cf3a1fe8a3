import Foundation
import TestSupport
import Testing

@testable import HTTP

/// Collects what the reporter would write to stderr.
private final class OutputRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var written: [String] = []

    var output: @Sendable (String) -> Void {
        { [self] text in
            lock.lock()
            written.append(text)
            lock.unlock()
        }
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return written
    }
}

@Suite struct StderrProgressReporterTests {
    @Test func lineFormat() {
        #expect(
            StderrProgressReporter.line(label: "fox.jpg", received: 1_258_291, total: 3_565_158, bytesPerSecond: 2_202_009)
                == "downloading fox.jpg 1.2 MB of 3.4 MB (35%) 2.1 MB/s")
        #expect(
            StderrProgressReporter.line(label: "x", received: 512, total: nil, bytesPerSecond: 100)
                == "downloading x 512 B 100 B/s")
    }

    @Test func silentDuringTheFirstHalfSecond() {
        let clock = TestClock()
        let recorder = OutputRecorder()
        let reporter = StderrProgressReporter(
            label: "a", isTerminal: true, now: clock.function, output: recorder.output)

        clock.advance(by: 0.4)
        reporter.update(received: 100, total: 1000)
        reporter.finish()

        #expect(recorder.lines.isEmpty)
    }

    @Test func drawsAfterTheDelayThrottlesAndClears() {
        let clock = TestClock()
        let recorder = OutputRecorder()
        let reporter = StderrProgressReporter(
            label: "a.jpg", isTerminal: true, now: clock.function, output: recorder.output)

        clock.advance(by: 1)
        reporter.update(received: 1024, total: 4096)
        clock.advance(by: 0.05)
        reporter.update(received: 2048, total: 4096)  // within 0.1 s: skipped
        clock.advance(by: 0.95)
        reporter.update(received: 4096, total: 4096)
        reporter.finish()

        #expect(
            recorder.lines == [
                "\rdownloading a.jpg 1.0 KB of 4.0 KB (25%) 1.0 KB/s\u{1B}[K",
                "\rdownloading a.jpg 4.0 KB of 4.0 KB (100%) 2.0 KB/s\u{1B}[K",
                "\r\u{1B}[K",
            ])
    }

    @Test func silentWhenStderrIsNotATerminal() {
        let clock = TestClock()
        let recorder = OutputRecorder()
        let reporter = StderrProgressReporter(
            label: "a", isTerminal: false, now: clock.function, output: recorder.output)

        clock.advance(by: 5)
        reporter.callback(100, 1000)
        reporter.finish()

        #expect(recorder.lines.isEmpty)
    }
}
