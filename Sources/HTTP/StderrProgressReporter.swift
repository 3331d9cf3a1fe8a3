import ControlSequences
import Foundation
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Draws a one-line download progress indicator on stderr:
/// `downloading photo.jpg 1.2 MB of 3.4 MB (35%) 2.1 MB/s`.
///
/// Quiet unless stderr is a terminal (no `\r` garbage in logs or pipes) and
/// until the download has taken `delay` seconds, so fast fetches print
/// nothing. Redraws at most every 0.1 s; `finish()` erases the line.
///
///     let reporter = StderrProgressReporter(label: "photo.jpg")
///     let response = try await client.fetch(request, progress: reporter.callback)
///     reporter.finish()
package final class StderrProgressReporter: @unchecked Sendable {
    private let label: String
    private let delay: TimeInterval
    private let isTerminal: Bool
    private let now: @Sendable () -> Date
    private let output: @Sendable (String) -> Void
    private let start: Date

    private let lock = Lock()
    private var lastDraw: Date?
    private var drewSomething = false

    /// - Parameters:
    ///   - isTerminal: whether to draw at all; defaults to `isatty(2)`.
    ///   - now, output: injected for tests; default to the clock and stderr.
    package init(
        label: String, delay: TimeInterval = 0.5, isTerminal: Bool = isatty(2) == 1,
        now: @escaping @Sendable () -> Date = Date.init,
        output: @escaping @Sendable (String) -> Void = StderrProgressReporter.writeToStandardError
    ) {
        self.label = label
        self.delay = delay
        self.isTerminal = isTerminal
        self.now = now
        self.output = output
        start = now()
    }

    /// Pass this as the `progress:` argument of `fetch`.
    package var callback: @Sendable (Int64, Int64?) -> Void {
        { [self] received, total in update(received: received, total: total) }
    }

    package func update(received: Int64, total: Int64?) {
        let current = now()
        let elapsed = current.timeIntervalSince(start)
        guard isTerminal, elapsed >= delay else { return }
        lock.lock()
        if let lastDraw, current.timeIntervalSince(lastDraw) < 0.1 {
            lock.unlock()
            return
        }
        lastDraw = current
        drewSomething = true
        lock.unlock()
        let milliseconds = Int(elapsed * 1000)
        let rate = milliseconds > 0 ? Int(received) * 1000 / milliseconds : 0
        output("\r" + Self.line(label: label, received: received, total: total, bytesPerSecond: rate) + Self.clearToEndOfLine)
    }

    /// Erases the progress line if one was drawn.
    package func finish() {
        lock.lock()
        let erase = drewSomething
        drewSomething = false
        lock.unlock()
        if erase { output("\r" + Self.clearToEndOfLine) }
    }

    /// The text of the line, without the carriage return and erase codes.
    package static func line(label: String, received: Int64, total: Int64?, bytesPerSecond: Int) -> String {
        var text = "downloading \(label) \(ByteSize.text(Int(received)))"
        if let total, total > 0 {
            let percent = min(100, Int(Double(received) * 100 / Double(total)))
            text += " of \(ByteSize.text(Int(total))) (\(percent)%)"
        }
        return text + " \(ByteSize.text(bytesPerSecond))/s"
    }

    private static let clearToEndOfLine = String(decoding: TerminalCommand.clearToEndOfLine, as: UTF8.self)

    package static let writeToStandardError: @Sendable (String) -> Void = { text in
        try? Descriptor.writeAll(Array(text.utf8), to: 2)
    }
}
