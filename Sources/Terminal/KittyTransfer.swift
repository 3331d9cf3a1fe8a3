import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// How pixels reach kitty. Through the pty (`t=d`: PNG, base64, chunked)
/// always works, over SSH too. When kitty runs on this machine it can read
/// raw pixels from a POSIX shared-memory object (`t=s`) or a temporary
/// file (`t=t`) and removes either once read: no compression, no base64 and
/// almost nothing through the pty (kitty's own icat does this). The probe
/// asks with a 1x1 object of each kind; only an `OK` enables one.
public enum KittyMedium: String, Sendable, Equatable {
    case direct
    case sharedMemory
    case file
}

/// Shared-memory objects and temporary files holding pixels for kitty.
public enum KittyTransfer {
    /// kitty deletes a `t=t` file after reading it only when its path
    /// contains this (and it is in a temporary folder).
    public static let fileMarker = "tty-graphics-protocol"

    /// A new shared-memory object holding `bytes`, readable by this user
    /// only; its name (`/pxview-PID-RANDOM`), or nil when it could not be made.
    public static func sharedMemory(_ bytes: [UInt8]) -> String? {
        for _ in 0..<4 {
            let name = "/pxview-\(getpid())-\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF)"
            let fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                return nil
            }
            defer { close(fd) }
            guard ftruncate(fd, off_t(bytes.count)) == 0, writeAll(bytes, to: fd) else {
                shm_unlink(name)
                return nil
            }
            return name
        }
        return nil
    }

    /// A new file in /tmp holding `bytes`, named so kitty removes it after
    /// reading; its path, or nil when it could not be made.
    public static func temporaryFile(_ bytes: [UInt8]) -> String? {
        var template = Array("/tmp/\(fileMarker)-pxview-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard writeAll(bytes, to: fd) else {
            unlink(path)
            return nil
        }
        return path
    }

    /// Removes what kitty did not (it removes what it read): ENOENT is the usual answer.
    public static func remove(_ reference: String, medium: KittyMedium) {
        switch medium {
        case .sharedMemory: shm_unlink(reference)
        case .file: unlink(reference)
        case .direct: break
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        (try? Descriptor.writeAll(bytes, to: fd)) != nil
    }

    // MARK: The probe

    /// Query ids the replies echo (`ProbeReplies.kittyMediumMessages`).
    public static let sharedMemoryQueryID = 32
    public static let fileQueryID = 33
}
