import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh buffer's pages faulted in on another core while the caller
/// fills it on this one.
///
/// A decoder writing a picture into new memory takes a page fault every
/// 4 KB, and on this project's build machine (a virtual machine) each costs
/// about 2.5 µs: 2 400 of them, 6 ms, for the 10 MB of a 1920x1280 GIF,
/// all on the decoding thread, while the second core waits for the
/// resample. `MADV_POPULATE_WRITE` (Linux 5.14) makes the pages present and
/// writable without touching their contents, so it can run beside the
/// decoder writing the same buffer: a page either has already faulted (and
/// is skipped) or is populated first (and written by the decoder later).
/// The helper works from the end backwards, a megabyte at a time, towards
/// the decoder, which starts at the top. Where the kernel lacks it the
/// call fails and nothing changes.
public enum Prefault {
    /// Below this a buffer is filled without help: the hand-off to another
    /// thread costs about what faulting a few hundred KB does.
    public static let minimumBytes = 1 << 20

    /// `MADV_POPULATE_WRITE`, not in Debian 12's Glibc headers.
    static let populateWrite: Int32 = 23

    /// Runs `body`, which fills `buffer`, while another thread faults in
    /// its pages; returns once both are done.
    public static func whileFilling<Result>(_ buffer: UnsafeMutableRawBufferPointer, _ body: () -> Result) -> Result {
        guard buffer.count >= minimumBytes, let base = buffer.baseAddress else { return body() }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + buffer.count) / page * page
        guard end > start else { return body() }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            var top = end
            while top > start {
                let bottom = max(start, top - minimumBytes)
                guard madvise(UnsafeMutableRawPointer(bitPattern: bottom), top - bottom, populateWrite) == 0 else { break }
                top = bottom
            }
            done.signal()
        }
        let result = body()
        done.wait()
        return result
    }
}
