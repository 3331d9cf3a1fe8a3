import Glibc
import Pixels

/// The terminal's size as the kernel reports it (TIOCGWINSZ).
public struct WindowSize: Sendable, Equatable {
    /// width = columns, height = rows.
    public var cells: PixelSize
    /// Text area in pixels; nil when the terminal leaves ws_xpixel/ws_ypixel
    /// at zero (many do, and always over some ssh setups).
    public var pixels: PixelSize?

    public init(cells: PixelSize, pixels: PixelSize?) {
        self.cells = cells
        self.pixels = pixels
    }
}

/// The size of the terminal on `fd`, or nil when `fd` is not a terminal.
/// Call it again after SIGWINCH.
public func windowSize(fd: Int32) -> WindowSize? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    let pixels = PixelSize(width: Int(size.ws_xpixel), height: Int(size.ws_ypixel))
    return WindowSize(
        cells: PixelSize(width: Int(size.ws_col), height: Int(size.ws_row)),
        pixels: pixels.isEmpty ? nil : pixels)
}
