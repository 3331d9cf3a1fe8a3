import Explorer
import Pixels
import Terminal
import Testing

/// Every key a user can type, as the input decoder makes them: printable
/// characters, the named keys, and Control with a letter.
func everyKey() -> [Key] {
    var keys: [Key] = (32...126).map { Key(.char(Character(Unicode.Scalar(UInt8($0))))) }
    keys += [
        .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .enter, .escape, .tab, .backTab,
        .backspace, .function(1), .function(5), .function(12),
    ].map { Key($0) }
    keys += "abcdefghijklmnopqrstuvwxyz".map { Key(.char($0), [.control]) }
    return keys
}

/// One table per screen says what each key does and is what help lists:
/// a key a screen answers and its help does not name fails here.
@Suite struct KeyTableTests {
    /// Each table line's label names every key it binds, so `?` help,
    /// `--help` and the man page list them all.
    @Test func everyBoundKeyIsNamedInItsLine() {
        for line in BrowserState.keys.lines {
            for key in line.keys {
                #expect(line.label.contains(key.chord.name), "\(key.chord.name) missing from '\(line.label)'")
            }
        }
        #expect(KeyHelp.browser.map(\.keys).contains("Home, End (g, G)"))
    }

    /// No key is bound twice.
    @Test func noKeyIsBoundTwice() {
        let chords = BrowserState.keys.chords
        #expect(Set(chords).count == chords.count)
    }

    /// The grid answers no key outside its table: for every other key the
    /// state and its effects stay as they were.
    @Test func theGridAnswersOnlyTheKeysItsTableLists() {
        let listed = Set(BrowserState.keys.chords)
        let start = loadedBrowser(hits: 30)
        var moved = start
        _ = moved.handle(press(.right))
        for base in [start, moved] {
            for key in everyKey() where !listed.contains(KeyChord(key)) {
                var state = base
                let effects = state.handle(.input(.key(key)))
                #expect(effects.isEmpty && state == base, "\(key) is handled but not in the grid's key table")
            }
        }
    }
}
