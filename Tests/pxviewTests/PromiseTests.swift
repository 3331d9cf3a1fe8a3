import Foundation
import Testing

@testable import pxview

/// What the README promised and once did not hold, each held to it.
@Suite struct PromiseTests {
    /// `--bg` takes gray, black and white: its help, its error and its
    /// completions name them all, from one list.
    @Test func everyBackgroundNameIsNamed() throws {
        let sandbox = try CLISandbox()
        let help = try sandbox.run(["show", "--help"]).out
        #expect(help.contains("none, checker, black, white, gray or #rrggbb"))
        let wrong = try sandbox.run(["show", "--bg", "purple", "a.jpg"])
        #expect(wrong.status == 2)
        #expect(
            wrong.err.hasPrefix("pxview: --bg expects auto|none|checker|black|white|gray|#rrggbb, like #202020 (got 'purple')"))
        let gray = try sandbox.run([
            "show", "--bg", "gray", "--size", "10x10",
            packageRoot().appendingPathComponent("Tests/Fixtures/images/p06_chelsea_alpha_451x300.png").path,
        ])
        #expect(gray.status == 0)
    }

    /// The description the README shows, word for word (the default box
    /// off a terminal, and `--size 800x600`).
    @Test func theReadmesDescriptionIsWhatShowPrints() throws {
        let sandbox = try CLISandbox()
        let photo = packageRoot().appendingPathComponent("Tests/Fixtures/images/p03_storm_1920x1280.jpg").path
        #expect(try sandbox.run(["show", photo]).out.contains(": JPEG 1920x1280, fits 690x460 px in a 800x460 box"))
        #expect(try sandbox.run(["show", "--size", "800x600", photo]).out.contains("fits 800x533 px in a 800x600 box"))
        let readme = try String(contentsOf: packageRoot().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("fits 690x460 px in a 800x460 box") && readme.contains("fits 800x533 px in a 800x600 box"))
    }

    /// `--loops` and `--animate` play in place with `--once`; where the
    /// viewer opens instead they are an error, not silently dropped.
    @Test func loopsWithoutOnceIsAnError() throws {
        let gif = packageRoot().appendingPathComponent("Tests/Fixtures/formats/anim.gif").path
        for option in [["--loops", "2"], ["--animate"]] {
            let session = try PseudoTerminalSession(
                arguments: ["show"] + option + [gif], emulation: .sixel, rows: 24, columns: 120)
            #expect(session.waitForExit() == 2)
            #expect(
                String(decoding: session.output, as: UTF8.self).contains(
                    "pxview: \(option[0]) plays an animation in place, with --once (the viewer plays it as the file says)"))
        }
    }

    /// `doctor` names the variable that keeps kitty's pixels in the pty,
    /// instead of blaming kitty.
    @Test func doctorNamesTheTransferVariable() throws {
        let environment = PseudoTerminalSession.environment.merging(["PXVIEW_KITTY_TRANSFER": "direct"]) { $1 }
        let session = try PseudoTerminalSession(
            arguments: ["doctor"], emulation: .kitty, rows: 30, columns: 160, environment: environment)
        #expect(session.waitForExit() == 0)
        let output = String(decoding: session.output, as: UTF8.self)
        #expect(output.contains("through the terminal (PNG, base64): PXVIEW_KITTY_TRANSFER=direct"), "\(output)")
        #expect(!output.contains("could not read this machine's memory"))
    }
}
