import Foundation
import Plumbing
import Terminal

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Writes a whole file or nothing, through `AtomicWrite`: the bytes go to a
/// hidden temporary file `.pxview.part-PID-RAND` in the destination's
/// directory (the same file system, so the move is atomic), which is then
/// linked or renamed into place. A failure at any
/// point removes the temporary file, so nothing half-written is left behind.
/// Paths are bytes, as the kernel takes them.
enum AtomicFile {
    /// The destination is already there and `replacing` was false. Callers
    /// word the advice: `save` has `--force`, the viewer's `s` key has not.
    struct AlreadyExists: Error, CustomStringConvertible {
        var path: [UInt8]
        var description: String { "\(RawFile.display(path)) already exists" }
    }

    static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws {
        try write(bytes, to: Array(path.utf8), replacing: replacing)
    }

    /// - Parameter replacing: false refuses an existing file, also one that
    ///   appeared while writing (link(2) fails with EEXIST rather than replace).
    ///
    /// Ctrl-C, SIGTERM or SIGHUP while writing removes the temporary file
    /// (`AtomicWrite` registers it with `ProcessSignals`); one a killed process could not remove (SIGKILL,
    /// a crash) is swept by the next write into the same folder.
    static func write(_ bytes: [UInt8], to path: [UInt8], replacing: Bool) throws {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { Array(path[...$0]) } ?? []
        sweepStaleParts(in: directory.isEmpty ? Array(".".utf8) : directory)
        let temporary = directory + temporaryName()
        do throws(SystemError) {
            try AtomicWrite.write(
                bytes, to: path, temporary: temporary, placement: replacing ? .replacing : .refusingExisting)
        } catch {
            if error == AtomicWrite.alreadyExists { throw AlreadyExists(path: path) }
            if error == AtomicWrite.notARegularFile {
                throw CommandError(
                    "cannot write \(RawFile.display(path)): not a regular file (a device or a folder is never replaced)")
            }
            throw CommandError("cannot write \(RawFile.display(path)): \(error.reason)")
        }
    }

    /// `.pxview.part-PID-RAND`: at most 35 bytes whatever the destination's
    /// name, so a name the file system allows (255 bytes) can be written.
    /// It once was `.NAME.part-PID-RAND`, 30 bytes longer than NAME, and
    /// `save --out` to a 255-byte name failed with "File name too long".
    /// The sweep below knows both forms.
    static func temporaryName(pid: pid_t = getpid(), random: UInt32 = .random(in: 0 ... .max)) -> [UInt8] {
        Array(".pxview.part-\(pid)-\(random)".utf8)
    }

    /// Removes `.NAME.part-PID-RAND` files of processes that no longer run:
    /// what an interrupted write left behind. Another running pxview's part
    /// files, and any other file, are left alone.
    static func sweepStaleParts(in directory: [UInt8]) {
        DirectoryListing.removeEntriesOfDeadProcesses(in: directory, owner: partFileOwner)
    }

    /// The process id in a part file's name `.NAME.part-PID-RAND`, or nil.
    static func partFileOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".part-", options: .backwards),
            marker.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        let fields = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[1].allSatisfy(\.isNumber), !fields[1].isEmpty,
            let pid = pid_t(fields[0]), pid > 0
        else { return nil }
        return pid
    }
}
