import Foundation
import GraphicsReadback
import Pixels
import Testing

@testable import Encoding

/// The PNG kitty gets through the pty: made in pieces that are each a run
/// of whole commands, and read back exactly, strictly (every CRC, the
/// Adler-32, the stream's end).
@Suite struct KittyPNGTests {
    /// The PNG the commands carry, each command's payload decoded on its own as kitty does.
    private func png(_ commands: [KittyDecoder.Command]) throws -> [UInt8] {
        try commands.flatMap { command in
            try #require(Data(base64Encoded: Data(command.payload)).map { [UInt8]($0) })
        }
    }

    /// Smooth rows (a gradient) with a hard edge: runs of equal bytes and jumps.
    private func smooth(width: Int, height: Int, opaque: Bool = true) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let edge = x > width / 2 ? 90 : 0
                image[x, y] = RGBA(
                    r: UInt8(truncatingIfNeeded: x + edge), g: UInt8(truncatingIfNeeded: y * 3), b: 200,
                    a: opaque ? 255 : UInt8(truncatingIfNeeded: x * 7))
            }
        }
        return image
    }

    @Test(
        arguments: [1, 2, 3, 4],
        [
            (width: 1, height: 9, noise: true, opaque: true), (width: 97, height: 61, noise: true, opaque: false),
            (width: 130, height: 70, noise: false, opaque: true), (width: 33, height: 40, noise: false, opaque: false),
        ])
    func piecesRoundTripExactlyAtEveryChunkSize(
        parts: Int, picture: (width: Int, height: Int, noise: Bool, opaque: Bool)
    ) throws {
        let image =
            picture.noise
            ? TestImages.noise(width: picture.width, height: picture.height, opaque: picture.opaque)
            : smooth(width: picture.width, height: picture.height, opaque: picture.opaque)
        for chunkBytes in [3, 6, 96, 3072] {
            let bytes = try #require(
                PNGWriter.commands(image, firstKeys: "a=t,f=100,i=5,q=2", chunkBytes: chunkBytes, parts: parts))
            let commands = try KittyDecoder.commands(bytes)
            for (n, command) in commands.enumerated() {
                let last = n == commands.count - 1
                #expect(command.payload.count <= chunkBytes / 3 * 4)
                // Whole quads, unpadded, everywhere but at the very end: pieces join seamlessly.
                #expect(last || (command.payload.count % 4 == 0 && !command.payload.contains(UInt8(ascii: "="))))
                if n > 0 { #expect(command.keyOrder == ["q", "m"]) }
                if commands.count > 1 { #expect(command.keys["m"] == (last ? "0" : "1")) }
            }
            #expect(commands[0].keyOrder.prefix(4) == ["a", "f", "i", "q"])
            let structure = try PNGStructure(png(commands))
            #expect(structure.chunkTypes.first == "IHDR" && structure.chunkTypes.last == "IEND")
            // One IDAT per piece, and with several pieces the Adler-32's own.
            let pieces = min(parts, image.height)
            #expect(structure.chunkTypes.filter { $0 == "IDAT" }.count == (pieces == 1 ? 1 : pieces + 1))
            #expect(structure.colourType == (picture.opaque ? 2 : 6))
            let decoded = try KittyDecoder.image(bytes).image
            #expect(decoded == image, "\(parts) parts, \(chunkBytes)-byte chunks")
        }
    }

    /// Streamed from rows made on demand, the same bytes arrive as the
    /// buffered commands of the whole image, the first piece's in several
    /// parts when it is large (a 64 KB part at a time).
    @Test(arguments: [1, 2, 3])
    func streamingGivesTheBufferedBytes(parts: Int) throws {
        let image = TestImages.noise(width: 300, height: 250, opaque: false)
        for chunkBytes in [96, 3072] {
            let buffered = try #require(
                PNGWriter.commands(image, firstKeys: "a=T,f=100,i=2,C=1,q=2", chunkBytes: chunkBytes, parts: parts))
            var streamed: [UInt8] = []
            var calls = 0
            let ok = PNGWriter.write(
                PixelRows(image), firstKeys: "a=T,f=100,i=2,C=1,q=2", chunkBytes: chunkBytes, parts: parts
            ) {
                streamed += $0
                calls += 1
                return true
            }
            #expect(ok)
            #expect(streamed == buffered)
            #expect(calls >= 3)
            #expect(try KittyDecoder.image(streamed).image == image)
        }
    }

    /// A sink that stops ends the transmission short, with an empty last
    /// command, so the terminal waits for nothing more.
    @Test func aStoppedStreamEndsItsTransmission() throws {
        let image = TestImages.noise(width: 300, height: 250)
        var streamed: [UInt8] = []
        let ok = PNGWriter.write(PixelRows(image), firstKeys: "a=t,f=100,i=2,q=2", chunkBytes: 3072, parts: 2) {
            streamed += $0
            return streamed.count < 100_000
        }
        #expect(!ok)
        let commands = try KittyDecoder.commands(streamed)
        #expect(commands.last?.keys == ["q": "2", "m": "0"] && commands.last?.payload == [])
        #expect(commands.dropLast().allSatisfy { $0.keys["m"] == "1" })
    }

    /// Every row Sub-filtered (type 1): the residuals the Huffman code is built for.
    @Test func rowsAreSubFiltered() throws {
        let image = smooth(width: 40, height: 12)
        let bytes = try #require(PNGWriter.commands(image, firstKeys: "a=t,f=100,i=1,q=2", chunkBytes: 3072, parts: 2))
        let structure = try PNGStructure(png(KittyDecoder.commands(bytes)))
        let rowBytes = 1 + 40 * 3
        #expect((0..<12).allSatisfy { structure.scanlines[$0 * rowBytes] == 1 })
        // Pixel 1 of row 0: its bytes minus pixel 0's.
        #expect(Array(structure.scanlines[4..<7]) == [1, 0, 0])
    }

    /// The exact bytes for a small picture: the PNG layout, the Huffman
    /// code and its header, the padding and the base64 are fixed.
    @Test func smallPictureGoldenBytes() throws {
        let image = TestImages.image([
            [TestImages.red, TestImages.green, TestImages.blue],
            [TestImages.blue, RGBA(r: 9, g: 9, b: 9), TestImages.red],
        ])
        let bytes = KittyEncoder().transmit(image, imageID: 7)
        #expect(
            TestImages.string(bytes)
                == "\u{1B}_Ga=t,f=100,i=7,q=2;"
                + "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAH0lEQVR4AQTBMQEAAAjDsO4E/1rZWZIIEWLAmb32BwA6bAcB5Y2uOQAAAABJRU5ErkJggg=="
                + "\u{1B}\\")
        #expect(try KittyDecoder.image(bytes).image == image)
    }

    /// One row past 64 KB (16 400 RGBA pixels): a block of one row, stored
    /// in two pieces of at most 65 535 bytes when noise would not shrink.
    @Test func wideNoiseRowsFallBackToStoredBlocks() throws {
        let image = TestImages.noise(width: 16_400, height: 3, opaque: false)
        let bytes = try #require(PNGWriter.commands(image, firstKeys: "a=t,f=100,i=1,q=2", chunkBytes: 3072, parts: 2))
        let structure = try PNGStructure(png(KittyDecoder.commands(bytes)))
        #expect(structure.width == 16_400)
        #expect(try KittyDecoder.image(bytes).image == image)
    }

    /// A PNG file (pxbench's test pictures) from the same encoder.
    @Test func pngFileRoundTrips() throws {
        let image = smooth(width: 300, height: 420, opaque: false)
        let file = try #require(PNGWriter.encode(image))
        #expect(try PNGStructure(file).chunkTypes.first == "IHDR")
        #expect(try KittyDecoder.image(KittyEncoder().transmit(image, imageID: 1)).image == image)
        #expect(try decodeWithLibPNG(file) == image)
    }

    private func decodeWithLibPNG(_ file: [UInt8]) throws -> RGBAImage {
        var commands: [UInt8] = Array("\u{1B}_Ga=t,f=100,q=2;".utf8)
        commands += Array(Data(file).base64EncodedData())
        commands += Array("\u{1B}\\".utf8)
        return try KittyDecoder.image(commands).image
    }
}
