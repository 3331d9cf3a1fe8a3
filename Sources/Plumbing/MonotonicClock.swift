#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one clock pxview measures time with: milliseconds on CLOCK_MONOTONIC,
/// which never jumps when the wall clock is set. clock_gettime is
/// async-signal-safe, so `ProcessSignals`' handlers read it too.
package enum MonotonicClock {
    package static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
