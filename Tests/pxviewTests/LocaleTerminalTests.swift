import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal in a C locale (`LANG=C`, a minimal container) shows UTF-8 as
/// garbage: there the grid and the viewer send no byte outside ASCII, on
/// any path a user can take through them, pictures included.
@Suite(.serialized) struct LocaleTerminalTests {
    /// A folder whose names need more than ASCII, with an animation (its
    /// tile's mark) and a picture with transparency.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pxview-locale-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let images = (fixtureImage as NSString).deletingLastPathComponent
        let formats = packageRoot().appendingPathComponent("Tests/Fixtures/formats").path
        for (name, source) in [
            ("café ☕ 2024 a very long name for a tile to cut.jpg", "\(images)/p01_china_640x427.jpg"),
            ("b.png", "\(images)/p06_chelsea_alpha_451x300.png"), ("c.gif", "\(formats)/anim.gif"),
        ] {
            try FileManager.default.copyItem(atPath: source, toPath: folder + "/" + name)
        }
        return folder
    }

    static func environment(lang: String) -> [String: String] {
        var environment = PseudoTerminalSession.environment
        environment["LANG"] = lang
        return environment
    }

    /// The folder grid and the viewer, by every screen they have: tiles and
    /// the selection's frame, `?` help, the search field with a typed `é`,
    /// the viewer with its info line and help. In C every byte is ASCII; in
    /// C.UTF-8 the same run has frames and dots (so the scan can fail).
    @Test(arguments: ["sixel", "blocks"], ["C", "C.UTF-8"])
    func aFolderAndTheViewerSendOnlyASCIIInACLocale(protocolName: String, lang: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try PseudoTerminalSession(
            arguments: ["show", folder, "--protocol", protocolName], emulation: .sixel, rows: 24, columns: 80,
            environment: Self.environment(lang: lang))
        #expect(session.waitFor("All images"))
        #expect(session.waitFor(protocolName == "sixel" ? sixelStart : "\u{1B}[48;2;"))
        session.send("l")
        #expect(session.waitFor("12 frames"))  // the animation, its tile marked
        session.send("l")
        #expect(session.waitFor(lang == "C" ? "caf? ? 2024" : "café ☕ 2024"))
        for key in ["?", "x", "/", "é", "\u{1B}", "\r"] {
            session.send(key)
            session.waitForQuiet(quietMs: 200)
        }
        #expect(session.waitFor("q back"))
        for key in ["i", "?", "x", "+", "q"] {
            session.send(key)
            session.waitForQuiet(quietMs: 200)
        }
        #expect(session.waitFor("All images", count: 2))
        session.send("q")
        #expect(session.waitForExit() == 0)
        let output = session.output
        let outside = output.enumerated().filter { $0.element >= 0x80 }
        if lang == "C" {
            #expect(outside.isEmpty, "\(outside.count) bytes outside ASCII, first at \(outside.first?.offset ?? 0)")
            #expect(output.containsSequence(Array("+------".utf8)))  // the selected tile's frame
            #expect(output.containsSequence(Array(" - ? keys - q back".utf8)))
        } else {
            #expect(output.containsSequence(Array("┌──".utf8)))
            #expect(output.containsSequence(Array(" · ? keys · q back".utf8)))
        }
        expectRestored(session)
    }

    /// The catalog's grid: likes as `<3`, the status line's dots as `-`.
    @Test func theCatalogGridInACLocale() throws {
        let session = try PseudoTerminalSession(
            arguments: ["--offline", "--protocol", "blocks"], emulation: .sixel, rows: 20, columns: 60,
            environment: Self.environment(lang: "C"))
        #expect(session.waitFor("offline catalog"))
        #expect(session.waitFor(" <3 "))
        session.send("q")
        #expect(session.waitForExit() == 0)
        #expect(!session.output.contains { $0 >= 0x80 })
    }
}
