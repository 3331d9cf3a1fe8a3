import Glibc

/// A failed system call on the terminal, with the errno it left behind.
public struct TerminalError: Error, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. "tcgetattr".
    public var operation: String
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// A failure of `operation`, taking the errno the call just left.
    static func lastError(_ operation: String) -> TerminalError {
        TerminalError(operation: operation, errno: Glibc.errno)
    }

    public var description: String {
        "\(operation) failed: \(String(cString: strerror(errno)))"
    }
}
