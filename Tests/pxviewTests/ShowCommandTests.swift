import Decoding
import Foundation
import GraphicsReadback
import Pixels
import TestSupport
import Testing

/// `pxview show` as a script would use it: exact flags, exit codes, one-line
/// errors, and escape codes only when asked for.
@Suite struct ShowCommandTests {
    let images = packageRoot().appendingPathComponent("Tests/Fixtures/images").path
    let bad = packageRoot().appendingPathComponent("Tests/Fixtures/bad").path

    @Test func describesInsteadOfDrawingWhenNotATerminal() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show", "--size", "800x600", "\(images)/p03_storm_1920x1280.jpg"])
        #expect(result.status == 0)
        #expect(
            result.outLines == [
                "\(images)/p03_storm_1920x1280.jpg: JPEG 1920x1280, fits 800x533 px in a 800x600 box"
                    + " (not a terminal: pass --protocol to draw)"
            ])
        #expect(!result.stdout.contains(0x1B))
    }

    @Test func sixelOutputIsExactlyTheFittedSize() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show", "--protocol", "sixel", "--size", "200x150", "\(images)/p01_china_640x427.jpg"])
        #expect(result.status == 0)
        #expect(String(result.out.prefix(20)) == "\u{1B}P0;1;0q\"1;1;200;133")
        let decoded = try SixelDecoder.decode(result.stdout.dropLastNewlines())
        #expect(decoded.image.size == PixelSize(width: 200, height: 133))
    }

    @Test func zoomedViewIsExactlyTheBoxCroppedAroundTheCenter() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run([
            "show", "--protocol", "kitty", "--size", "300x200", "--zoom", "4", "--center", "0,1",
            "\(images)/p01_china_640x427.jpg",
        ])
        #expect(result.status == 0)
        let (image, commands) = try KittyDecoder.image(result.stdout.dropLastNewlines())
        #expect(image.size == PixelSize(width: 300, height: 200))
        #expect(commands[0].keys["a"] == "T")
        // Centre (0,1) is clamped to the bottom-left corner: no empty margin.
        let full = try KittyDecoder.image(
            try sandbox.run(["show", "--protocol", "kitty", "--size", "1200x800", "\(images)/p01_china_640x427.jpg"]).stdout
                .dropLastNewlines())
        #expect(full.image.size == PixelSize(width: 1199, height: 800))
        // The crop's bottom-left pixel is the full view's bottom-left pixel, seen 4x/1.875x closer.
        let corner = image[0, 199]
        let fullCorner = full.image[0, 799]
        #expect(abs(Int(corner.r) - Int(fullCorner.r)) < 40 && abs(Int(corner.g) - Int(fullCorner.g)) < 40)
    }

    @Test func blocksFitTheCellBox() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run([
            "show", "--protocol", "blocks", "--cells", "40x10", "--cell-size", "10x20", "\(images)/p01_china_640x427.jpg",
        ])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\r\n", omittingEmptySubsequences: false)
        // 640x427 in a 400x200 px box of 10x20 cells: 300x200 px, 30 columns x 10 rows.
        #expect(lines.filter { $0.contains("▀") || $0.contains("▄") }.count == 10)
        #expect(lines[0].filter { $0 == "▀" || $0 == "▄" || $0 == " " }.count == 30)
    }

    @Test func tmuxWrapsExplicitGraphicsAndTheEnvironmentPicksTheProtocol() throws {
        let sandbox = try CLISandbox()
        let wrapped = try sandbox.run(
            ["show", "--protocol", "sixel", "--size", "40x30", "\(images)/p01_china_640x427.jpg"],
            environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        // tmux never sees the picture: its rows are made first (40x27 px is 2
        // rows of 20 px), the picture wrapped, the cursor moved below it.
        #expect(wrapped.out.hasPrefix("\n\n\r\u{1B}[2A\u{1B}Ptmux;\u{1B}\u{1B}P0;1;0q"))
        #expect(wrapped.out.hasSuffix("\u{1B}\u{1B}\\\u{1B}\\\r\u{1B}[2B"))
        let environmentChoice = try sandbox.run(
            ["show", "--size", "40x30", "\(images)/p01_china_640x427.jpg"], environment: ["PXVIEW_PROTOCOL": "blocks"])
        #expect(environmentChoice.status == 0 && environmentChoice.out.contains("▄") == true)
    }

    /// `symbols`: whole cells of the box (30x10 for 300x200 px of 10x20-px
    /// cells), each one character; sextants only with PXVIEW_SEXTANTS=1.
    @Test func symbolsFillWholeCells() throws {
        let sandbox = try CLISandbox()
        let arguments = [
            "show", "--protocol", "symbols", "--cells", "40x10", "--cell-size", "10x20", "\(images)/p01_china_640x427.jpg",
        ]
        let result = try sandbox.run(arguments)
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 10)
        let text = lines.map { $0.replacing(#/\x1B\[[0-9;]*m/#, with: "") }
        #expect(text.allSatisfy { $0.count == 30 }, "\(text)")
        func sextants(_ output: String) -> Int { output.unicodeScalars.filter { (0x1FB00...0x1FB3B).contains($0.value) }.count }
        #expect(sextants(result.out) == 0)
        #expect(text.joined().unicodeScalars.contains { (0x2581...0x259F).contains($0.value) && $0 != "▄" })
        let withSextants = try sandbox.run(arguments, environment: ["PXVIEW_SEXTANTS": "1"])
        #expect(withSextants.status == 0 && sextants(withSextants.out) > 10)
        let refused = try sandbox.run(arguments, environment: ["PXVIEW_SEXTANTS": "yes"])
        #expect(refused.status == 2 && refused.errLines.first == "pxview: PXVIEW_SEXTANTS expects 1|0 (got 'yes')")
    }

    @Test func badFilesGetOneLineEachAndTheRestStillDraw() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run([
            "show", "--size", "100x100", "\(bad)/truncated_header.jpg", "\(images)/p01_china_640x427.jpg",
            "\(bad)/bomb_100000x100000.png", "\(bad)/text.jpg", "\(bad)/empty.jpg", "/no/such/photo.jpg",
        ])
        #expect(result.status == 1)
        #expect(
            result.errLines == [
                "pxview: cannot decode \(bad)/truncated_header.jpg: truncated JPEG data",
                "pxview: cannot decode \(bad)/bomb_100000x100000.png: image is 100000x100000 (10000000000 pixels), over the 100000000-pixel limit",
                "pxview: cannot decode \(bad)/text.jpg: not a JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL image",
                "pxview: cannot decode \(bad)/empty.jpg: file is empty",
                "pxview: cannot read /no/such/photo.jpg: no such file",
            ])
        #expect(result.outLines.count == 1)
    }

    /// The description names the colour space a file was converted from
    /// (issue 28); an sRGB file says nothing of it.
    @Test func theDescriptionNamesTheColourSpace() throws {
        let colour = packageRoot().appendingPathComponent("Tests/Fixtures/colour").path
        let sandbox = try CLISandbox()
        let result = try sandbox.run(
            ["show", "--size", "96x72"] + ["adobe.jpg", "p3.heic", "gamma18.png", "srgb-icc.png"].map { "\(colour)/\($0)" })
        #expect(result.status == 0)
        #expect(
            result.outLines == [
                "\(colour)/adobe.jpg: JPEG 96x72, Compatible with Adobe RGB (1998) → sRGB, fits 96x72 px in a 96x72 box"
                    + " (not a terminal: pass --protocol to draw)",
                "\(colour)/p3.heic: HEIC 96x72, Display P3 → sRGB, fits 96x72 px in a 96x72 box (not a terminal: pass --protocol to draw)",
                "\(colour)/gamma18.png: PNG 96x72, gamma 1.80 → sRGB, fits 96x72 px in a 96x72 box (not a terminal: pass --protocol to draw)",
                "\(colour)/srgb-icc.png: PNG 96x72, fits 96x72 px in a 96x72 box (not a terminal: pass --protocol to draw)",
            ])
        // PXVIEW_DEBUG says it on stderr too, where a drawing goes on stdout.
        let debug = try sandbox.run(
            ["show", "--protocol", "sixel", "--size", "96x72", "\(colour)/pq.heic"], environment: ["PXVIEW_DEBUG": "1"])
        #expect(
            debug.errLines.contains("pxview: \(colour)/pq.heic: colour: BT.2020 PQ → sRGB (tone-mapped)"), "\(debug.errLines)")
    }

    @Test func truncatedJPEGWarnsAndStillShows() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show", "--size", "100x100", "\(bad)/truncated_scan.jpg"])
        #expect(result.status == 0)
        #expect(result.errLines == ["pxview: warning: \(bad)/truncated_scan.jpg: premature end of JPEG file"])
        #expect(result.outLines.count == 1)
    }

    @Test func maxPixelsIsHonoured() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show", "--max-pixels", "1000", "\(images)/p01_china_640x427.jpg"])
        #expect(result.status == 1)
        #expect(result.err.contains("over the 1000-pixel limit"))
    }

    /// A damaged JPEG XL makes libjxl print JXL_FAILURE lines on stderr:
    /// pxview's stderr is its own one line, every byte printable; with
    /// PXVIEW_DEBUG the library's lines come too, sanitized and named.
    @Test func theLibrariesSayNothingButPxviewsOneLine() throws {
        let sandbox = try CLISandbox()
        let file = "\(bad)/damaged.jxl"
        let result = try sandbox.run(["show", "--once", "--protocol", "kitty", "--size", "100x100", file])
        #expect(result.status == 1)
        #expect(result.errLines == ["pxview: cannot decode \(file): corrupt JPEG XL data (libjxl refused the data)"])
        #expect(result.stderr.allSatisfy { $0 >= 0x20 || $0 == 0x0A })
        let debug = try sandbox.run(
            ["show", "--once", "--protocol", "kitty", "--size", "100x100", file], environment: ["PXVIEW_DEBUG": "1"])
        #expect(debug.errLines.contains { $0.hasPrefix("pxview: a library said: ") && $0.contains("JXL_FAILURE") })
        #expect(
            DecodeError(.corrupt, format: .heic, detail: "bad \u{01}iloc\u{0F} method").description
                == "corrupt HEIC data (bad ?iloc? method)")
    }

    /// `show --once --grid 3x1 --title a b c`: a contact sheet, three
    /// pictures side by side and their names under them at their tiles'
    /// columns (90 columns: tiles of 29 and a gap), in kitty, sixel and text;
    /// without `--title` no names; a file that cannot be read is a line on
    /// stderr and a tile saying so, exit 1.
    @Test(arguments: ["kitty", "sixel", "blocks"])
    func aContactSheetDrawsTheFilesSideBySide(drawing: String) throws {
        let folder = (fixtureImage as NSString).deletingLastPathComponent
        let names = ["p01_china_640x427.jpg", "p02_coffee_600x400.png", "p06_chelsea_alpha_451x300.png"]
        let sandbox = try CLISandbox()
        let arguments = ["show", "--once", "--grid", "3x1", "--protocol", drawing, "--cells", "90x10"]
        let titled = try sandbox.run(arguments + ["--title"] + names.map { folder + "/" + $0 })
        #expect(titled.status == 0 && titled.err.isEmpty, "\(titled.err)")
        for (name, column) in zip(names, [1, 31, 61]) {
            #expect(titled.out.contains("\u{1B}[\(column)G\(name)"), "\(drawing): \(name) at column \(column)")
        }
        let pictures = drawing == "kitty" ? "\u{1B}_Ga=T" : drawing == "sixel" ? "\u{1B}P" : "\u{1B}[38;2;"
        #expect(titled.out.components(separatedBy: pictures).count > 3, "\(drawing): pictures")
        let plain = try sandbox.run(arguments + names.map { folder + "/" + $0 } + ["/nonexistent.jpg"])
        #expect(plain.status == 1 && plain.errLines == ["pxview: cannot read /nonexistent.jpg: no such file"])
        #expect(!plain.out.contains(names[0]) && plain.out.contains("nonexistent.jpg (no image)"))
    }

    /// A folder is its images, drawn in place (issue 29); a folder of none
    /// says so, and an endless file is refused by name.
    @Test func foldersAreTheirImagesAndEndlessFilesAreRefusedByName() throws {
        let empty = try TemporaryDirectory()
        let result = try CLISandbox().run(["show", empty.path, "/dev/zero"])
        #expect(result.status == 1)
        #expect(result.errLines == ["pxview: cannot read /dev/zero: not a regular file (a device)"])
        let none = try CLISandbox().run(["show", empty.path])
        #expect(none.status == 1)
        #expect(
            none.errLines.count == 1 && none.errLines[0].hasPrefix("pxview: no ")
                && none.errLines[0].hasSuffix(" images in \(empty.path)"))
    }

    /// A regular file says its size: one over the limit is refused by it
    /// (a sparse 300 MB file, nothing read).
    @Test func aFileOverTheLimitIsRefusedByItsSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.jpg")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 300 << 20) == 0)
        let result = try CLISandbox().run(["show", path])
        #expect(result.status == 1)
        #expect(result.errLines == ["pxview: cannot read \(path): larger than 256 MB"])
    }

    @Test func hostileFileNameIsNotEchoedRaw() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show", "/tmp/\u{1B}]0;owned\u{07}.jpg"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains(0x1B) && !result.stderr.contains(0x07))
    }

    @Test(arguments: [
        (["show"], "pxview: pxview show needs a PATH or URL, like 'pxview show photo.jpg'"),
        (["show", "--cells", "0x5", "a.jpg"], "pxview: --cells expects WxH with positive whole numbers, like 80x24 (got '0x5')"),
        (["show", "--fit", "stretch", "a.jpg"], "pxview: --fit expects contain|cover|down (got 'stretch')"),
        (["show", "--protocol", "iterm", "a.jpg"], "pxview: --protocol expects auto|kitty|sixel|symbols|blocks (got 'iterm')"),
        (["show", "--size", "800", "a.jpg"], "pxview: --size expects WxH with positive whole numbers, like 800x600 (got '800')"),
        (
            ["show", "--center", "2,0", "a.jpg"],
            "pxview: --center expects X,Y fractions between 0 and 1, like 0.5,0.5 (got '2,0')"
        ),
        (["show", "--bogus", "a.jpg"], "pxview: unknown option '--bogus' for 'pxview show'"),
        (["frobnicate"], "pxview: unknown command 'frobnicate'"),
        (["show", "--size", "100000x100000", "a.jpg"], "pxview: --size is at most 16384x16384 (got '100000x100000')"),
        (["show", "--cells", "5000x10", "a.jpg"], "pxview: --cells is at most 2048x2048 (got '5000x10')"),
    ])
    func badFlagsExitTwoWithAHint(arguments: [String], message: String) throws {
        let result = try CLISandbox().run(arguments)
        #expect(result.status == 2)
        #expect(result.errLines.first == message)
        #expect(result.errLines.count == 2)
        #expect(result.errLines.last?.hasPrefix("Try 'pxview") == true)
        #expect(result.stdout.isEmpty)
    }

    @Test func helpAndVersion() throws {
        let sandbox = try CLISandbox()
        let help = try sandbox.run(["--help"])
        #expect(help.status == 0 && String(help.out.prefix(13)) == "usage: pxview")
        let showHelp = try sandbox.run(["show", "--help"])
        #expect(showHelp.status == 0)
        for flag in ["--protocol", "--size", "--cells", "--cell-size", "--fit", "--zoom", "--center", "--max-pixels"] {
            #expect(showHelp.out.contains(flag))
        }
        // The keys of the screens a command opens, aligned as in the ? overlays.
        #expect(showHelp.out.contains("\nkeys in the viewer:\n  + =              zoom in (x1.25, about the centre)\n"))
        #expect(showHelp.out.contains("\n  z, double-click  toggle 1x / 2x\n"))
        #expect(showHelp.out.contains("\nkeys in a folder's grid:\n"))
        let openHelp = try sandbox.run(["open", "--help"])
        #expect(openHelp.out.contains("\n  n, Space         next photo\n"))
        #expect(!openHelp.out.contains("grid:"))
        #expect(help.out.contains("\nkeys in the grid:\n  arrows, h j k l    move the selection\n"))
        #expect(help.out.contains("\n  PgUp, PgDn (p, n)  a page of tiles up, down\n"))
        let version = try sandbox.run(["--version"])
        #expect(version.status == 0 && String(version.out.prefix(7)) == "pxview ")
    }
}

/// Index just past the last `ESC \` in `bytes`, if any.
func lastStringTerminator(_ bytes: [UInt8]) -> Int? {
    var i = bytes.count
    while i >= 2 {
        if bytes[i - 2] == 0x1B && bytes[i - 1] == UInt8(ascii: "\\") { return i }
        i -= 1
    }
    return nil
}

extension Array where Element == UInt8 {
    /// The graphics part of an output: everything up to the last `ESC \`.
    func dropLastNewlines() -> [UInt8] { Array(self[..<(lastStringTerminator(self) ?? 0)]) }
}

/// Ctrl-C in the middle of a picture must not leave the terminal inside it.
@Suite struct ShowInterruptTests {
    @Test func interruptedDrawingNeverLeavesASequenceOpen() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try pxviewExecutable())
        let photo = packageRoot().appendingPathComponent("Tests/Fixtures/images/p03_storm_1920x1280.jpg").path
        // Eight full-size kitty uploads: megabytes, far more than a pipe
        // holds, so the writer is blocked (or between pictures) when the
        // signal comes, whatever the machine's speed.
        process.arguments = ["show", "--protocol", "kitty", "--size", "1920x1280"] + Array(repeating: photo, count: 8)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let reader = pipe.fileHandleForReading
        // One read(2) of the first bytes (FileHandle may read ahead), then
        // let the writer fill the pipe before interrupting it.
        var output = [UInt8](repeating: 0, count: 4096)
        let first = output.withUnsafeMutableBytes { read(reader.fileDescriptor, $0.baseAddress, 4096) }
        output = Array(output.prefix(max(0, first)))
        #expect(String(decoding: output.prefix(3), as: UTF8.self) == "\u{1B}_G")
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGINT)
        output += [UInt8](reader.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(endedBySignal(process, SIGINT))
        // Interrupted, not finished: fewer than eight pictures' worth.
        let single = try CLISandbox().run(["show", "--protocol", "kitty", "--size", "1920x1280", photo]).stdout.count
        #expect(output.count < 8 * single)
        // Whatever moment it hit, the last sequence opened was closed: either
        // a picture had just ended, or the guard closed it with ST, reset the
        // colours and moved to a fresh line.
        let lastOpen = lastIndex(of: [0x1B, UInt8(ascii: "_")], in: output) ?? -1
        let lastClose = lastIndex(of: [0x1B, UInt8(ascii: "\\")], in: output) ?? -1
        #expect(lastClose > lastOpen)
        if Array(output.suffix(8)) != Array("\u{1B}\\\u{1B}[0m\r\n".utf8) {
            // No guard bytes: then the signal came between pictures.
            #expect(output.last == UInt8(ascii: "\n"))
        }
    }

    func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.count - needle.count
        while i >= 0 {
            if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i -= 1
        }
        return nil
    }
}

@Suite struct ShowURLTests {
    @Test func drawsFromHTTPAndReportsFailuresByURL() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let photo = packageRoot().appendingPathComponent("Tests/Fixtures/images/p01_china_640x427.jpg").path
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: photo)))
        server.route("/photo.jpg") { _ in TestHTTPServer.Response(body: bytes) }
        server.route("/page.jpg") { _ in .text("<html>not a photo</html>") }
        let result = try CLISandbox().run([
            "show", "--size", "320x240", server.url("/photo.jpg"), server.url("/missing.jpg"), server.url("/page.jpg"),
        ])
        #expect(result.status == 1)
        #expect(
            result.outLines == [
                "\(server.url("/photo.jpg")): JPEG 640x427, fits 320x214 px in a 320x240 box (not a terminal: pass --protocol to draw)"
            ])
        #expect(
            result.errLines == [
                "pxview: cannot read \(server.url("/missing.jpg")): HTTP status 404",
                "pxview: cannot decode \(server.url("/page.jpg")): not a JPEG, PNG, GIF, WebP, AVIF, HEIC or JPEG XL image",
            ])
        #expect(server.requests.allSatisfy { $0.headers["user-agent"]?.hasPrefix("pxview/") == true })
    }
}

/// `show` on every format of the codec table, as a script sees it.
@Suite struct ShowFormatsTests {
    let formats = packageRoot().appendingPathComponent("Tests/Fixtures/formats").path

    @Test func describesEveryFormatOffATerminal() throws {
        let names = [
            "china.gif", "anim.gif", "china-lossy.webp", "anim.webp", "china.avif", "china-irot1-imir1.avif", "china.heic",
            "china.jxl", "anim.jxl",
        ]
        let result = try CLISandbox().run(["show", "--size", "800x600"] + names.map { "\(formats)/\($0)" })
        #expect(result.status == 0)
        let tail = " (not a terminal: pass --protocol to draw)"
        #expect(
            result.outLines == [
                "\(formats)/china.gif: GIF 96x64, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/anim.gif: GIF 48x32, 12 frames, 0.96 s, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/china-lossy.webp: WebP 96x64, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/anim.webp: WebP 48x32, 12 frames, 0.96 s, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/china.avif: AVIF 96x64, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/china-irot1-imir1.avif: AVIF 64x96, fits 400x600 px in a 800x600 box" + tail,
                "\(formats)/china.heic: HEIC 96x64, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/china.jxl: JPEG XL 96x64, fits 800x533 px in a 800x600 box" + tail,
                "\(formats)/anim.jxl: JPEG XL 48x32, 12 frames, 0.96 s, fits 800x533 px in a 800x600 box" + tail,
            ])
    }

    /// Cut in half, or claiming 12000x12000: one line each naming the file,
    /// exit 1, nothing drawn, quickly.
    @Test func badFilesOfEveryFormatGetOneLineEach() throws {
        let sandbox = try CLISandbox()
        let folder = sandbox.root.file("bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = ["china.gif", "anim.webp", "china.avif", "china.heic", "china.jxl"]
        var arguments = ["show", "--protocol", "kitty", "--size", "200x200"]
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(formats)/\(name)"))
            let path = "\(folder)/cut-\(name)"
            FileManager.default.createFile(atPath: path, contents: bytes.prefix(bytes.count / 2))
            arguments.append(path)
        }
        let started = Date()
        let result = try sandbox.run(arguments)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.errLines == [
                "pxview: cannot decode \(folder)/cut-china.gif: truncated GIF data",
                "pxview: cannot decode \(folder)/cut-anim.webp: truncated WebP data",
                "pxview: cannot decode \(folder)/cut-china.avif: truncated AVIF data",
                "pxview: cannot decode \(folder)/cut-china.heic: truncated HEIC data",
                "pxview: cannot decode \(folder)/cut-china.jxl: truncated JPEG XL data",
            ])
    }

    /// A drawing of an animation is its first frame, pixel for pixel (kitty is lossless).
    @Test(arguments: ["anim.gif", "anim.webp", "anim.jxl"])
    func aDrawingShowsTheFirstFrame(name: String) throws {
        let result = try CLISandbox().run(["show", "--protocol", "kitty", "--size", "48x32", "\(formats)/\(name)"])
        #expect(result.status == 0)
        let drawn = try KittyDecoder.image(result.stdout.dropLastNewlines()).image
        let first = try decodeImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(formats)/\(name)")))).image
        #expect(drawn == first)
    }
}

/// `show --once --animate`: played in place, at the file's pace.
@Suite struct ShowAnimateTests {
    let formats = packageRoot().appendingPathComponent("Tests/Fixtures/formats").path

    /// kitty is lossless: every frame arrives as the decoder made it, under
    /// one image id, each after the cursor goes back to the picture.
    @Test func kittyGetsEveryFrameInTurnAtThePictureItsRowsWereMadeFor() throws {
        let started = Date()
        let result = try CLISandbox().run([
            "show", "--protocol", "kitty", "--size", "48x32", "--cell-size", "8x16", "--animate", "--loops", "1",
            "\(formats)/anim.webp",
        ])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        // 12 frames of 80 ms: the last shows from 880 ms; the run ends at 960.
        #expect(elapsed > 0.9)
        let expected = try decodeImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(formats)/anim.webp")))).frames
        let out = result.stdout
        // Two rows made (32 px of 16-px cells), the cursor saved, then frame after frame.
        #expect(out.starts(with: Array("\n\n\r\u{1B}[2A\u{1B}7".utf8)))
        #expect(out.count(of: "\u{1B}8") == 12)
        #expect(Array(out.suffix(5)) == Array("\u{1B}8\r\n\n".utf8))
        let pieces = out.split(separator: Array("\u{1B}8".utf8)).map(Array.init)
        var drawn: [RGBAImage] = []
        for piece in pieces {
            guard let start = piece.indices.first(where: { piece[$0...].starts(with: Array("\u{1B}_G".utf8)) }) else { continue }
            drawn.append(try KittyDecoder.image(Array(piece[start...])).image)
        }
        #expect(drawn == expected.map(\.image))
    }

    @Test func sixelDrawsEachFrameAndAStillJustDraws() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run([
            "show", "--protocol", "sixel", "--size", "48x32", "--cell-size", "8x16", "--once", "--animate", "--loops", "1",
            "\(formats)/anim.gif",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.count(of: "\u{1B}P0;1;0q") == 12)
        let still = try sandbox.run([
            "show", "--protocol", "sixel", "--size", "48x32", "--once", "--animate", "\(formats)/china.gif",
        ])
        #expect(still.stdout.count(of: "\u{1B}P0;1;0q") == 1 && still.stdout.count(of: "\u{1B}7") == 0)
    }

    @Test func loopsMustBePositive() throws {
        let result = try CLISandbox().run(["show", "--animate", "--loops", "0", "\(formats)/anim.gif"])
        #expect(result.status == 2)
        #expect(result.errLines.first?.hasPrefix("pxview: --loops") == true)
    }
}

extension Array where Element == UInt8 {
    func split(separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = startIndex
        var i = startIndex
        while i + separator.count <= endIndex {
            if self[i..<(i + separator.count)].elementsEqual(separator) {
                pieces.append(self[start..<i])
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        pieces.append(self[start..<endIndex])
        return pieces
    }

    func count(of text: String) -> Int {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return 0 }
        return (0...(count - needle.count)).filter { self[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }
}
