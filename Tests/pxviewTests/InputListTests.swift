import Foundation
import TestSupport
import Testing

/// `show`'s lists (issue 29): names from standard input (`-`, `-0`),
/// folders with their subfolders (`-r`), `--sort` and `--reverse`; off a
/// terminal, where each file's description says the order.
@Suite struct InputListTests {
    /// A folder of three photos, one in a subfolder and one deeper, a hidden
    /// one, a symlink back to the top (a loop) and a subfolder nobody may read.
    static func folder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let images = (fixtureImage as NSString).deletingLastPathComponent
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory.file("sub/deep"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory.file("locked"), withIntermediateDirectories: true)
        try manager.copyItem(atPath: images + "/p01_china_640x427.jpg", toPath: directory.file("b.jpg"))
        try manager.copyItem(atPath: images + "/p02_coffee_600x400.png", toPath: directory.file("sub/a.png"))
        try manager.copyItem(atPath: images + "/p06_chelsea_alpha_451x300.png", toPath: directory.file("sub/deep/c.png"))
        try manager.copyItem(atPath: images + "/p02_coffee_600x400.png", toPath: directory.file("sub/.hidden.png"))
        try manager.copyItem(atPath: images + "/p02_coffee_600x400.png", toPath: directory.file("locked/x.png"))
        try manager.createSymbolicLink(atPath: directory.file("sub/loop"), withDestinationPath: directory.path)
        // Oldest to newest: c.png, b.jpg, a.png.
        for (name, age) in [("sub/deep/c.png", 300.0), ("b.jpg", 200.0), ("sub/a.png", 100.0)] {
            try manager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: directory.file(name))
        }
        try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: directory.file("locked"))
        return directory
    }

    /// The names `show` described, in order.
    static func described(_ result: CLIResult) -> [String] {
        result.outLines.map { String($0.prefix { $0 != ":" }) }
    }

    @Test func aFolderIsItsImagesAndWithRItsSubfoldersToo() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.file("locked")) }
        let sandbox = try CLISandbox()
        let flat = try sandbox.run(["show", directory.path])
        #expect(flat.status == 0 && Self.described(flat) == ["b.jpg"])
        let deep = try sandbox.run(["show", "-r", directory.path])
        // Root cannot be kept out of a folder by its permissions: locked/x.png then shows too.
        let locked = getuid() == 0 ? ["locked/x.png"] : []
        #expect(deep.status == 0)
        #expect(Self.described(deep) == ["b.jpg"] + locked + ["sub/a.png", "sub/deep/c.png"], "\(deep.out)\(deep.err)")
        let newest = try sandbox.run([
            "show", "--recursive", "--sort", "mtime", directory.path + "/sub", directory.path + "/b.jpg",
        ])
        #expect(Self.described(newest) == ["a.png", directory.file("b.jpg"), "deep/c.png"], "\(newest.out)")
        let oldest = try sandbox.run(["show", "-r", "--sort", "mtime", "--reverse", directory.path + "/sub"])
        #expect(Self.described(oldest) == ["deep/c.png", "a.png"])
        let bySize = try sandbox.run(["show", "--sort", "size", directory.file("sub/a.png"), directory.file("b.jpg")])
        let sizes = [directory.file("sub/a.png"), directory.file("b.jpg")].map {
            ((try? FileManager.default.attributesOfItem(atPath: $0)[.size]) as? Int) ?? 0
        }
        #expect(
            Self.described(bySize)
                == (sizes[0] >= sizes[1] ? ["sub/a.png", "b.jpg"] : ["b.jpg", "sub/a.png"]).map { directory.file($0) })
        let wrong = try sandbox.run(["show", "--sort", "colour", directory.path])
        #expect(wrong.status == 2 && wrong.err.contains("--sort expects name|mtime|size|random (got 'colour')"))
    }

    @Test func namesComeFromStandardInput() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.file("locked")) }
        let binary = try pxviewExecutable()
        let lines = try runShell(
            binary, ["show", "-"], input: "\(directory.file("b.jpg"))\n\n\(directory.file("sub/a.png"))\r\n")
        #expect(lines.status == 0)
        #expect(lines.output.hasPrefix("\(directory.file("b.jpg")): JPEG 640x427"), "\(lines.output)")
        #expect(lines.output.contains("\n\(directory.file("sub/a.png")): PNG 600x400"), "\(lines.output)")
        let nul = try runShell(
            binary, ["show", "-0", "--sort", "name", "-"], input: "\(directory.file("sub/a.png"))\0\(directory.file("b.jpg"))\0")
        #expect(nul.output.hasPrefix("\(directory.file("b.jpg")): JPEG"), "\(nul.output)")
        let none = try runShell(binary, ["show", "-"], input: "\n")
        #expect(none.status == 1 && none.output == "pxview: no file names on standard input\n")
    }

    /// `printf 'a\nb\n' | pxview show -` on a terminal: the viewer on a,
    /// its keys read from the terminal, `n` showing b.
    @Test func theViewerReadsItsListFromAPipeAndItsKeysFromTheTerminal() throws {
        let images = (fixtureImage as NSString).deletingLastPathComponent
        let a = images + "/p01_china_640x427.jpg"
        let b = images + "/p02_coffee_600x400.png"
        let session = try PseudoTerminalSession(
            arguments: ["-c", "printf '%s\\n' \"$0\" \"$1\" | exec \"$2\" show -", a, b, PseudoTerminalSession.binary.path],
            emulation: .kitty, rows: 24, columns: 100, executable: URL(fileURLWithPath: "/bin/sh"), controllingTerminal: true)
        #expect(session.waitFor("p01_china_640x427.jpg "))
        #expect(session.waitFor("1/2 · 100%"))
        session.send("n")
        #expect(session.waitFor("p02_coffee_600x400.png "))
        session.send("q")
        #expect(session.waitForExit() == 0)
    }

    /// `show -o a b c > FILE` on a terminal: the viewer draws on the
    /// terminal, `m n m q` marks a and b, and FILE holds exactly their
    /// paths once the terminal is back; `-0` ends them with NUL.
    @Test func markedFilesArePrintedAfterTheTerminalIsBack() throws {
        let images = (fixtureImage as NSString).deletingLastPathComponent
        let names = ["p01_china_640x427.jpg", "p02_coffee_600x400.png", "p06_chelsea_alpha_451x300.png"]
        let paths = names.map { images + "/" + $0 }
        let out = try TemporaryDirectory()
        for (flags, end) in [(["-o"], "\n"), (["-o", "-0"], "\0")] {
            let file = out.file("marked-\(flags.count)")
            let session = try PseudoTerminalSession(
                arguments: ["-c", "out=$1; shift; exec \"$@\" > \"$out\"", "sh", file, PseudoTerminalSession.binary.path, "show"]
                    + flags + paths,
                emulation: .kitty, rows: 24, columns: 100, executable: URL(fileURLWithPath: "/bin/sh"),
                controllingTerminal: true)
            #expect(session.waitFor("1/3 · 100%"))
            session.send("m")
            #expect(session.waitFor("marked · 1 marked"))
            session.send("n")
            #expect(session.waitFor("2/3 · 100%"))
            session.send("m")
            #expect(session.waitFor("marked · 2 marked"))
            session.send("q")
            #expect(session.waitForExit() == 0)
            let printed = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            #expect(printed == paths[0] + end + paths[1] + end, "\(flags): \(printed.debugDescription)")
        }
    }
}
