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
package enum KittyMedium: String, Sendable, Equatable {
    case direct
    case sharedMemory
    case file
}

/// Shared-memory objects and temporary files holding pixels for kitty.
///
/// Each is registered with `ProcessSignals` while it exists, so a signal
/// ending pxview removes it, and named with pxview's process id, so the
/// next run removes what a killed one left (`sweepStale`: SIGKILL, a crash,
/// a terminal that answered `OK` but never read them).
package enum KittyTransfer {
    /// kitty deletes a `t=t` file after reading it only when its path
    /// contains this (and it is in a temporary folder).
    package static let fileMarker = "tty-graphics-protocol"
    /// What every object's name starts with, before `PID-`.
    static let sharedMemoryPrefix = "pxview-"
    static let filePrefix = "\(fileMarker)-pxview-"
    /// Where glibc keeps POSIX shared-memory objects (`shm_open`'s `/NAME`).
    static let sharedMemoryDirectory = "/dev/shm"
    static let fileDirectory = "/tmp"

    /// A new shared-memory object holding `bytes`, readable by this user
    /// only; its name (`/pxview-PID-RANDOM`), or nil when it could not be made.
    /// `removedAtExit`: registered with `ProcessSignals` (false for an
    /// object kitty may read after pxview has gone).
    package static func sharedMemory(_ bytes: [UInt8], removedAtExit: Bool = true) -> String? {
        for _ in 0..<4 {
            let name = "/\(sharedMemoryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF)"
            let removal = removedAtExit ? ProcessSignals.removeOnExit(sharedMemoryDirectory + name) : nil
            let fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
            if fd < 0 {
                ProcessSignals.forget(removal)
                if errno == EEXIST { continue }
                return nil
            }
            defer { close(fd) }
            guard ftruncate(fd, off_t(bytes.count)) == 0, writeAll(bytes, to: fd) else {
                shm_unlink(name)
                ProcessSignals.forget(removal)
                return nil
            }
            return name
        }
        return nil
    }

    /// A new file in /tmp holding `bytes`, named so kitty removes it after
    /// reading (`/tmp/tty-graphics-protocol-pxview-PID-XXXXXX`); its path,
    /// or nil when it could not be made.
    package static func temporaryFile(_ bytes: [UInt8], removedAtExit: Bool = true) -> String? {
        var template = Array("\(fileDirectory)/\(filePrefix)\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A signal before the next line leaves the file to the next run's sweep.
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let removal = removedAtExit ? ProcessSignals.removeOnExit(made) : nil
        guard writeAll(bytes, to: fd) else {
            unlink(made)
            ProcessSignals.forget(removal)
            return nil
        }
        return made
    }

    /// Removes what kitty did not (it removes what it read): ENOENT is the usual answer.
    package static func remove(_ reference: String, medium: KittyMedium) {
        switch medium {
        case .sharedMemory:
            shm_unlink(reference)
            ProcessSignals.forget(path: sharedMemoryDirectory + reference)
        case .file:
            unlink(reference)
            ProcessSignals.forget(path: reference)
        case .direct:
            break
        }
    }

    /// True while the object is still there: kitty has not read it yet
    /// (it removes what it reads), or never will.
    package static func exists(_ reference: String, medium: KittyMedium) -> Bool {
        var info = stat()
        switch medium {
        case .sharedMemory: return stat(sharedMemoryDirectory + reference, &info) == 0
        case .file: return stat(reference, &info) == 0
        case .direct: return false
        }
    }

    /// Removes the objects and files of pxview processes that no longer
    /// run. Called at start by every run that draws: a pxview killed by
    /// SIGKILL, or one whose terminal never read its objects, leaves them
    /// behind, and nothing else would ever remove them.
    package static func sweepStale() {
        DirectoryListing.removeEntriesOfDeadProcesses(
            in: Array(sharedMemoryDirectory.utf8), prefix: Array(sharedMemoryPrefix.utf8)
        ) { owner(in: $0, prefix: sharedMemoryPrefix) }
        DirectoryListing.removeEntriesOfDeadProcesses(in: Array(fileDirectory.utf8), prefix: Array(filePrefix.utf8)) {
            owner(in: $0, prefix: filePrefix)
        }
    }

    /// The sweep runs at most once in this many seconds: listing a /tmp of
    /// 3,800 entries cost 3.3 ms of CPU on every run (a quarter of a
    /// one-shot drawing's), and what it removes is rare (SIGKILL, a crash).
    package static let sweepIntervalSeconds = 3600

    /// `sweepStale` when it is due: when `stamp` (a file in pxview's own
    /// folder) is missing, not a regular file, or last touched more than
    /// `sweepIntervalSeconds` ago; the stamp is touched first. True when it ran.
    @discardableResult
    package static func sweepStaleIfDue(stamp: String, nowSeconds: Int = Int(time(nil))) -> Bool {
        var info = stat()
        if lstat(stamp, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            let age = nowSeconds - Int(info.st_mtim.tv_sec)
            if age >= 0 && age < sweepIntervalSeconds { return false }
        }
        let fd = open(stamp, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        if fd >= 0 {
            futimens(fd, nil)
            close(fd)
        }
        sweepStale()
        return true
    }

    /// The process id in `PREFIX` `PID-REST`, or nil for any other name.
    static func owner(in name: String, prefix: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), dash > rest.startIndex, rest[rest.index(after: dash)...].count > 0
        else { return nil }
        let digits = rest[..<dash]
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return pid_t(digits)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        (try? Descriptor.writeAll(bytes, to: fd)) != nil
    }

    // MARK: The probe

    /// Query ids the replies echo (`ProbeReplies.kittyMediumMessages`).
    package static let sharedMemoryQueryID = 32
    package static let fileQueryID = 33
}

/// The objects one backend handed to kitty that kitty may not have read
/// yet: removed once they are `unreadLimitMilliseconds` old (kitty reads
/// an object as soon as it parses the command, within milliseconds; one
/// still there later never will be: a terminal that answered the probe's
/// `OK` and then read nothing once collected 95 objects, 15 MB, in one
/// folder-grid session), and all of them at teardown.
package struct KittyHandover: Sendable {
    /// Generous against a terminal busy drawing (kitty under software GL
    /// here lags a frame or two), short against memory held in /dev/shm.
    package static let unreadLimitMilliseconds = 5000

    private var objects: [(reference: String, medium: KittyMedium, since: Int)] = []

    package init() {}

    /// The objects not yet removed (tests).
    package var count: Int { objects.count }

    /// Records `reference`, first removing the ones that are too old.
    package mutating func add(_ reference: String, medium: KittyMedium, now: Int = MonotonicClock.milliseconds()) {
        reap(now: now)
        objects.append((reference, medium, now))
    }

    /// Removes what kitty has not read within the limit, and forgets what it
    /// read (it removed those itself).
    package mutating func reap(now: Int = MonotonicClock.milliseconds()) {
        objects.removeAll { object in
            guard KittyTransfer.exists(object.reference, medium: object.medium) else {
                KittyTransfer.remove(object.reference, medium: object.medium)
                return true
            }
            guard now - object.since >= Self.unreadLimitMilliseconds else { return false }
            KittyTransfer.remove(object.reference, medium: object.medium)
            return true
        }
    }

    /// Removes every object still there.
    package mutating func removeAll() {
        for object in objects { KittyTransfer.remove(object.reference, medium: object.medium) }
        objects = []
    }
}
