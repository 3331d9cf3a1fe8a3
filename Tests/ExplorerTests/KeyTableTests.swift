import Explorer
import Pixels
import Rendering
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
    /// `--help` and the man page list them all; no key is bound twice.
    @Test func everyBoundKeyIsNamedInItsLineAndBoundOnce() {
        let tables: [(String, [(label: String, names: [String])], [KeyChord])] = [
            ("grid", BrowserState.keys.lines.map { ($0.label, $0.keys.map(\.chord.name)) }, BrowserState.keys.chords),
            (
                "folder grid", BrowserState.folderKeys.lines.map { ($0.label, $0.keys.map(\.chord.name)) },
                BrowserState.folderKeys.chords
            ),
            ("viewer", ViewerState.keys.lines.map { ($0.label, $0.keys.map(\.chord.name)) }, ViewerState.keys.chords),
        ]
        for (screen, lines, chords) in tables {
            for line in lines {
                for name in line.names {
                    #expect(line.label.contains(name), "\(screen): \(name) missing from '\(line.label)'")
                }
            }
            #expect(Set(chords).count == chords.count, "\(screen): a key bound twice")
        }
        // Once handled but listed nowhere.
        #expect(KeyHelp.browser.map(\.keys).contains("Home, End (g, G)"))
        #expect(KeyHelp.viewer.map(\.keys).contains("- _") && KeyHelp.viewer.map(\.keys).contains("Ctrl-C"))
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

    /// A folder's grid answers no key outside its own table (no `f`/`F`:
    /// favourites keep Pixabay photos).
    @Test func theFolderGridAnswersOnlyTheKeysItsTableLists() {
        let listed = Set(BrowserState.folderKeys.chords)
        #expect(!listed.contains(KeyChord(.char("f"))) && !listed.contains(KeyChord(.char("F"))))
        let start = folderBrowser(files: 30)
        for key in everyKey() where !listed.contains(KeyChord(key)) {
            var state = start
            let effects = state.handle(.input(.key(key)))
            #expect(effects.isEmpty && state == start, "\(key) is handled but not in the folder grid's key table")
        }
    }

    /// What `?` shows on each screen (and `--help` and the man page list),
    /// line for line: only keys that work there.
    @Test func eachScreensHelpListsItsOwnKeys() {
        #expect(
            KeyHelp.lines(KeyHelp.folderGrid) == [
                "arrows, h j k l    move the selection",
                "Home, End (g, G)   first, last photo",
                "PgUp, PgDn (p, n)  a page of tiles up, down",
                "+ = / -            larger / smaller tiles (kept while pxview runs)",
                "Enter, click       open the viewer",
                "wheel              scroll a row",
                "/                  show only names containing a text (Enter keep, Esc cancel)",
                "m, M               mark / unmark the photo, all / none (show -o prints the marked)",
                "Ctrl-X KEY         run your key-handler KEY on the marked files (or this one)",
                "q, Ctrl-C          quit",
                "Ctrl-Z             suspend to the shell (fg comes back)",
                "?                  this help (any key closes it)",
            ])
        #expect(
            KeyHelp.lines(KeyHelp.browser) == [
                "arrows, h j k l    move the selection",
                "Home, End (g, G)   first, last photo (End loads every page)",
                "PgUp, PgDn (p, n)  a page of tiles up, down",
                "+ = / -            larger / smaller tiles (kept while pxview runs)",
                "Enter, click       open the viewer",
                "wheel              scroll a row",
                "/                  new search (Enter search, Esc cancel)",
                "f                  toggle favourite",
                "F                  favourites (again: back to the search)",
                "q, Ctrl-C          quit",
                "Ctrl-Z             suspend to the shell (fg comes back)",
                "?                  this help (any key closes it)",
            ])
    }

    /// The same for the viewer, zoomed in (so pans would move it).
    @Test func theViewerAnswersOnlyTheKeysItsTableLists() {
        let listed = Set(ViewerState.keys.chords)
        var zoomed = viewer()
        _ = zoomed.handle(key("+"))
        _ = zoomed.handle(key("+"))
        for base in [viewer(), zoomed] {
            for pressed in everyKey() where !listed.contains(KeyChord(pressed)) {
                var state = base
                let effects = state.handle(.input(.key(pressed), timeMs: 0))
                #expect(effects.isEmpty && state == base, "\(pressed) is handled but not in the viewer's key table")
            }
        }
    }
}
