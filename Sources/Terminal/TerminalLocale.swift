/// The character set the terminal's text is in, as the C library would pick
/// it: `LC_ALL`, else `LC_CTYPE`, else `LANG`, else the C locale. A C or
/// POSIX locale (a minimal container, some SSH setups) means ASCII: the
/// terminal shows UTF-8 frames and ellipses as garbage there.
public struct TerminalLocale: Equatable, Sendable {
    /// The locale's name as set ("C.UTF-8", "en_GB.utf8", "C").
    public var name: String
    public var isUTF8: Bool

    public init(environment: [String: String]) {
        let name =
            [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]].compactMap { $0 }.first {
                !$0.isEmpty
            } ?? "C"
        self.name = name
        let lower = name.lowercased()
        isUTF8 = lower.contains("utf-8") || lower.contains("utf8")
    }
}
