import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one pseudo-terminal opener, for the tests (the terminal layer's and
/// the end-to-end explorer's) and `pxbench --preview`: whoever opens it
/// plays the terminal emulator on the master side.
///
/// Swift's Glibc module does not import posix_openpt/grantpt/unlockpt/ptsname
/// (they need _XOPEN_SOURCE), so this does what glibc does on Linux: open
/// /dev/ptmx, unlock it (TIOCSPTLCK) and ask its number (TIOCGPTN).
package enum PseudoTerminalDevice {
    /// `_IOW('T', 0x31, int)` and `_IOR('T', 0x30, unsigned int)`, which the
    /// importer cannot evaluate.
    private static let setLock = UInt(0x4004_5431)
    private static let getNumber = UInt(0x8004_5430)

    /// A new master, unlocked, and the path of its slave (`/dev/pts/N`);
    /// the caller closes the master.
    package static func openMaster() throws -> (master: Int32, slavePath: String) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENODEV) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            let code = errno
            close(master)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ENODEV)
        }
        return (master, "/dev/pts/\(number)")
    }

    /// The size the slave side reports (TIOCSWINSZ on the master).
    package static func setWindowSize(_ master: Int32, rows: UInt16, columns: UInt16, width: UInt16, height: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: width, ws_ypixel: height)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }
}
