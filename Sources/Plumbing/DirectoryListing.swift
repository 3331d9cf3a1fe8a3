#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a directory by bytes, and removing what dead processes left in
/// one: a save's `.pxview.part-PID-RAND`, kitty's `/dev/shm/pxview-PID-…`
/// and `/tmp/tty-graphics-protocol-pxview-PID-…` objects.
package enum DirectoryListing {
    /// The entries of `directory` whose names start with `prefix`, as bytes
    /// ("." and ".." left out); empty when it cannot be read. Names are
    /// compared in place and only those wanted are copied: /tmp can hold
    /// thousands of entries (2,500 here) that a sweep has no use for.
    package static func names(in directory: [UInt8], prefix: [UInt8] = []) -> [[UInt8]] {
        guard let handle = withPath(directory, { opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            // Only up to the NUL: glibc allocates each entry at its name's
            // length, so copying d_name's whole 256 bytes reads past it
            // (AddressSanitizer caught it listing /dev/shm).
            let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \.d_name)!
            let length = strlen(start.assumingMemoryBound(to: CChar.self))
            guard length >= prefix.count, memcmp(start, prefix, prefix.count) == 0 else { continue }
            let name = Array(UnsafeRawBufferPointer(start: start, count: length))
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
        }
        return names
    }

    /// Removes every entry of `directory` whose `owner` (the process id
    /// its name holds, or nil for names that are not pxview's) is a process
    /// that no longer runs. This process's own entries, another running
    /// pxview's, and every other file are left alone. A process id reused
    /// since keeps its files until that process ends too.
    ///
    /// Only names starting with `prefix` are looked at: /tmp can hold
    /// thousands of entries (2,500 here), each made a string otherwise.
    package static func removeEntriesOfDeadProcesses(
        in directory: [UInt8], prefix: [UInt8] = [], owner: (String) -> pid_t?
    ) {
        let base = directory.last == UInt8(ascii: "/") ? directory : directory + [UInt8(ascii: "/")]
        let me = getpid()
        for name in names(in: directory, prefix: prefix) {
            guard let pid = owner(String(decoding: name, as: UTF8.self)), pid > 0, pid != me else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { _ = withPath(base + name) { unlink($0) } }
        }
    }

    /// `body` with `path` as a NUL-terminated C string.
    static func withPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body($0) }
        }
    }
}
