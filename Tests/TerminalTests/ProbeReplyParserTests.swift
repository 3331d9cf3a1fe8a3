import Pixels
import Testing

@testable import Terminal

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Replies real terminals gave to the queries in `ProbeQuery.bytes`, copied
/// byte for byte from /work/shared/reference/terminal-replies.md, in the
/// order the queries are sent (a terminal that ignores a query sends nothing).
struct ReferenceTerminal: Sendable, CustomStringConvertible {
    var name: String
    var winsize: WindowSize
    var replies: [String]
    var expected: TerminalCapabilities
    var description: String { name }

    var replyBytes: [UInt8] { replies.flatMap(bytes) }

    static let all: [ReferenceTerminal] = [
        ReferenceTerminal(
            name: "xterm_stock",
            winsize: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
            replies: [
                "\u{1B}P>|XTerm(379)\u{1B}\\",
                "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\",
                "\u{1B}[?1;3S",  // colours: failure, no sixel
                "\u{1B}[?2;3S",  // geometry: failure
                "\u{1B}[?2026;0$y",
                "\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: false, colorRegisters: nil, sixelMaxSize: nil,
                cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
                windowCells: CellCount(width: 100, height: 35), synchronizedOutput: false, terminalVersion: "XTerm(379)",
                backgroundColor: RGBA(r: 255, g: 255, b: 255))),
        ReferenceTerminal(
            name: "xterm_vt340",
            winsize: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
            replies: [
                "\u{1B}P>|XTerm(379)\u{1B}\\",
                "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\",
                "\u{1B}[?1;0;256S",
                "\u{1B}[?2;0;1000;1000S",
                "\u{1B}[?2026;0$y",
                "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: true, colorRegisters: 256,
                sixelMaxSize: PixelSize(width: 1000, height: 1000),
                cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
                windowCells: CellCount(width: 100, height: 35), synchronizedOutput: false, terminalVersion: "XTerm(379)",
                backgroundColor: RGBA(r: 255, g: 255, b: 255))),
        ReferenceTerminal(
            name: "xterm_vt340_winops",
            winsize: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
            replies: [
                "\u{1B}[?1;0;256S",
                "\u{1B}[?2;0;1000;1000S",
                "\u{1B}[6;19;9t",
                "\u{1B}[4;665;900t",
                "\u{1B}[?2026;0$y",
                "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: true, colorRegisters: 256,
                sixelMaxSize: PixelSize(width: 1000, height: 1000),
                cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
                windowCells: CellCount(width: 100, height: 35), synchronizedOutput: false, reportsCellSize: true)),
        ReferenceTerminal(
            name: "kitty",
            winsize: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 900, height: 630)),
            replies: [
                "\u{1B}_Gi=31;OK\u{1B}\\",
                "\u{1B}P>|kitty(0.26.5)\u{1B}\\",
                "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\",
                "\u{1B}[6;18;9t",
                "\u{1B}[4;630;900t",
                "\u{1B}[?2026;2$y",
                "\u{1B}[?62;c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil,
                cellSize: PixelSize(width: 9, height: 18), windowPixels: PixelSize(width: 900, height: 630),
                windowCells: CellCount(width: 100, height: 35), synchronizedOutput: true, terminalVersion: "kitty(0.26.5)",
                backgroundColor: RGBA(r: 0, g: 0, b: 0), reportsCellSize: true)),
        ReferenceTerminal(
            name: "mlterm",
            winsize: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 1000, height: 665)),
            replies: [
                "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\",
                "\u{1B}[?1;0;1024S",
                "\u{1B}[?1;3;0S",  // mlterm's malformed answer to the geometry query
                "\u{1B}[6;19;10t",
                "\u{1B}[4;665;1000t",
                "\u{1B}[?2026;0$y",
                "\u{1B}[?63;1;2;3;4;6;7;15;18;22;29c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: true, colorRegisters: 1024, sixelMaxSize: nil,
                cellSize: PixelSize(width: 10, height: 19), windowPixels: PixelSize(width: 1000, height: 665),
                windowCells: CellCount(width: 100, height: 35), synchronizedOutput: false,
                backgroundColor: RGBA(r: 255, g: 255, b: 255), reportsCellSize: true)),
        // Konsole 22.12 (Debian 12), replies recorded under Xvfb: kitty graphics
        // and sixel both, a 16384 px sixel limit.
        ReferenceTerminal(
            name: "konsole",
            winsize: WindowSize(cells: CellCount(width: 100, height: 34), pixels: PixelSize(width: 903, height: 612)),
            replies: [
                "\u{1B}_Gi=31;OK\u{1B}\\",
                "\u{1B}P>|Konsole 22.12.3\u{1B}\\",
                "\u{1B}]11;rgb:2323/2626/2727\u{1B}\\",
                "\u{1B}[?1;0;256S",
                "\u{1B}[?2;0;16384;16384S",
                "\u{1B}[6;18;9t",
                "\u{1B}[4;612;900t",
                "\u{1B}[?62;1;4c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: true, sixel: true, colorRegisters: 256, sixelMaxSize: PixelSize(width: 16384, height: 16384),
                cellSize: PixelSize(width: 9, height: 18), windowPixels: PixelSize(width: 903, height: 612),
                windowCells: CellCount(width: 100, height: 34), synchronizedOutput: false, terminalVersion: "Konsole 22.12.3",
                backgroundColor: RGBA(r: 35, g: 38, b: 39), reportsCellSize: true)),
        // Inside tmux 3.3a with passthrough, in kitty: the outer terminal's
        // replies to wrapped queries, and the pane's size from the kernel.
        ReferenceTerminal(
            name: "tmux_in_kitty",
            winsize: WindowSize(cells: CellCount(width: 100, height: 33), pixels: PixelSize(width: 900, height: 594)),
            replies: [
                "\u{1B}_Gi=31;OK\u{1B}\\",
                "\u{1B}P>|kitty(0.26.5)\u{1B}\\",
                "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\",
                "\u{1B}[6;18;9t",
                "\u{1B}[?62;c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil,
                cellSize: PixelSize(width: 9, height: 18), windowPixels: PixelSize(width: 900, height: 594),
                windowCells: CellCount(width: 100, height: 33), synchronizedOutput: false, terminalVersion: "kitty(0.26.5)",
                backgroundColor: RGBA(r: 0, g: 0, b: 0), reportsCellSize: true)),
    ]
}

@Suite struct ProbeReplyParserTests {
    @Test func queryBytesAreExact() {
        let expected =
            "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[>q" + "\u{1B}]11;?\u{1B}\\"
            + "\u{1B}[?1;1;0S" + "\u{1B}[?2;4;0S" + "\u{1B}[16t" + "\u{1B}[14t"
            + "\u{1B}[?2026$p" + "\u{1B}[c"
        #expect(ProbeQuery.bytes == bytes(expected))
        #expect(ProbeQuery.bytes(for: .none) == ProbeQuery.bytes)
    }

    @Test func insideTmuxEveryQueryGoesThroughPassthroughAndNoAPCGoesRaw() {
        // With passthrough: each query wrapped for the outer terminal, DA1 last.
        func wrapped(_ query: String) -> String {
            "\u{1B}Ptmux;" + query.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
        }
        let through = [
            "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\", "\u{1B}[>q", "\u{1B}]11;?\u{1B}\\", "\u{1B}[?1;1;0S",
            "\u{1B}[?2;4;0S", "\u{1B}[16t", "\u{1B}[c",
        ].map(wrapped).joined()
        #expect(ProbeQuery.bytes(for: .tmux(passthrough: true)) == bytes(through))
        // Without: nothing tmux could take for a pane title, DA1 answered by tmux.
        let off = ProbeQuery.bytes(for: .tmux(passthrough: false))
        #expect(off == bytes("\u{1B}]11;?\u{1B}\\\u{1B}[16t\u{1B}[c"))
        #expect(!off.containsAPC)
    }

    @Test func backgroundColourRepliesParse() {
        func parsed(_ reply: String) -> RGBA? { parse(bytes(reply + "\u{1B}[?62;c")).result.backgroundColor }
        #expect(parsed("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\") == RGBA(r: 255, g: 255, b: 255))
        #expect(parsed("\u{1B}]11;rgb:2323/2626/2727\u{07}") == RGBA(r: 35, g: 38, b: 39))
        #expect(parsed("\u{1B}]11;rgb:f/8/0\u{1B}\\") == RGBA(r: 255, g: 136, b: 0))
        #expect(parsed("\u{1B}]11;rgb:zz/00/00\u{1B}\\") == nil)
        #expect(parsed("\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\") == nil)
        #expect(parsed("\u{1B}]11;rgb:ffff/ffff\u{1B}\\") == nil)
        // A sign is no hex digit: `rgb:-615` trapped (found by the fuzzer).
        #expect(parsed("\u{1B}]11;rgb:-615/000/8\u{1B}\\") == nil)
        #expect(parsed("\u{1B}]11;rgb:+ff/00/00\u{1B}\\") == nil)
    }

    private func parse(_ input: [UInt8]) -> ProbeReplyParser {
        var parser = ProbeReplyParser()
        parser.feed(input)
        return parser
    }

    @Test(arguments: ReferenceTerminal.all)
    func referenceRepliesGiveExpectedCapabilities(terminal: ReferenceTerminal) {
        let parser = parse(terminal.replyBytes)
        #expect(parser.isComplete)
        #expect(parser.leftoverInput.isEmpty)
        #expect(capabilities(from: parser.result, winsize: terminal.winsize) == terminal.expected)
    }

    @Test(arguments: ReferenceTerminal.all)
    func repliesSplitAnywhereParseTheSame(terminal: ReferenceTerminal) {
        let whole = parse(terminal.replyBytes).result
        let stream = terminal.replyBytes
        for split in 1..<stream.count {
            var parser = ProbeReplyParser()
            parser.feed(Array(stream[..<split]))
            #expect(parser.isComplete == false || split == stream.count)
            parser.feed(Array(stream[split...]))
            #expect(parser.result == whole, "split at \(split)")
            #expect(parser.leftoverInput.isEmpty, "split at \(split)")
        }
        var byteByByte = ProbeReplyParser()
        for byte in stream { byteByByte.feed([byte]) }
        #expect(byteByByte.result == whole)
    }

    @Test(arguments: ReferenceTerminal.all)
    func replyOrderDoesNotMatter(terminal: ReferenceTerminal) {
        let expected = parse(terminal.replyBytes).result
        let replies = terminal.replies
        for rotation in 0..<replies.count {
            let rotated = Array(replies[rotation...] + replies[..<rotation])
            #expect(parse(rotated.flatMap(bytes)).result == expected, "rotation \(rotation)")
        }
        #expect(parse(replies.reversed().flatMap(bytes)).result == expected)
    }

    @Test func userInputDuringTheProbeIsKeptAside() throws {
        let kitty = try #require(ReferenceTerminal.all.first { $0.name == "kitty" })
        let typedBefore = bytes("q\u{1B}[A\u{1B}[<0;3;4M")
        let typedBetween = bytes("é\u{1B}x\u{03}")
        let typedAfter = bytes("\u{1B}[1;5C")
        let replies = kitty.replies.map(bytes)
        let stream = typedBefore + replies[0] + replies[1] + typedBetween + replies[2...].joined() + typedAfter
        let expected = parse(kitty.replyBytes).result
        for split in 0...stream.count {
            var parser = ProbeReplyParser()
            parser.feed(Array(stream[..<split]))
            parser.feed(Array(stream[split...]))
            #expect(parser.result == expected, "split at \(split)")
            #expect(parser.leftoverInput == typedBefore + typedBetween + typedAfter, "split at \(split)")
        }
    }

    @Test func altPTypedBeforeRepliesIsNotMistakenForAString() {
        let parser = parse(bytes("\u{1B}P\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c"))
        #expect(parser.result.kittyGraphicsMessage == "OK")
        #expect(parser.isComplete)
        #expect(parser.leftoverInput == bytes("\u{1B}P"))
    }

    @Test func incompleteTailIsHandedOnAsLeftover() {
        let parser = parse(bytes("a\u{1B}[?2026;"))
        #expect(!parser.isComplete)
        #expect(parser.leftoverInput == bytes("a\u{1B}[?2026;"))
    }

    @Test func failedAndForeignRepliesAreIgnored() {
        let parser = parse(
            bytes(
                "\u{1B}_Gi=7;OK\u{1B}\\"  // another image id: not our query
                    + "\u{1B}[?1;0;0S"  // zero registers is nonsense
                    + "\u{1B}[?2;0;1000S"  // geometry missing its height
                    + "\u{1B}[?2;3;0S"
                    + "\u{1B}[6;0;0t"
                    + "\u{1B}[?80;2$y"  // another mode
                    + "\u{1B}[>1;4000;26c"  // DA2
                    + "\u{1B}[?0u"  // kitty keyboard flags
                    + "\u{1B}P>|\u{1B}\\"  // an empty version
                    + "\u{1B}P1$r0m\u{1B}\\"  // DECRQSS
                    + "\u{1B}]10;rgb:0000/0000/0000\u{1B}\\"  // the foreground, not asked
                    + "\u{1B}[?62;c"))
        var expected = ProbeReplies()
        expected.deviceAttributes = [62]
        expected.deviceAttributeReplies = 1
        #expect(parser.result == expected)
        #expect(parser.leftoverInput.isEmpty)
    }

    @Test func kittyErrorReplyMeansNoKittyGraphics() {
        let parser = parse(bytes("\u{1B}_Gi=31;EINVAL:unsupported format\u{1B}\\\u{1B}[?62;c"))
        #expect(parser.result.kittyGraphicsMessage == "EINVAL:unsupported format")
        let caps = capabilities(from: parser.result, winsize: WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil))
        #expect(!caps.kittyGraphics)
    }

    /// kitty reads shared memory and files on this machine: shared memory
    /// wins; only a file: the file; errors (over SSH: ENOENT): the pty.
    @Test(arguments: [
        ("\u{1B}_Gi=32;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\", KittyMedium.sharedMemory),
        ("\u{1B}_Gi=32;EBADF:shm_open failed\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\", KittyMedium.file),
        ("\u{1B}_Gi=32;ENOENT:not found\u{1B}\\\u{1B}_Gi=33;ENOENT:not found\u{1B}\\", KittyMedium.direct),
        ("", KittyMedium.direct),
    ])
    func kittyTransferMediumFromTheReplies(replies: String, medium: KittyMedium) {
        let parser = parse(bytes("\u{1B}_Gi=31;OK\u{1B}\\" + replies + "\u{1B}[?62;c"))
        #expect(parser.isComplete && parser.leftoverInput.isEmpty)
        let caps = capabilities(from: parser.result, winsize: WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil))
        #expect(caps.kittyGraphics)
        #expect(caps.kittyMedium == medium)
    }

    @Test func syncOutputNeedsStatusOneOrTwo() {
        let winsize = WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil)
        for (status, supported) in [(0, false), (1, true), (2, true), (3, false), (4, false)] {
            let parser = parse(bytes("\u{1B}[?2026;\(status)$y\u{1B}[?62;c"))
            #expect(capabilities(from: parser.result, winsize: winsize).synchronizedOutput == supported, "status \(status)")
        }
    }

    @Test func sixelNeedsAttributeFourAfterTheLevel() {
        let winsize = WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil)
        #expect(capabilities(from: parse(bytes("\u{1B}[?62;4c")).result, winsize: winsize).sixel)
        // 4 as the conformance level is not the sixel attribute.
        #expect(!capabilities(from: parse(bytes("\u{1B}[?4;6c")).result, winsize: winsize).sixel)
    }
}

@Suite struct CapabilityFallbackTests {
    private let cells = CellCount(width: 100, height: 35)

    private func replies(cell: PixelSize?, textArea: PixelSize?) -> ProbeReplies {
        var replies = ProbeReplies()
        replies.cellPixels = cell
        replies.textAreaPixels = textArea
        replies.deviceAttributes = [62]
        return replies
    }

    @Test func kernelPixelsWinOverReplies() {
        let caps = capabilities(
            from: replies(cell: PixelSize(width: 7, height: 14), textArea: PixelSize(width: 700, height: 490)),
            winsize: WindowSize(cells: cells, pixels: PixelSize(width: 1000, height: 700)))
        #expect(caps.cellSize == PixelSize(width: 10, height: 20))
        #expect(caps.windowPixels == PixelSize(width: 1000, height: 700))
    }

    @Test func cellReplyIsUsedWithoutKernelPixels() {
        let caps = capabilities(
            from: replies(cell: PixelSize(width: 7, height: 14), textArea: PixelSize(width: 1000, height: 700)),
            winsize: WindowSize(cells: cells, pixels: nil))
        #expect(caps.cellSize == PixelSize(width: 7, height: 14))
        #expect(caps.windowPixels == PixelSize(width: 1000, height: 700))
    }

    @Test func textAreaDividedByCellsIsTheLastResort() {
        let caps = capabilities(
            from: replies(cell: nil, textArea: PixelSize(width: 1000, height: 700)),
            winsize: WindowSize(cells: cells, pixels: nil))
        #expect(caps.cellSize == PixelSize(width: 10, height: 20))
    }

    @Test func nothingKnownGivesNoCellSize() {
        let caps = capabilities(from: replies(cell: nil, textArea: nil), winsize: WindowSize(cells: cells, pixels: nil))
        #expect(caps.cellSize == nil)
        #expect(caps.windowPixels == nil)
        #expect(caps.windowCells == cells)
    }

    @Test func zeroCellsNeverDivides() {
        let caps = capabilities(
            from: replies(cell: nil, textArea: PixelSize(width: 1000, height: 700)),
            winsize: WindowSize(cells: CellCount(width: 0, height: 0), pixels: PixelSize(width: 1000, height: 700)))
        #expect(caps.cellSize == nil)
    }
}

@Suite struct CapabilityBoundsTests {
    private let cells = CellCount(width: 100, height: 35)

    @Test func hostileSizesAreIgnoredAndNamed() {
        var replies = ProbeReplies()
        replies.cellPixels = PixelSize(width: 999_999_999, height: 999_999_999)
        replies.textAreaPixels = PixelSize(width: 100_000, height: 50)
        replies.sixelMaxGeometry = PixelSize(width: 20000, height: 20000)
        replies.colorRegisters = 1_000_000
        replies.deviceAttributes = [62, 4]
        let caps = capabilities(from: replies, winsize: WindowSize(cells: cells, pixels: nil))
        #expect(caps.cellSize == nil)
        #expect(caps.windowPixels == nil)
        #expect(caps.sixelMaxSize == nil)
        #expect(caps.colorRegisters == nil)
        #expect(
            caps.ignoredReplies == [
                "text area (CSI 14 t) 100000x50", "cell size (CSI 16 t) 999999999x999999999",
                "sixel geometry (XTSMGRAPHICS) 20000x20000", "colour registers 1000000",
            ])
    }

    @Test func kernelPixelsBeyondTheBoundsAreIgnoredToo() {
        let caps = capabilities(
            from: ProbeReplies(), winsize: WindowSize(cells: cells, pixels: PixelSize(width: 60000, height: 60000)))
        #expect(caps.windowPixels == nil && caps.cellSize == nil)
        #expect(caps.ignoredReplies == ["window pixels (TIOCGWINSZ) 60000x60000"])
    }

    @Test func sizesAtTheBoundsAreKept() {
        var replies = ProbeReplies()
        replies.cellPixels = PixelSize(width: 256, height: 256)
        replies.sixelMaxGeometry = PixelSize(width: 16384, height: 16384)
        let caps = capabilities(from: replies, winsize: WindowSize(cells: cells, pixels: nil))
        #expect(caps.cellSize == PixelSize(width: 256, height: 256))
        #expect(caps.sixelMaxSize == PixelSize(width: 16384, height: 16384))
        #expect(caps.ignoredReplies.isEmpty)
    }
}

extension Array where Element == UInt8 {
    /// True when an APC (`ESC _`) starts anywhere.
    var containsAPC: Bool { indices.dropLast().contains { self[$0] == 0x1B && self[$0 + 1] == UInt8(ascii: "_") } }
}
