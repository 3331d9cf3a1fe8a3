import Testing

@testable import Terminal

/// Bytes of a string with `^[` written as "\u{1B}".
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func key(_ code: KeyCode, _ modifiers: Modifiers = []) -> InputEvent {
    .key(Key(code, modifiers))
}

private func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, _ modifiers: Modifiers = []) -> InputEvent {
    .mouse(MouseEvent(kind: kind, x: x, y: y, modifiers: modifiers))
}

/// Decodes `input` in one feed; nothing may be left pending.
private func decodeWhole(_ input: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    let events = decoder.feed(input)
    #expect(!decoder.hasPendingEscape, "left pending after \(input)")
    return events
}

/// Deterministic generator so a failing chunking can be reproduced.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct InputDecoderTests {
    @Test(arguments: [
        ("a", key(.char("a"))),
        ("Z", key(.char("Z"))),
        (" ", key(.char(" "))),
        ("\u{01}", key(.char("a"), .control)),
        ("\u{03}", key(.char("c"), .control)),
        ("\u{1A}", key(.char("z"), .control)),
        ("\u{00}", key(.char(" "), .control)),
        ("\u{1C}", key(.char("\\"), .control)),
        ("\r", key(.enter)),
        ("\n", key(.enter)),
        ("\t", key(.tab)),
        ("\u{7F}", key(.backspace)),
        ("\u{08}", key(.backspace)),
        ("é", key(.char("é"))),
        ("中", key(.char("中"))),
        ("😀", key(.char("😀"))),
    ])
    func singleByteAndTextKeys(input: String, expected: InputEvent) {
        #expect(decodeWhole(bytes(input)) == [expected])
    }

    @Test(arguments: [
        ("\u{1B}[A", key(.up)), ("\u{1B}[B", key(.down)),
        ("\u{1B}[C", key(.right)), ("\u{1B}[D", key(.left)),
        ("\u{1B}[1;5C", key(.right, .control)),
        ("\u{1B}[1;5D", key(.left, .control)),
        ("\u{1B}[1;2A", key(.up, .shift)),
        ("\u{1B}[1;3B", key(.down, .alt)),
        ("\u{1B}[1;6D", key(.left, [.control, .shift])),
        ("\u{1B}[1;8A", key(.up, [.control, .alt, .shift])),
        ("\u{1B}[H", key(.home)), ("\u{1B}[F", key(.end)),
        ("\u{1B}[1;5H", key(.home, .control)),
        ("\u{1B}[Z", key(.backTab)),
        ("\u{1B}OA", key(.up)), ("\u{1B}OB", key(.down)),
        ("\u{1B}OC", key(.right)), ("\u{1B}OD", key(.left)),
        ("\u{1B}OH", key(.home)), ("\u{1B}OF", key(.end)),
        ("\u{1B}OP", key(.function(1))), ("\u{1B}OQ", key(.function(2))),
        ("\u{1B}OR", key(.function(3))), ("\u{1B}OS", key(.function(4))),
        ("\u{1B}O2P", key(.function(1), .shift)),
        ("\u{1B}OM", key(.enter)),
        ("\u{1B}[1;2P", key(.function(1), .shift)),
        ("\u{1B}[1~", key(.home)), ("\u{1B}[2~", key(.insert)),
        ("\u{1B}[3~", key(.delete)), ("\u{1B}[4~", key(.end)),
        ("\u{1B}[5~", key(.pageUp)), ("\u{1B}[6~", key(.pageDown)),
        ("\u{1B}[7~", key(.home)), ("\u{1B}[8~", key(.end)),
        ("\u{1B}[11~", key(.function(1))), ("\u{1B}[15~", key(.function(5))),
        ("\u{1B}[17~", key(.function(6))), ("\u{1B}[21~", key(.function(10))),
        ("\u{1B}[23~", key(.function(11))), ("\u{1B}[24~", key(.function(12))),
        ("\u{1B}[3;5~", key(.delete, .control)),
        ("\u{1B}[5;2~", key(.pageUp, .shift)),
        ("\u{1B}[15;3~", key(.function(5), .alt)),
        ("\u{1B}[[A", key(.function(1))), ("\u{1B}[[E", key(.function(5))),
        ("\u{1B}[97;5u", key(.char("a"), .control)),
        ("\u{1B}[13;2u", key(.enter, .shift)),
    ])
    func specialKeys(input: String, expected: InputEvent) {
        #expect(decodeWhole(bytes(input)) == [expected])
    }

    @Test(arguments: [
        ("\u{1B}a", key(.char("a"), .alt)),
        ("\u{1B}Z", key(.char("Z"), .alt)),
        ("\u{1B}\u{01}", key(.char("a"), [.control, .alt])),
        ("\u{1B}\u{7F}", key(.backspace, .alt)),
        ("\u{1B}\r", key(.enter, .alt)),
        ("\u{1B}é", key(.char("é"), .alt)),
        ("\u{1B}\u{1B}[A", key(.up, .alt)),
        ("\u{1B}\u{1B}OC", key(.right, .alt)),
    ])
    func altPrefix(input: String, expected: InputEvent) {
        #expect(decodeWhole(bytes(input)) == [expected])
    }

    @Test(arguments: [
        ("\u{1B}[<0;10;5M", mouse(.press(.left), 10, 5)),
        ("\u{1B}[<0;10;5m", mouse(.release(.left), 10, 5)),
        ("\u{1B}[<1;1;1M", mouse(.press(.middle), 1, 1)),
        ("\u{1B}[<2;300;90M", mouse(.press(.right), 300, 90)),
        ("\u{1B}[<32;11;5M", mouse(.drag(.left), 11, 5)),
        ("\u{1B}[<34;11;6M", mouse(.drag(.right), 11, 6)),
        ("\u{1B}[<35;12;6M", mouse(.move, 12, 6)),
        ("\u{1B}[<64;3;4M", mouse(.wheelUp, 3, 4)),
        ("\u{1B}[<65;3;4M", mouse(.wheelDown, 3, 4)),
        ("\u{1B}[<66;3;4M", mouse(.wheelLeft, 3, 4)),
        ("\u{1B}[<4;2;2M", mouse(.press(.left), 2, 2, .shift)),
        ("\u{1B}[<8;2;2M", mouse(.press(.left), 2, 2, .alt)),
        ("\u{1B}[<16;2;2M", mouse(.press(.left), 2, 2, .control)),
        ("\u{1B}[<80;7;8M", mouse(.wheelUp, 7, 8, .control)),
        ("\u{1B}[<128;2;2M", mouse(.press(.extra(8)), 2, 2)),
    ])
    func sgrMouse(input: String, expected: InputEvent) {
        #expect(decodeWhole(bytes(input)) == [expected])
    }

    @Test func bracketedPasteKeepsContentVerbatim() {
        let input = bytes("x\u{1B}[200~line one\r\nrm -rf \u{1B}[31m~\u{1B}[201~y")
        #expect(
            decodeWhole(input) == [
                key(.char("x")), .paste("line one\r\nrm -rf \u{1B}[31m~"), key(.char("y")),
            ])
    }

    @Test func pasteIsNotEndedByTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("\u{1B}[200~abc\u{1B}[20")).isEmpty)
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape().isEmpty)
        #expect(decoder.feed(bytes("1~")) == [.paste("abc")])
    }

    @Test(arguments: [
        "\u{1B}[?62;c",  // a late DA1 reply
        "\u{1B}[99~",
        "\u{1B}[<0;1M",  // mouse report missing a coordinate
        "\u{1B}_Gi=31;OK\u{1B}\\",  // a late kitty graphics reply
        "\u{1B}P>|XTerm(379)\u{1B}\\",
        "\u{1B}]11;rgb:ffff/ffff/ffff\u{07}",
    ])
    func unsupportedSequencesAreUnknown(input: String) {
        #expect(decodeWhole(bytes(input)) == [.unknown(bytes(input))])
    }

    @Test func invalidUTF8IsUnknownAndDecodingGoesOn() {
        #expect(decodeWhole([0xFF, 0x61]) == [.unknown([0xFF]), key(.char("a"))])
        #expect(decodeWhole([0xC3, 0x61]) == [.unknown([0xC3]), key(.char("a"))])
        #expect(decodeWhole([0xE4, 0xB8, 0x41]) == [.unknown([0xE4, 0xB8]), key(.char("A"))])
        // U+009B encoded in UTF-8 is a C1 control, not typed text.
        #expect(decodeWhole([0xC2, 0x9B, 0x41]) == [.unknown([0xC2, 0x9B]), key(.char("A"))])
        // Overlong encoding of "/".
        #expect(decodeWhole([0xE0, 0x80, 0xAF]) == [.unknown([0xE0, 0x80, 0xAF])])
    }

    @Test func loneEscapeWaitsForTheTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [key(.escape)])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape().isEmpty)
    }

    @Test(arguments: [
        ("\u{1B}", [key(.escape)]),
        ("\u{1B}\u{1B}", [key(.escape), key(.escape)]),
        ("\u{1B}[", [key(.char("["), .alt)]),
        ("\u{1B}O", [key(.char("O"), .alt)]),
        ("\u{1B}P", [key(.char("P"), .alt)]),
        ("\u{1B}Pabc", [key(.char("P"), .alt), key(.char("a")), key(.char("b")), key(.char("c"))]),
        ("\u{1B}[1;", [InputEvent.unknown(bytes("\u{1B}[1;"))]),
    ])
    func flushResolvesIncompleteSequences(input: String, expected: [InputEvent]) {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes(input)).isEmpty)
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == expected)
        #expect(!decoder.hasPendingEscape)
    }

    @Test func sequenceCompletedAfterPauseIsStillOneKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("\u{1B}[1;")).isEmpty)
        #expect(decoder.feed(bytes("5C")) == [key(.right, .control)])
    }

    @Test func controlByteInsideSequenceEndsIt() {
        #expect(decodeWhole(bytes("\u{1B}[1\u{03}")) == [.unknown(bytes("\u{1B}[1")), key(.char("c"), .control)])
    }

    @Test func endlessSequenceDoesNotWedgeTheDecoder() {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        events += decoder.feed(bytes("\u{1B}["))
        for _ in 0..<100 {
            events += decoder.feed(Array(repeating: UInt8(ascii: "1"), count: 10))
        }
        events += decoder.feed(bytes("a"))
        // The garbage comes out as one bounded unknown chunk, the rest of
        // it is dropped rather than typed as digits, and the "a" ending it
        // (a final byte) is part of it too.
        #expect(events == [.unknown(bytes("\u{1B}[") + Array(repeating: UInt8(ascii: "1"), count: 62))])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.feed(bytes("b\u{1B}[A")) == [key(.char("b")), key(.up)])
    }

    @Test func endlessEscapeStringFallsBackToAltKey() {
        var input = bytes("\u{1B}_")
        input += Array(repeating: UInt8(ascii: "x"), count: InputDecoder.maxStringLength)
        let events = decodeWhole(input)
        #expect(events.first == key(.char("_"), .alt))
        #expect(events.count == 1 + InputDecoder.maxStringLength)
    }

    /// A stream mixing every kind of input. Splitting it anywhere must not
    /// change what it decodes to.
    private static let mixedStream: [UInt8] =
        bytes("hi\u{1B}[A\u{1B}[1;5C\u{1B}OP\u{1B}[15~\u{1B}[<0;10;5M\u{1B}[<32;11;5M\u{1B}[<0;11;5m")
        + bytes("é中😀\u{1B}x\u{1B}\u{1B}[B\u{03}\r\u{1B}[200~pasted 東京\r\n\u{1B}[201~\u{1B}[Z")
        + bytes("\u{1B}[3;5~\u{1B}[<65;1;1M\u{1B}[?62;c\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[[Bz")
        + [0xFF, 0x61, 0xE4, 0xB8, 0x41] + bytes("\u{1B}\u{1B}q\u{7F}\t")

    @Test func splitReadsGiveTheSameEvents() {
        let whole = decodeWhole(Self.mixedStream)
        #expect(
            whole == [
                key(.char("h")), key(.char("i")), key(.up), key(.right, .control), key(.function(1)),
                key(.function(5)), mouse(.press(.left), 10, 5), mouse(.drag(.left), 11, 5),
                mouse(.release(.left), 11, 5), key(.char("é")), key(.char("中")), key(.char("😀")),
                key(.char("x"), .alt), key(.down, .alt), key(.char("c"), .control), key(.enter),
                .paste("pasted 東京\r\n"), key(.backTab), key(.delete, .control), mouse(.wheelDown, 1, 1),
                .unknown(bytes("\u{1B}[?62;c")), .unknown(bytes("\u{1B}_Gi=31;OK\u{1B}\\")),
                key(.function(2)), key(.char("z")), .unknown([0xFF]), key(.char("a")), .unknown([0xE4, 0xB8]),
                key(.char("A")), key(.escape), key(.char("q"), .alt), key(.backspace), key(.tab),
            ])

        var byteByByte = InputDecoder()
        var events: [InputEvent] = []
        for byte in Self.mixedStream { events += byteByByte.feed([byte]) }
        #expect(events == whole)
        #expect(!byteByByte.hasPendingEscape)

        for seed in UInt64(1)...20 {
            var random = SplitMix64(state: seed)
            var decoder = InputDecoder()
            var chunked: [InputEvent] = []
            var start = 0
            while start < Self.mixedStream.count {
                let end = min(Self.mixedStream.count, start + Int.random(in: 1...9, using: &random))
                chunked += decoder.feed(Array(Self.mixedStream[start..<end]))
                start = end
            }
            #expect(chunked == whole, "seed \(seed)")
        }
    }

    @Test func everySplitPointGivesTheSameEvents() {
        let whole = decodeWhole(Self.mixedStream)
        for split in 1..<Self.mixedStream.count {
            var decoder = InputDecoder()
            let events =
                decoder.feed(Array(Self.mixedStream[..<split]))
                + decoder.feed(Array(Self.mixedStream[split...]))
            #expect(events == whole, "split at \(split)")
        }
    }
}
