import Plumbing

/// A failed system call on the terminal, with the errno it left behind:
/// Plumbing's `SystemError`, the one such type (the write-all loop and the
/// atomic file writer fail with it too).
package typealias TerminalError = SystemError
