import Pixabay
import Pixels
import Testing

@testable import pxview

@Suite struct ArgumentParserTests {
    static let size: Option<PixelSize> = .size("--size", "WxH", help: "box")
    static let interactive = Flag("--interactive", aliases: ["-i"], help: "flag")

    let spec = CommandSpec(
        name: "show", usage: "pxview show [options] PATH|URL...", summary: "Draws images.",
        options: [size, interactive, CommonOption.help], maxPositionals: nil, minPositionals: 1)

    @Test func valuesFlagsAndPositionalsMix() throws {
        let parsed = try ArgumentParser.parse(["a.jpg", "--size", "80x60", "-i", "--size=90x70", "b.png"], spec: spec)
        #expect(parsed.positionals == ["a.jpg", "b.png"])
        #expect(try parsed.value(Self.size) == PixelSize(width: 90, height: 70))
        #expect(parsed.has(Self.interactive))
        #expect(!parsed.has(CommonOption.help))
    }

    /// A typed option reads its value when asked, and a bad one names the option and the command.
    @Test func typedValuesAreCheckedWhenRead() throws {
        let parsed = try ArgumentParser.parse(["a.jpg", "--size", "80"], spec: spec)
        #expect(
            throws: UsageError(
                message: "--size expects WxH with positive whole numbers, like 800x600 (got '80')", command: "show")
        ) { try parsed.value(Self.size) }
        #expect(try ArgumentParser.parse(["a.jpg"], spec: spec).value(Self.size) == nil)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "--size"], spec: spec)
        #expect(parsed.positionals == ["--size"])
    }

    @Test func unknownOptionNamesItAndTheCommand() {
        #expect(throws: UsageError(message: "unknown option '--sise' for 'pxview show'", command: "show")) {
            try ArgumentParser.parse(["--sise", "1x1", "a.jpg"], spec: spec)
        }
    }

    @Test func missingValueAndMissingArgument() {
        #expect(throws: UsageError(message: "option --size needs a value (WxH)", command: "show")) {
            try ArgumentParser.parse(["a.jpg", "--size"], spec: spec)
        }
        #expect(throws: UsageError(message: "missing argument: usage: pxview show [options] PATH|URL...", command: "show")) {
            try ArgumentParser.parse([], spec: spec)
        }
    }

    @Test func hostileOptionNameIsNotEchoedRaw() throws {
        do {
            _ = try ArgumentParser.parse(["--\u{1B}]0;pwned\u{07}", "a.jpg"], spec: spec)
            Issue.record("expected an error")
        } catch {
            #expect(!error.message.contains("\u{1B}"))
            #expect(!error.message.contains("\u{07}"))
        }
    }

    @Test func sizeValues() throws {
        #expect(try ValueParser.size("800x600", option: "--size", command: "show") == PixelSize(width: 800, height: 600))
        #expect(try ValueParser.size("80X24", option: "--cells", command: "show") == PixelSize(width: 80, height: 24))
        for bad in ["800", "0x10", "-1x5", "axb", "10x10x10", ""] {
            #expect(throws: UsageError.self) { try ValueParser.size(bad, option: "--size", command: "show") }
        }
    }

    @Test func centerAndNumbers() throws {
        let c = try ValueParser.center("0.25,1", option: "--center", command: "show")
        #expect(c.x == 0.25 && c.y == 1)
        #expect(throws: UsageError.self) { try ValueParser.center("1.5,0", option: "--center", command: "show") }
        let range = 0.25...4096.0
        for bad in ["nan", "0", "0.1", "1e15", "inf", "-2", "4097"] {
            #expect(throws: UsageError.self, "\(bad)") {
                try ValueParser.number(bad, in: range, option: "--zoom", command: "show")
            }
        }
        #expect(try ValueParser.number("1.5", in: range, option: "--zoom", command: "show") == 1.5)
        #expect(try ValueParser.number("4096", in: range, option: "--zoom", command: "show") == 4096)
    }
}

@Suite struct ZoomBoundsTests {
    /// `--zoom 1e15` once crashed (SIGILL) computing the decode size.
    @Test func hugeZoomIsAUsageError() throws {
        let sandbox = try CLISandbox()
        let images = packageRoot().appendingPathComponent("Tests/Fixtures/images").path
        let result = try sandbox.run([
            "show", "--protocol", "sixel", "--size", "100x100", "--zoom", "1e15", "\(images)/p01_china_640x427.jpg",
        ])
        #expect(result.status == 2)
        #expect(
            result.errLines == ["pxview: --zoom expects a number from 0.25 to 4096 (got '1e15')", "Try 'pxview show --help'."])
        let largest = try sandbox.run([
            "show", "--protocol", "sixel", "--size", "100x100", "--zoom", "4096", "\(images)/p01_china_640x427.jpg",
        ])
        #expect(largest.status == 0)
    }
}

@Suite struct TopLevelUsageTests {
    @Test func topLevelValueErrorsPointAtPxviewHelp() throws {
        let result = try CLISandbox().run(["--protocol", "foo"])
        #expect(result.status == 2)
        #expect(
            result.errLines == ["pxview: --protocol expects auto|kitty|sixel|symbols|blocks (got 'foo')", "Try 'pxview --help'."])
    }

    @Test func missingArgumentsAreNamed() throws {
        let open = try CLISandbox().run(["open"])
        #expect(
            open.errLines == ["pxview: pxview open needs an image ID, like 'pxview open 1000010'", "Try 'pxview open --help'."])
        let fav = try CLISandbox().run(["fav", "add"])
        #expect(fav.errLines.first == "pxview: pxview fav add needs an image ID, like 'pxview fav add 1000010'")
    }

    /// The offline note is for searching; saving a catalog photo needs no lecture.
    @Test func theOfflineNoteIsForSearchesOnly() throws {
        let sandbox = try CLISandbox()
        let saved = try sandbox.run(["save", "1000013", "--size", "preview"])
        #expect(saved.status == 0)
        #expect(saved.err.isEmpty)
        let search = try sandbox.run(["search", "--no-images"])
        #expect(search.errLines == [noAPIKeyHint])
        #expect(noAPIKeyHint.count <= 80)
    }

    @Test func unknownTopLevelOptionNamesPxviewAlone() throws {
        let result = try CLISandbox().run(["--bogus"])
        #expect(result.status == 2)
        #expect(result.errLines == ["pxview: unknown option '--bogus' for 'pxview'", "Try 'pxview --help'."])
    }
}
