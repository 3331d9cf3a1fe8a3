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
            winsize: WindowSize(cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
            replies: [
                "\u{1B}[?1;3S",  // colours: failure, no sixel
                "\u{1B}[?2;3S",  // geometry: failure
                "\u{1B}[?2026;0$y",
                "\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: false, colorRegisters: nil, sixelMaxSize: nil,
                cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
                windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: false)),
        ReferenceTerminal(
            name: "xterm_vt340",
            winsize: WindowSize(cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
            replies: [
                "\u{1B}[?1;0;256S",
                "\u{1B}[?2;0;1000;1000S",
                "\u{1B}[?2026;0$y",
                "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: false, sixel: true, colorRegisters: 256,
                sixelMaxSize: PixelSize(width: 1000, height: 1000),
                cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
                windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: false)),
        ReferenceTerminal(
            name: "xterm_vt340_winops",
            winsize: WindowSize(cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)),
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
                windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: false)),
        ReferenceTerminal(
            name: "kitty",
            winsize: WindowSize(cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 900, height: 630)),
            replies: [
                "\u{1B}_Gi=31;OK\u{1B}\\",
                "\u{1B}[6;18;9t",
                "\u{1B}[4;630;900t",
                "\u{1B}[?2026;2$y",
                "\u{1B}[?62;c",
            ],
            expected: TerminalCapabilities(
                kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil,
                cellSize: PixelSize(width: 9, height: 18), windowPixels: PixelSize(width: 900, height: 630),
                windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: true)),
        ReferenceTerminal(
            name: "mlterm",
            winsize: WindowSize(cells: PixelSize(width: 100, height: 35), pixels: PixelSize(width: 1000, height: 665)),
            replies: [
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
                windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: false)),
    ]
}

@Suite struct ProbeReplyParserTests {
    @Test func queryBytesAreExact() {
        let expected = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
            + "\u{1B}[?1;1;0S" + "\u{1B}[?2;4;0S" + "\u{1B}[16t" + "\u{1B}[14t"
            + "\u{1B}[?2026$p" + "\u{1B}[c"
        #expect(ProbeQuery.bytes == bytes(expected))
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
        let parser = parse(bytes(
            "\u{1B}_Gi=7;OK\u{1B}\\"  // another image id: not our query
                + "\u{1B}[?1;0;0S"  // zero registers is nonsense
                + "\u{1B}[?2;0;1000S"  // geometry missing its height
                + "\u{1B}[?2;3;0S"
                + "\u{1B}[6;0;0t"
                + "\u{1B}[?80;2$y"  // another mode
                + "\u{1B}[>1;4000;26c"  // DA2
                + "\u{1B}[?0u"  // kitty keyboard flags
                + "\u{1B}P>|kitty(0.26.5)\u{1B}\\"
                + "\u{1B}[?62;c"))
        var expected = ProbeReplies()
        expected.deviceAttributes = [62]
        #expect(parser.result == expected)
        #expect(parser.leftoverInput.isEmpty)
    }

    @Test func kittyErrorReplyMeansNoKittyGraphics() {
        let parser = parse(bytes("\u{1B}_Gi=31;EINVAL:unsupported format\u{1B}\\\u{1B}[?62;c"))
        #expect(parser.result.kittyGraphicsMessage == "EINVAL:unsupported format")
        let caps = capabilities(from: parser.result, winsize: WindowSize(cells: PixelSize(width: 80, height: 24), pixels: nil))
        #expect(!caps.kittyGraphics)
    }

    @Test func syncOutputNeedsStatusOneOrTwo() {
        let winsize = WindowSize(cells: PixelSize(width: 80, height: 24), pixels: nil)
        for (status, supported) in [(0, false), (1, true), (2, true), (3, false), (4, false)] {
            let parser = parse(bytes("\u{1B}[?2026;\(status)$y\u{1B}[?62;c"))
            #expect(capabilities(from: parser.result, winsize: winsize).synchronizedOutput == supported, "status \(status)")
        }
    }

    @Test func sixelNeedsAttributeFourAfterTheLevel() {
        let winsize = WindowSize(cells: PixelSize(width: 80, height: 24), pixels: nil)
        #expect(capabilities(from: parse(bytes("\u{1B}[?62;4c")).result, winsize: winsize).sixel)
        // 4 as the conformance level is not the sixel attribute.
        #expect(!capabilities(from: parse(bytes("\u{1B}[?4;6c")).result, winsize: winsize).sixel)
    }
}

@Suite struct CapabilityFallbackTests {
    private let cells = PixelSize(width: 100, height: 35)

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
            winsize: WindowSize(cells: PixelSize(width: 0, height: 0), pixels: PixelSize(width: 1000, height: 700)))
        #expect(caps.cellSize == nil)
    }
}
