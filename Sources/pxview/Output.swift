import Foundation
import Plumbing
import Terminal

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Writes to the process's standard streams with write(2): whole buffers,
/// retried on EINTR and short writes, so a frame is never half-sent.
enum Output {
    static func write(_ bytes: [UInt8], fd: Int32 = 1) {
        if fd == 1 {
            // Slices, so an interrupted drawing can still close its sequence.
            OutputGuard.write(bytes, fd: fd)
            return
        }
        // A closed pipe or a real error: nothing more can be said.
        try? Descriptor.writeAll(bytes, to: fd)
    }

    static func out(_ text: String) { write(Array(text.utf8), fd: 1) }
    static func err(_ text: String) { write(Array(text.utf8), fd: 2) }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// What an image library wrote while its output was captured
    /// (`StderrCapture`): nothing, unless `PXVIEW_DEBUG` asks, then one
    /// sanitized line each.
    static func librarySaid(_ text: [UInt8]) { librarySaid(text, environment: ProcessInfo.processInfo.environment) }

    static func librarySaid(_ text: [UInt8], environment: [String: String]) {
        guard !(environment["PXVIEW_DEBUG"] ?? "").isEmpty else { return }
        for line in String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline) {
            err("pxview: a library said: \(TerminalText.sanitize(String(line)))\n")
        }
    }
}

/// Exit codes scripts can rely on.
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}
