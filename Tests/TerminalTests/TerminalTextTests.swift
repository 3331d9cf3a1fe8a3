import Testing

@testable import Terminal

@Suite struct TerminalTextTests {
    private let fffd = "\u{FFFD}"

    @Test(arguments: [
        // OSC 0 window-title injection, ended by BEL.
        ("\u{1B}]0;pwned title\u{07}", "\u{FFFD}]0;pwned title\u{FFFD}"),
        // CSI 2 J clears the screen.
        ("tag\u{1B}[2Jtag", "tag\u{FFFD}[2Jtag"),
        // A DCS sixel image, ended by ST.
        ("\u{1B}Pq#0;2;0;0;0#0~~@@\u{1B}\\", "\u{FFFD}Pq#0;2;0;0;0#0~~@@\u{FFFD}\\"),
        // U+009B is CSI for terminals that honour 8-bit C1 controls.
        ("\u{9B}31mred", "\u{FFFD}31mred"),
        // U+0085 NEL and U+0090 DCS, other C1 controls.
        ("a\u{85}b\u{90}c", "a\u{FFFD}b\u{FFFD}c"),
        // RIGHT-TO-LEFT OVERRIDE would reverse the text after it.
        ("invoice\u{202E}fdp.exe", "invoice\u{FFFD}fdp.exe"),
        // Tab, LF and CR keep words apart but stay on one line.
        ("one\ttwo\nthree\r\nfour", "one two three  four"),
        ("del\u{7F}bell\u{07}nul\u{00}", "del\u{FFFD}bell\u{FFFD}nul\u{FFFD}"),
    ])
    func sanitizeReplacesControls(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func sanitizeReplacesEveryBidiControl() {
        let bidi: [UInt32] = [
            0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
            0x2066, 0x2067, 0x2068, 0x2069,
        ]
        for value in bidi {
            let text = "x" + String(Character(Unicode.Scalar(value)!)) + "y"
            #expect(TerminalText.sanitize(text) == "x\(fffd)y", "U+\(String(value, radix: 16))")
        }
    }

    @Test func sanitizeLeavesNoControlScalar() {
        var hostile = ""
        for value in UInt32(0)...0x9F { hostile.unicodeScalars.append(Unicode.Scalar(value)!) }
        let clean = TerminalText.sanitize(hostile)
        for scalar in clean.unicodeScalars {
            #expect(!(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)), "U+\(scalar.value)")
        }
        // One output scalar per input scalar: nothing is silently dropped.
        #expect(clean.unicodeScalars.count == 0xA0)
    }

    @Test func sanitizeKeepsOrdinaryText() {
        let text = "Zürich 東京 Ελλάδα café e\u{301} 😀 👩‍👩‍👧 مرحبا"
        #expect(TerminalText.sanitize(text) == text)
    }

    @Test(arguments: [
        ("", 0), ("abc", 3), ("東京", 4), ("한국", 4), ("e\u{301}", 1), ("😀", 2),
        ("\u{FF21}", 2),  // FULLWIDTH LATIN CAPITAL LETTER A
        ("\u{FF71}", 1),  // HALFWIDTH KATAKANA LETTER A
        ("a\u{200D}b", 2),  // zero-width joiner
        ("\u{FFFD}", 1), ("…", 1), ("Ω", 1),
    ])
    func displayWidth(text: String, width: Int) {
        #expect(TerminalText.displayWidth(text) == width)
    }

    @Test(arguments: [
        ("hello world", 8, "hello w…"),
        ("hello", 5, "hello"),
        ("hello", 9, "hello"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("hello", -3, ""),
        ("東京都庁", 5, "東京…"),
        // A wide character that would straddle the limit is dropped whole.
        ("東京都庁", 4, "東…"),
        // Combining accents stay with their letters.
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ])
    func truncate(text: String, width: Int, expected: String) {
        let result = TerminalText.truncate(text, toWidth: width)
        #expect(result == expected)
        #expect(TerminalText.displayWidth(result) <= max(0, width))
    }

    @Test(arguments: [
        ("hello world", 8, "…o world"),
        ("hello", 5, "hello"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("東京都庁", 5, "…都庁"),
        // A wide character that would straddle the limit is dropped whole.
        ("東京都庁", 4, "…庁"),
        ("e\u{301}e\u{301}e\u{301}", 2, "…e\u{301}"),
    ])
    func tail(text: String, width: Int, expected: String) {
        let result = TerminalText.tail(text, toWidth: width)
        #expect(result == expected)
        #expect(TerminalText.displayWidth(result) <= max(0, width))
    }

    /// One pass whatever the length: a megabyte cut to a line is instant
    /// (trimmed one character at a time, 120 KB took 25 s).
    @Test func tailOfAMegabyteIsTheLastCells() {
        let text = String(repeating: "x", count: 1 << 20) + "end"
        #expect(TerminalText.tail(text, toWidth: 10) == "…xxxxxxend")
    }

    /// In a C locale: pxview's own symbols get ASCII stand-ins, anything
    /// else outside ASCII a `?`; UTF-8 keeps everything.
    @Test func asciiGlyphsStandInForSymbols() {
        let text = "café ☕ … · ♥ 3 ★ ▶ 12 ┌─┐│└┘ █"
        #expect(Glyphs.ascii.text(text) == "caf? ? ... - <3 3 * > 12 +-+|++ _")
        #expect(Glyphs.unicode.text(text) == text)
        #expect(TerminalLocale(environment: ["LANG": "C"]).glyphs == .ascii)
        #expect(TerminalLocale(environment: [:]).glyphs == .ascii)
        #expect(TerminalLocale(environment: ["LANG": "C", "LC_ALL": "en_GB.UTF-8"]).glyphs == .unicode)
    }

    @Test func asciiCutsEndWithThreeDots() {
        #expect(TerminalText.truncate("abcdefgh", toWidth: 5, glyphs: .ascii) == "ab...")
        #expect(TerminalText.truncate("abcdefgh", toWidth: 2, glyphs: .ascii) == "..")
        #expect(TerminalText.truncate("abc", toWidth: 3, glyphs: .ascii) == "abc")
        #expect(TerminalText.tail("abcdefgh", toWidth: 5, glyphs: .ascii) == "...gh")
        #expect(TerminalText.truncate("abcdefgh", toWidth: 5) == "abcd…")
    }

    /// A name cut in the middle keeps its start and its end (the numbers
    /// and the extension), to exactly the width.
    @Test func middleCutsKeepBothEnds() {
        #expect(TerminalText.middle("IMG_20240412_101010.jpg", toWidth: 17) == "IMG_2024…1010.jpg")
        #expect(TerminalText.middle("IMG_20240412_101010.jpg", toWidth: 17, glyphs: .ascii) == "IMG_202...010.jpg")
        #expect(TerminalText.middle("short.jpg", toWidth: 17) == "short.jpg")
        #expect(TerminalText.middle("写真写真写真写真.jpg", toWidth: 11) == "写真写….jpg")
        #expect(TerminalText.middle("abcdef", toWidth: 4, glyphs: .ascii) == "a...")
        #expect(TerminalText.middle("abcdef", toWidth: 0) == "")
    }
}
