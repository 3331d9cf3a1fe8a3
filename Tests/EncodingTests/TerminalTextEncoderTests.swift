import GraphicsReadback
import Encoding
import Pixels
import Testing

@Suite struct HalfBlockEncoderTests {
    @Test func twoByTwoIsExact() {
        let image = TestImages.image([[TestImages.red, TestImages.green], [TestImages.blue, TestImages.clear]])
        let text = HalfBlockEncoder().encodeString(image, columns: 2)
        #expect(text == "\u{1B}[0m"
            + "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀"
            + "\u{1B}[38;2;0;255;0m\u{1B}[49m▀"
            + "\u{1B}[0m")
    }

    @Test func unchangedColoursAreNotRepeated() {
        let row = [RGBA](repeating: TestImages.red, count: 3)
        let text = HalfBlockEncoder().encodeString(TestImages.image([row, row]), columns: 3)
        #expect(text == "\u{1B}[0m\u{1B}[38;2;255;0;0m\u{1B}[48;2;255;0;0m▀▀▀\u{1B}[0m")
    }

    @Test func transparentHalvesUseDefaultColours() {
        let image = TestImages.image([[TestImages.clear, TestImages.clear], [TestImages.blue, TestImages.clear]])
        let text = HalfBlockEncoder().encodeString(image, columns: 2)
        // Bottom only: lower half block in the bottom colour; neither: a plain space.
        #expect(text == "\u{1B}[0m\u{1B}[38;2;0;0;255m▄ \u{1B}[0m")
    }

    @Test func linesAreSeparatedByCRLFOrPositioned() {
        let image = TestImages.image([[TestImages.red], [TestImages.red], [TestImages.blue], [TestImages.blue]])
        let red = "\u{1B}[38;2;255;0;0m\u{1B}[48;2;255;0;0m▀\u{1B}[0m"
        let blue = "\u{1B}[38;2;0;0;255m\u{1B}[48;2;0;0;255m▀\u{1B}[0m"
        #expect(HalfBlockEncoder().encodeString(image, columns: 1) == "\u{1B}[0m" + red + "\r\n" + blue)
        #expect(HalfBlockEncoder(layout: .positioned(row: 3, column: 5)).encodeString(image, columns: 1)
            == "\u{1B}[0m\u{1B}[3;5H" + red + "\u{1B}[4;5H" + blue)
    }

    @Test func oddHeightLeavesLastLowerHalfEmpty() {
        let image = TestImages.image([[TestImages.green]])
        #expect(HalfBlockEncoder().encodeString(image, columns: 1)
            == "\u{1B}[0m\u{1B}[38;2;0;255;0m▀\u{1B}[0m")
    }
}

@Suite struct TmuxPassthroughTests {
    @Test func wrapsOneCommandDoublingEscapes() {
        let command = Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)
        #expect(TestImages.string(TmuxPassthrough.wrap(command))
            == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=A,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func wrapsEachCommandSeparately() {
        let commands = Array("\u{1B}_Gm=1;AAAA\u{1B}\\\u{1B}_Gm=0;BBBB\u{1B}\\".utf8)
        #expect(TestImages.string(TmuxPassthrough.wrap(commands))
            == "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=1;AAAA\u{1B}\u{1B}\\\u{1B}\\"
            + "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=0;BBBB\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func everyEscapeOfAKittyTransmissionIsDoubled() throws {
        let bytes = KittyEncoder().transmit(TestImages.noise(width: 80, height: 80), imageID: 1)
        let wrapped = TmuxPassthrough.wrap(bytes)
        let commands = try KittyDecoder.commands(bytes)
        let escapes = bytes.filter { $0 == 0x1B }.count
        // Per command: ESC P tmux; (1) + doubled inner escapes + closing ESC \ (1).
        #expect(wrapped.filter { $0 == 0x1B }.count == 2 * escapes + 2 * commands.count)
        #expect(wrapped.count == bytes.count + escapes + commands.count * 9)
    }

    @Test func unterminatedTailIsWrappedToo() {
        #expect(TestImages.string(TmuxPassthrough.wrap(Array("ab".utf8))) == "\u{1B}Ptmux;ab\u{1B}\\")
        #expect(TmuxPassthrough.wrap([]).isEmpty)
    }
}
