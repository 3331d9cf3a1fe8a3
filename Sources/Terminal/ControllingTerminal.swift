#if canImport(Glibc)
    import Glibc
#endif

/// The terminal pxview talks to when a standard stream is not it: the one
/// place that falls back to `/dev/tty`. The probe and a drawing's tmux
/// fences read its replies from `input()`; a previewer whose standard
/// output is the host program's pipe draws on `output()`.
package final class ControllingTerminal {
    package let fd: Int32
    private let opened: Bool

    private init(fd: Int32, opened: Bool) {
        self.fd = fd
        self.opened = opened
    }

    /// Standard input when it is the terminal, else `/dev/tty` opened for
    /// reading and writing; nil when there is no terminal to read from.
    package static func input() -> ControllingTerminal? {
        open(standard: 0, flags: O_RDWR)
    }

    /// Standard output when it is the terminal, else `/dev/tty` opened for
    /// writing; nil when there is no terminal to draw on.
    package static func output() -> ControllingTerminal? {
        open(standard: 1, flags: O_WRONLY)
    }

    /// The terminal a preview draws on, opened anew (its own open file,
    /// so the host's descriptors stay as they are) and non-blocking: a
    /// write never waits inside write(2) on a terminal that stopped
    /// reading, so what reached its queue is always known to the byte
    /// (`ProcessSignals.closeDrawing`). Standard output's terminal when it
    /// is one, else `/dev/tty`.
    package static func previewOutput() -> ControllingTerminal? {
        let path = isatty(1) == 1 ? "/proc/self/fd/1" : "/dev/tty"
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? ControllingTerminal(fd: fd, opened: true) : nil
    }

    private static func open(standard: Int32, flags: Int32) -> ControllingTerminal? {
        if isatty(standard) == 1 { return ControllingTerminal(fd: standard, opened: false) }
        let fd = Glibc.open("/dev/tty", flags | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? ControllingTerminal(fd: fd, opened: true) : nil
    }

    /// pxview's process group is the terminal's foreground one: its replies
    /// will reach pxview, not a shell waiting at its prompt.
    package var isForeground: Bool {
        let foreground = tcgetpgrp(fd)
        return foreground < 0 || foreground == getpgrp()
    }

    /// Closes `/dev/tty` when it was opened; a standard stream stays open.
    package func close() {
        if opened { Glibc.close(fd) }
    }
}
