/// Sends whole frames to the terminal.
///
/// A frame goes out in a single write loop so the terminal never renders a
/// half-drawn screen for long, and, when the terminal supports it, inside
/// synchronized output (`CSI ? 2026 h` … `CSI ? 2026 l`) so it renders none
/// at all. The screen is never cleared between frames: callers draw over the
/// previous frame, which is what keeps redraws flicker-free.
public struct FrameWriter: Sendable {
    public static let beginSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026h".utf8)
    public static let endSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)

    public var fd: Int32
    public var synchronizedOutput: Bool

    public init(fd: Int32 = 1, synchronizedOutput: Bool) {
        self.fd = fd
        self.synchronizedOutput = synchronizedOutput
    }

    /// The exact bytes `write(_:)` sends for `frame`.
    public func framed(_ frame: [UInt8]) -> [UInt8] {
        guard synchronizedOutput else { return frame }
        return Self.beginSynchronizedUpdate + frame + Self.endSynchronizedUpdate
    }

    /// Writes the frame completely, retrying on EINTR, waiting out EAGAIN on
    /// a non-blocking descriptor, and continuing after partial writes.
    public func write(_ frame: [UInt8]) throws(TerminalError) {
        try FileDescriptorIO.writeAll(framed(frame), to: fd)
    }
}
