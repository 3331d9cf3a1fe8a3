import Encoding
import GraphicsReadback
import Pixels
import Testing

@Suite struct HalfBlockEncoderTests {
    /// `encode`'s bytes as text, for readable expectations.
    private func encoded(_ image: RGBAImage, columns: Int, by encoder: HalfBlockEncoder = HalfBlockEncoder()) -> String {
        String(decoding: encoder.encode(image, columns: columns), as: UTF8.self)
    }

    @Test func twoByTwoIsExact() {
        let image = TestImages.image([[TestImages.red, TestImages.green], [TestImages.blue, TestImages.clear]])
        let text = encoded(image, columns: 2)
        #expect(
            text == "\u{1B}[0m"
                + "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀"
                + "\u{1B}[38;2;0;255;0m\u{1B}[49m▀"
                + "\u{1B}[0m")
    }

    @Test func unchangedColoursAreNotRepeated() {
        let row = [RGBA](repeating: TestImages.red, count: 3)
        let text = encoded(TestImages.image([row, row]), columns: 3)
        #expect(text == "\u{1B}[0m\u{1B}[38;2;255;0;0m\u{1B}[48;2;255;0;0m▀▀▀\u{1B}[0m")
    }

    @Test func transparentHalvesUseDefaultColours() {
        let image = TestImages.image([[TestImages.clear, TestImages.clear], [TestImages.blue, TestImages.clear]])
        let text = encoded(image, columns: 2)
        // Bottom only: lower half block in the bottom colour; neither: a plain space.
        #expect(text == "\u{1B}[0m\u{1B}[38;2;0;0;255m▄ \u{1B}[0m")
    }

    @Test func linesAreSeparatedByCRLFOrPositioned() {
        let image = TestImages.image([[TestImages.red], [TestImages.red], [TestImages.blue], [TestImages.blue]])
        let red = "\u{1B}[38;2;255;0;0m\u{1B}[48;2;255;0;0m▀\u{1B}[0m"
        let blue = "\u{1B}[38;2;0;0;255m\u{1B}[48;2;0;0;255m▀\u{1B}[0m"
        #expect(encoded(image, columns: 1) == "\u{1B}[0m" + red + "\r\n" + blue)
        #expect(
            encoded(image, columns: 1, by: HalfBlockEncoder(layout: .positioned(row: 3, column: 5)))
                == "\u{1B}[0m\u{1B}[3;5H" + red + "\u{1B}[4;5H" + blue)
    }

    @Test func oddHeightLeavesLastLowerHalfEmpty() {
        let image = TestImages.image([[TestImages.green]])
        #expect(
            encoded(image, columns: 1)
                == "\u{1B}[0m\u{1B}[38;2;0;255;0m▀\u{1B}[0m")
    }
}
