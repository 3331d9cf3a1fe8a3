import ControlSequences
import Plumbing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends whole frames to the terminal.
///
/// A frame goes out in a single write loop so the terminal never renders a
/// half-drawn screen for long, and, when the terminal supports it, inside
/// synchronized output (`CSI ? 2026 h` … `CSI ? 2026 l`) so it renders none
/// at all. The screen is never cleared between frames: callers draw over the
/// previous frame, which is what keeps redraws flicker-free.
///
/// Inside a multiplexer this is the one place graphics are wrapped for
/// passthrough (`Passthrough.segments`). A wrapped picture lands wherever
/// the real terminal's cursor is, which is the *active* pane's, not
/// necessarily pxview's. So where tmux told where pxview's pane is
/// (`paneOrigin`), each picture is moved there inside the passthrough:
/// the cell the frame put the cursor on plus the pane's place on the
/// screen, after resetting the scroll margins (tmux forgets its cursor
/// and margins after any passthrough, so it sets both again itself).
/// Pictures then stay in pxview's pane after a split, with another pane
/// active. Where it is not known (a remote shell, a one-shot drawing),
/// the writer sends a fence before each picture that draws at the
/// cursor, DA1 (`CSI c`, answered by tmux itself), and waits for the
/// answer: tmux moves the real cursor to its pane only at the end of its
/// event loop turn (without the fence xterm under tmux 3.3a drew a picture
/// one cell right of and one row above where it was sent).
package struct FrameWriter: Sendable {
    /// DA1: every terminal and tmux answer it, `CSI ? … c`.
    static let fence = TerminalCommand.primaryDeviceAttributesQuery
    /// How long to wait for the fence's answer before drawing anyway.
    package static let fenceTimeoutMs = 500

    /// How bytes reach the descriptor.
    package enum Sink: Sendable {
        /// `write(2)` until done; errors are thrown.
        case direct
        /// `OutputGuard.write`: slices, so Ctrl-C can close an open sequence.
        case guarded
    }

    package var fd: Int32
    package var synchronizedOutput: Bool
    package var multiplexer: Multiplexer
    /// The terminal's input, in raw mode, where the fence's answer arrives;
    /// nil: pictures are sent without a fence.
    package var fenceInputFD: Int32?
    package var sink: Sink
    /// Inside a local tmux: pxview's pane's top-left cell on the outer
    /// screen (`TmuxPaneState.screenOrigin`). Pictures are then placed
    /// there absolutely and need no fence.
    package var paneOrigin: CellOffset?

    package init(
        fd: Int32 = 1, synchronizedOutput: Bool, multiplexer: Multiplexer = .none, fenceInputFD: Int32? = nil,
        sink: Sink = .direct
    ) {
        self.fd = fd
        self.synchronizedOutput = synchronizedOutput
        self.multiplexer = multiplexer
        self.fenceInputFD = fenceInputFD
        self.sink = sink
    }

    /// The exact bytes `write(_:)` sends for `frame` (fences aside).
    package func framed(_ frame: [UInt8]) -> [UInt8] {
        let body: [UInt8]
        if !multiplexer.wrapsGraphics {
            body = frame
        } else if let origin = paneOrigin {
            body = Passthrough.wrapGraphics(frame, placingAt: origin)
        } else {
            body = Passthrough.wrapGraphics(frame)
        }
        guard synchronizedOutput else { return body }
        return TerminalCommand.beginSynchronizedUpdate + body + TerminalCommand.endSynchronizedUpdate
    }

    /// Writes the frame completely, retrying on EINTR, waiting out EAGAIN on
    /// a non-blocking descriptor, and continuing after partial writes.
    /// Returns the input read while waiting for fences (keys the user typed
    /// meanwhile), for the input decoder.
    @discardableResult
    package func write(_ frame: [UInt8]) throws(TerminalError) -> [UInt8] {
        let bytes = framed(frame)
        guard multiplexer.wrapsGraphics, paneOrigin == nil, let input = fenceInputFD else {
            try send(bytes)
            return []
        }
        return try send(bytes, fencingAt: Passthrough.picturesAtCursor(in: bytes), input: input)
    }

    /// Writes a drawing made at the cursor (`show`, the library's
    /// `render`, already framed or not): inside tmux, where the pane's
    /// place is not known, on a terminal, with fences whose answers are
    /// read from the terminal in raw mode (so they are never echoed).
    /// The terminal is opened and asked only when a picture in `frame`
    /// draws at the cursor; `frame` is framed once.
    package func writeAtCursor(_ frame: [UInt8]) throws(TerminalError) {
        let bytes = framed(frame)
        let cuts = multiplexer.wrapsGraphics && paneOrigin == nil ? Passthrough.picturesAtCursor(in: bytes) : []
        guard !cuts.isEmpty, isatty(fd) == 1, let tty = ControllingTerminal.input() else {
            try send(bytes)
            return
        }
        defer { tty.close() }
        guard let session = try? TerminalSession(inputFD: tty.fd, outputFD: fd, options: .rawModeOnly) else {
            try send(bytes)
            return
        }
        defer { session.restore() }
        _ = try send(bytes, fencingAt: cuts, input: tty.fd)
    }

    /// `bytes` (framed), each picture drawn at the cursor (starting at
    /// `cuts`) sent after a fence, once tmux has answered it and so moved
    /// the terminal's cursor. Returns the input read meanwhile.
    private func send(_ bytes: [UInt8], fencingAt cuts: [Int], input: Int32) throws(TerminalError) -> [UInt8] {
        var typed: [UInt8] = []
        var start = 0
        for cut in cuts {
            try send(Array(bytes[start..<cut]) + Self.fence)
            typed += try awaitFence(input)
            start = cut
        }
        try send(Array(bytes[start...]))
        return typed
    }

    private func send(_ bytes: [UInt8]) throws(TerminalError) {
        guard !bytes.isEmpty else { return }
        switch sink {
        case .direct: try Descriptor.writeAll(bytes, to: fd)
        case .guarded: OutputGuard.write(bytes, fd: fd)
        }
    }

    /// Reads until the DA1 answer (or the timeout); returns the other input.
    private func awaitFence(_ input: Int32) throws(TerminalError) -> [UInt8] {
        var reader = ReplyReader(fd: input)
        let deadline = MonotonicClock.milliseconds() + Self.fenceTimeoutMs
        while !reader.parser.isComplete, try reader.readOnce(before: deadline) {}
        return reader.parser.leftoverInput
    }
}
