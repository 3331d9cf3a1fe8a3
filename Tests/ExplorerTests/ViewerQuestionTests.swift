import Explorer
import Photos
import Terminal
import Testing

/// The questions the viewer's status line asks: the folder for a file's
/// copy (`s`), the key for the key handler (Ctrl-X); and how the handler's
/// KEY and input are made.
@Suite struct ViewerQuestionTests {
    /// `s` on a file asks for the folder, offering the suggestion; keys
    /// edit the line (a paste too), Enter saves there and it is offered
    /// next time, Esc saves nothing; with `--out` no question is asked.
    @Test func sOnAFileAsksForTheFolder() {
        var state = viewer()
        state.saveFolderSuggestion = "/home/u/Pictures"
        #expect(state.handle(key("s")) == [])
        #expect(state.question == .saveFolder("/home/u/Pictures"))
        #expect(state.message == "save a copy in: /home/u/Pictures_  (Enter saves, Esc cancels)")
        // Keys that mean something else are letters here.
        for character in "/new q" { _ = state.handle(key(character)) }
        _ = state.handle(key(.backspace))
        _ = state.handle(key(.backspace))
        _ = state.handle(.input(.paste("2\u{1B}[31m"), timeMs: 0))
        // A control character pasted is shown, never obeyed.
        #expect(state.question == .saveFolder("/home/u/Pictures/new2\u{FFFD}[31m"))
        _ = state.handle(key(.char("u"), [.control]))
        for character in "  ~/Desk " { _ = state.handle(key(character)) }
        #expect(state.handle(key(.enter)) == [.save(folder: "~/Desk")])
        #expect(state.question == nil && state.saveFolderSuggestion == "~/Desk")
        _ = state.handle(key("s"))
        #expect(state.question == .saveFolder("~/Desk"))
        #expect(state.handle(key(.escape)) == [] && state.message == "not saved" && state.question == nil)
        _ = state.handle(key("s"))
        _ = state.handle(key(.char("u"), [.control]))
        #expect(state.handle(key(.enter)) == [] && state.message == "not saved")
        // Ctrl-C still quits.
        _ = state.handle(key("s"))
        #expect(state.handle(key(.char("c"), [.control])) == [.quit])

        var given = viewer()
        given.saveFolder = "/srv/photos"
        #expect(given.handle(key("s")) == [.save(folder: "/srv/photos")] && given.question == nil)
    }

    /// Ctrl-X asks for a key; the next key, whatever it means otherwise,
    /// is the handler's (named as nsxiv names it); Esc runs nothing.
    @Test func ctrlXThenAKeyRunsTheKeyHandler() {
        var state = viewer()
        #expect(state.handle(key(.char("x"), [.control])) == [])
        #expect(state.question == .keyHandler && state.message == KeyHandler.prompt)
        #expect(state.handle(key("q")) == [.runKeyHandler("q")] && state.question == nil)
        _ = state.handle(key(.char("x"), [.control]))
        #expect(state.handle(key(.char("w"), [.control])) == [.runKeyHandler("C-w")])
        _ = state.handle(key(.char("x"), [.control]))
        #expect(state.handle(key(.escape)) == [] && state.message == "no key handler run")
        #expect(state.handle(key("q")) == [.quit])
    }

    /// The folder grid takes Ctrl-X too (the Pixabay grid does not: its
    /// photos are no files).
    @Test func theFolderGridRunsTheKeyHandlerToo() {
        var grid = folderBrowser(files: 3)
        #expect(grid.handle(.input(.key(Key(.char("x"), [.control])))) == [])
        #expect(grid.askingHandlerKey && grid.message == KeyHandler.prompt)
        #expect(grid.handle(.input(.key(Key(.enter)))) == [.runKeyHandler("Return")])
        #expect(!grid.askingHandlerKey)
        #expect(!BrowserState.keys.chords.contains(.ctrl("x")))
    }

    @Test func keysAreNamedAsNsxivNamesThem() {
        let names: [(Key, String?)] = [
            (Key(.char("a")), "a"), (Key(.char("W")), "W"), (Key(.char(" ")), "space"), (Key(.char("a"), [.control]), "C-a"),
            (Key(.char("x"), [.alt]), "M-x"), (Key(.enter), "Return"), (Key(.pageUp), "Prior"), (Key(.pageDown), "Next"),
            (Key(.left), "Left"), (Key(.backspace), "BackSpace"), (Key(.function(5)), "F5"), (Key(.escape), nil),
        ]
        for (pressed, name) in names { #expect(KeyHandler.argument(for: pressed) == name, "\(pressed)") }
    }

    /// The marked files when there are any, else the photo; only paths.
    @Test func theHandlerReadsLocalPathsOneALine() {
        let a = Array("/p/a.jpg".utf8)
        let b = Array("/p/b b.jpg".utf8)
        #expect(KeyHandler.input(marked: [], current: a) == Array("/p/a.jpg\n".utf8))
        #expect(KeyHandler.input(marked: [a, b], current: Array("/p/c.jpg".utf8)) == Array("/p/a.jpg\n/p/b b.jpg\n".utf8))
        #expect(KeyHandler.input(marked: [], current: Array("https://x/y.jpg".utf8)) == nil)
        #expect(KeyHandler.input(marked: [], current: nil) == nil)
        #expect(KeyHandler.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/pxview/key-handler")
        #expect(KeyHandler.path(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/pxview/key-handler")
        #expect(KeyHandler.path(environment: [:]) == nil)
    }
}
