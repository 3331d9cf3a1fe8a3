/// The one way pxview writes a size in bytes for people: a file's size in
/// the viewer, `Y`'s status line, `save`'s and `cache`'s lines, the
/// download progress, a decode refused for its memory. "512 B", "1.5 KB",
/// "2.4 MB", "1.1 GB": binary units with one decimal, so a size reads the
/// same wherever it appears. (A limit, always a round number, is said
/// exactly where it is checked: "larger than 256 MB".)
package enum ByteSize {
    private static let units = ["KB", "MB", "GB", "TB"]

    /// `bytes` to the nearest tenth of the largest unit it reaches; under
    /// 1 KB as whole bytes (nothing below 0).
    package static func text(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(max(0, bytes)) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        // Rounding decides the unit: 1023.96 KB is "1.0 MB", not "1024.0 KB".
        while (value * 10).rounded() >= 10240, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
