import Terminal
import Testing

@testable import pxview

@Suite struct TextTableTests {
    @Test func columnsAlignByCellsAndNumbersAlignRight() {
        let table = TextTable(
            headers: ["ID", "USER", "TAGS"], rows: [["7", "李小龍", "kung fu"], ["1234", "Zoë", "tea"]],
            rightAligned: [0])
        #expect(
            table.render(width: 80) == [
                "  ID  USER    TAGS",
                "   7  李小龍  kung fu",
                "1234  Zoë     tea",
            ])
    }

    @Test func theLastColumnIsCutToTheLineAndOthersAreCapped() {
        var table = TextTable(
            headers: ["A", "B"], rows: [["abcdefghij", "one two three four five"]], rightAligned: [])
        table.maxColumnWidth = 6
        table.minLastColumnWidth = 4
        let lines = table.render(width: 20)
        #expect(lines == ["A       B", "abcde…  one two thr…"])
        #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 20 })
        // A narrow line squeezes text columns (to 5 cells) before the last one drops below its minimum.
        #expect(table.render(width: 11) == ["A      B", "abcd…  one…"])
        #expect(table.render(width: 3).last == "abcd…  one…")
        // Right-aligned (numeric) columns are never squeezed.
        table.rightAligned = [0]
        #expect(table.render(width: 3).last == "abcde…  one…")
    }

    @Test func controlCharactersAreNeutralisedBeforeMeasuring() {
        let table = TextTable(headers: ["T"], rows: [["a\u{1B}[2Jb\u{202E}c\td"]])
        #expect(table.render(width: 40) == ["T", "a\u{FFFD}[2Jb\u{FFFD}c d"])
    }

    @Test func outputWidthFallsBackToColumnsThenOneHundred() {
        // The test runner's stdout is not a terminal.
        #expect(TextTable.outputWidth(environment: ["COLUMNS": "72"]) == 72)
        #expect(TextTable.outputWidth(environment: ["COLUMNS": "wide"]) == 100)
        #expect(TextTable.outputWidth(environment: [:]) == 100)
    }
}
