import GraphicsReadback
import Testing

/// The readback decoders read other tools' output too (pxbench): hostile
/// input is an error, never a trap or a giant allocation.
@Suite struct ReadbackBoundsTests {
    private func sixel(_ body: String) -> [UInt8] { Array(("\u{1B}P0;1;0q" + body + "\u{1B}\\").utf8) }

    @Test(arguments: [
        "\"1;1;99999999999999999999;1#0;2;0;0;0#0~",  // a number past Int
        "\"1;1;200000;200000#0;2;0;0;0#0~",  // 40 G pixels
        "\"1;1;16384;16384#0;2;0;0;0#0~",  // 268 MP: over the pixel limit
        "\"1;1;4;1#0;2;0;0;0#0!999999999999~",  // a repeat count past nine digits
        "\"1;1;4;1#0;2;0;0;0#0!999999999?~",  // a repeat of empty sixels past the raster
        "\"1;1;4;6#0;2;0;0;0#0!5~",  // five columns in a raster of four
        "\"1;1;4;6#0;2;0;0;0#0~-~",  // a band below the raster
    ])
    func hostileSixelIsRefused(body: String) {
        #expect(throws: SixelDecoder.Failure.self) { _ = try SixelDecoder.decode(sixel(body)) }
    }

    @Test func aGoodSixelStillDecodes() throws {
        let result = try SixelDecoder.decode(sixel("\"1;1;4;6#0;2;100;0;0#0!4~"))
        #expect(result.image.width == 4 && result.image.height == 6)
        #expect(result.image[3, 5].r == 255)
    }

    @Test func hostileKittySizesAreRefused() {
        for size in ["s=99999999999,v=99999999999", "s=20000,v=1", "s=10000,v=10001", "s=0,v=5"] {
            let bytes = Array("\u{1B}_Ga=T,f=32,\(size);AAAA\u{1B}\\".utf8)
            #expect(throws: KittyDecoder.Failure.self, "\(size)") { _ = try KittyDecoder.image(bytes) }
        }
    }
}
