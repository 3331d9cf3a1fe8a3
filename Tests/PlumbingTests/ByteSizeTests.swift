import Plumbing
import Testing

/// Sizes as every message and status line writes them.
@Suite struct ByteSizeTests {
    /// Whole bytes under a kilobyte; above, one decimal of the largest unit
    /// reached, rounded to the nearest tenth, the unit chosen after rounding.
    @Test func sizesReadInBinaryUnitsWithOneDecimal() {
        #expect(ByteSize.text(-5) == "0 B")
        #expect(ByteSize.text(0) == "0 B")
        #expect(ByteSize.text(1000) == "1000 B")
        #expect(ByteSize.text(1023) == "1023 B")
        #expect(ByteSize.text(1024) == "1.0 KB")
        #expect(ByteSize.text(1536) == "1.5 KB")
        #expect(ByteSize.text(2048) == "2.0 KB")
        #expect(ByteSize.text(1_048_524) == "1023.9 KB")
        #expect(ByteSize.text(1_048_575) == "1.0 MB")
        #expect(ByteSize.text(1 << 20) == "1.0 MB")
        #expect(ByteSize.text(2_516_582) == "2.4 MB")
        #expect(ByteSize.text(400_000_000) == "381.5 MB")
        #expect(ByteSize.text(1_152_000_000) == "1.1 GB")
        #expect(ByteSize.text(3 << 30) == "3.0 GB")
        #expect(ByteSize.text(5 << 40) == "5.0 TB")
        #expect(ByteSize.text(3 << 50) == "3072.0 TB")
    }
}
