#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the image libraries write to standard error, kept off the
/// terminal: while a capture lasts, descriptor 2 points at an unlinked
/// temporary file (a file, not a pipe, so a library that writes much never
/// blocks on a reader). libjxl printed `./lib/jxl/…: JXL_FAILURE: …` for
/// 1,261 of 2,100 damaged files and the AV1 decoders `Unknown OBU type`,
/// raw, into the grid's alternate screen, scrolling it. pxview says what
/// failed in its own one line; the libraries' words are shown only with
/// `PXVIEW_DEBUG` (sanitized, after the capture).
///
/// Descriptor 2 is the process's: one capture at a time, started and
/// finished by the one thread that runs the command (the explorer's loop,
/// `show`'s drawing), never around work that prints pxview's own messages.
package final class StderrCapture {
    private let saved: Int32
    private let file: Int32
    private var finished = false

    /// Starts capturing; nil when descriptor 2 cannot be moved (then the
    /// libraries write where they always did).
    package init?() {
        var template = Array("/tmp/pxview-stderr-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let saved = dup(2)
        guard saved >= 0, dup2(file, 2) >= 0 else {
            if saved >= 0 { close(saved) }
            close(file)
            return nil
        }
        self.saved = saved
        self.file = file
    }

    deinit { _ = finish() }

    /// The most of what was written that `finish` keeps.
    package static let keptBytes = 16 << 10

    /// Descriptor 2 back where it was; the last `keptBytes` written meanwhile.
    package func finish() -> [UInt8] {
        guard !finished else { return [] }
        finished = true
        dup2(saved, 2)
        close(saved)
        defer { close(file) }
        let end = lseek(file, 0, SEEK_END)
        guard end > 0 else { return [] }
        let start = max(0, Int(end) - Self.keptBytes)
        var bytes = [UInt8](repeating: 0, count: Int(end) - start)
        let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, off_t(start)) }
        return count > 0 ? Array(bytes.prefix(count)) : []
    }

    /// `body` with the libraries' output captured; what they wrote is
    /// handed to `said` (for `PXVIEW_DEBUG`) once descriptor 2 is back.
    package static func around<T, E: Error>(said: ([UInt8]) -> Void = { _ in }, _ body: () throws(E) -> T) throws(E) -> T {
        let capture = StderrCapture()
        defer {
            if let capture {
                let text = capture.finish()
                if !text.isEmpty { said(text) }
            }
        }
        return try body()
    }
}
