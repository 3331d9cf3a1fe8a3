#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one atomic file writer: `pxview save` and the viewer's `s` key, the
/// favourites file and the disk cache all write through it.
///
/// The bytes go to a temporary file the caller names in the destination's
/// directory (same file system, so the last step is atomic), created with
/// O_EXCL; then, when `synced`, fsync(2); then rename(2) over the
/// destination, or link(2) when an existing file must not be replaced; then,
/// when `synced`, an fsync of the directory so the new name survives a
/// crash too. Readers see the old file or the new one, never half of one. A
/// failure at any later step removes the temporary file.
package enum AtomicWrite {
    /// What happens to a file already at the destination.
    package enum Placement: Sendable {
        /// rename(2) over it.
        case replacing
        /// Refused, also when one appears while writing: link(2) fails with
        /// EEXIST rather than replace. File systems without hard links fall
        /// back to check-then-rename.
        case refusingExisting
    }

    /// Writes `bytes` to `path` through `temporary`. Throws the call that
    /// failed: "open" (creating the temporary file), "write", "fchmod",
    /// "fsync", "close", "rename" or "link"; with `.refusingExisting` an
    /// existing destination is `link` failing with EEXIST (`alreadyExists`).
    ///
    /// - Parameters:
    ///   - permissions: the temporary file's mode at creation (the umask applies).
    ///   - exactPermissions: then set it to exactly `permissions` with fchmod(2),
    ///     whatever the umask: the cache's files are 0600, never other.
    ///   - synced: fsync the file before it is moved and its directory after;
    ///     false for the cache, which detects a torn file rather than paying
    ///     a disk flush per thumbnail.
    ///   - beforeMove: called once the temporary file is written and closed,
    ///     just before it is moved (the cache sets its modification time there).
    package static func write(
        _ bytes: [UInt8], to path: [UInt8], temporary: [UInt8],
        permissions: mode_t = 0o666, exactPermissions: Bool = false, synced: Bool = true,
        placement: Placement = .replacing,
        beforeMove: () -> Void = {}
    ) throws(SystemError) {
        // A signal ending the process meanwhile removes the temporary file
        // (an interrupted save of a 32 MB photo once left its part behind).
        let failure = ProcessSignals.removing(temporary) {
            writeAndMove(
                bytes, to: path, temporary: temporary, permissions: permissions, exactPermissions: exactPermissions,
                synced: synced, placement: placement, beforeMove: beforeMove)
        }
        if let failure {
            // A temporary name that could not be created is someone else's.
            if failure.call != .open { _ = withPath(temporary) { unlink($0) } }
            throw failure
        }
        if synced { syncDirectory(of: path) }
    }

    private static func writeAndMove(
        _ bytes: [UInt8], to path: [UInt8], temporary: [UInt8], permissions: mode_t, exactPermissions: Bool,
        synced: Bool, placement: Placement, beforeMove: () -> Void
    ) -> SystemError? {
        let fd = withPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions) }
        guard fd >= 0 else { return .last(.open) }
        var failure: SystemError?
        do throws(SystemError) {
            try Descriptor.writeAll(bytes, to: fd)
        } catch {
            failure = error
        }
        if failure == nil, exactPermissions, fchmod(fd, permissions) != 0 { failure = .last(.fchmod) }
        if failure == nil, synced, fsync(fd) != 0 { failure = .last(.fsync) }
        if close(fd) != 0, failure == nil { failure = .last(.close) }
        if let failure { return failure }
        beforeMove()
        switch placement {
        case .replacing: return moveReplacing(temporary, path)
        case .refusingExisting: return moveRefusingExisting(temporary, path)
        }
    }

    /// rename(2) over the destination, which must be a regular file (or a
    /// link) if it exists: renaming over `/dev/null` as root once left a
    /// regular file in its place, and every program after that broke.
    private static func moveReplacing(_ temporary: [UInt8], _ path: [UInt8]) -> SystemError? {
        var info = stat()
        if withPath(path, { lstat($0, &info) }) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind != S_IFREG && kind != S_IFLNK { return notARegularFile }
        }
        let status = withPath(temporary) { from in withPath(path) { rename(from, $0) } }
        return status == 0 ? nil : .last(.rename)
    }

    /// How a replacing write fails when the destination is a device, a
    /// FIFO, a socket or a folder.
    package static let notARegularFile = SystemError(call: .rename, code: EPERM)

    /// link(2) then unlink the temporary name: atomic "create if absent".
    private static func moveRefusingExisting(_ temporary: [UInt8], _ path: [UInt8]) -> SystemError? {
        if withPath(temporary, { from in withPath(path) { link(from, $0) } }) == 0 {
            _ = withPath(temporary) { unlink($0) }
            return nil
        }
        let linkError = SystemError.last(.link)
        if linkError == alreadyExists { return linkError }
        guard [EPERM, ENOTSUP, EXDEV, EMLINK].contains(linkError.code) else { return linkError }
        var info = stat()
        if withPath(path, { lstat($0, &info) }) == 0 { return alreadyExists }
        return moveReplacing(temporary, path)
    }

    /// How a write refusing an existing destination fails when there is one.
    package static let alreadyExists = SystemError(call: .link, code: EEXIST)

    /// fsync of the directory holding `path`, so the rename is on disk too.
    /// Best effort: some file systems refuse fsync on a directory, and the
    /// file is in place whatever it says.
    private static func syncDirectory(of path: [UInt8]) {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { $0 == 0 ? [UInt8(ascii: "/")] : Array(path[..<$0]) } ?? [UInt8(ascii: ".")]
        let fd = withPath(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `body` with `path` as a NUL-terminated C string.
    private static func withPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body($0) }
        }
    }
}
