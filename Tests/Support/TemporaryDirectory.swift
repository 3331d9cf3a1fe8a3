import Foundation

/// A fresh directory under the system temp dir, removed (with everything in
/// it) when the last reference goes away, so tests never share or leak files.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "pxview-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Names in the directory, sorted (hidden files included).
    public func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
