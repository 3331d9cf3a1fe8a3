import Pixels

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal's size as the kernel reports it (TIOCGWINSZ).
package struct WindowSize: Sendable, Equatable {
    /// width = columns, height = rows.
    package var cells: CellCount
    /// Text area in pixels; nil when the terminal leaves ws_xpixel/ws_ypixel
    /// at zero (many do, and always over some ssh setups).
    package var pixels: PixelSize?

    package init(cells: CellCount, pixels: PixelSize?) {
        self.cells = cells
        self.pixels = pixels
    }
}

/// The size of the terminal on `fd`, or nil when `fd` is not a terminal.
/// Call it again after SIGWINCH. Cells beyond `TerminalLimits.maxWindowCells`
/// are capped there before anything grows with them (pixel fields are
/// bounded where they are used, `capabilities(from:winsize:)`).
package func windowSize(fd: Int32) -> WindowSize? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    return WindowSize(
        reportedColumns: Int(size.ws_col), rows: Int(size.ws_row), xPixels: Int(size.ws_xpixel),
        yPixels: Int(size.ws_ypixel))
}

extension WindowSize {
    /// The window from TIOCGWINSZ's four fields, bounded (see `windowSize(fd:)`).
    package init(reportedColumns columns: Int, rows: Int, xPixels: Int, yPixels: Int) {
        let limit = TerminalLimits.maxWindowCells
        let pixels = PixelSize(width: xPixels, height: yPixels)
        self.init(
            cells: CellCount(width: min(columns, limit), height: min(rows, limit)), pixels: pixels.isEmpty ? nil : pixels)
    }
}
