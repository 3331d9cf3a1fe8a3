import Terminal

/// The viewer before its first photo has come (`show FILE…`, `open ID`):
/// the photo is fetched and decoded off the loop while this screen answers
/// keys, so `q`, Ctrl-C and `n`/`p` work at once however long a file takes
/// (a hostile 500-frame GIF once held a cooked terminal for over 10 s).
/// A photo that cannot be opened is a line for stderr, and the next one is
/// tried; the first that decodes opens the viewer.
struct OpeningState: Equatable {
    /// The photo on its way.
    var title: String
    /// Whether the photos given go on after this one (`n` skips to the next).
    var hasNext: Bool
    /// One line for each photo that could not be opened, printed once the
    /// terminal is back (as they were when the viewer opened only after them).
    var failures: [String] = []
    /// Said in place of the keys' hint (at either end of the photos).
    var message: String?

    /// What `key` asks for, by the viewer's own table: `q` and Esc quit,
    /// `n`/`p` (and Space, Backspace) step through the photos given, `g`/`G`
    /// go to the first and last.
    static func effect(for key: Key) -> ViewerEffect? {
        switch ViewerState.keys.action(for: key) {
        case .quit, .back: return .quit
        case .nextPhoto: return .step(1)
        case .previousPhoto: return .step(-1)
        case .firstPhoto: return .stepToEnd(last: false)
        case .lastPhoto: return .stepToEnd(last: true)
        default: return nil
        }
    }

    /// The status line while waiting.
    var status: String {
        "opening \(title)… · " + (message ?? ("q quits" + (hasNext ? " · n skips to the next" : "")))
    }

    /// The photo could not be opened: its line is kept; true when there is
    /// a next one to try.
    mutating func failed(_ message: String) -> Bool {
        failures.append(message)
        return hasNext
    }
}
