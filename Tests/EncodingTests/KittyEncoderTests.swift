import Encoding
import Foundation
import GraphicsReadback
import Pixels
import Testing

@Suite struct KittyEncoderTests {
    private let encoder = KittyEncoder()

    /// The colour type in the IHDR of the PNG a one-command transmission carries.
    private func pngColourType(_ bytes: [UInt8]) throws -> UInt8 {
        let commands = try KittyDecoder.commands(bytes)
        #expect(commands.count == 1)
        let png = try #require(Data(base64Encoded: Data(commands[0].payload)).map { [UInt8]($0) })
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return png[25]
    }

    @Test func opaquePixelsGoAsAnRGBPNGAndTransparentOnesAsRGBA() throws {
        let opaque = TestImages.image([[RGBA(r: 10, g: 20, b: 30)]])
        #expect(try pngColourType(encoder.transmit(opaque, imageID: 7)) == 2)
        let transparent = TestImages.image([[RGBA(r: 10, g: 20, b: 30, a: 40)]])
        #expect(try pngColourType(encoder.transmit(transparent, imageID: 1)) == 6)
        #expect(try KittyDecoder.image(encoder.transmit(transparent, imageID: 1)).image == transparent)
    }

    @Test func transmitIsPNG() throws {
        let image = TestImages.noise(width: 30, height: 20)
        let commands = try KittyDecoder.commands(encoder.transmit(image, imageID: 7))
        #expect(commands[0].keyOrder == ["a", "f", "i", "q"])
        #expect(commands[0].keys["f"] == "100")
        #expect(try KittyDecoder.image(encoder.transmit(image, imageID: 7)).image == image)
    }

    @Test func noisyImageIsChunkedWithinTheLimit() throws {
        let image = TestImages.noise(width: 100, height: 100)
        let bytes = encoder.transmit(image, imageID: 42)
        let commands = try KittyDecoder.commands(bytes)
        #expect(commands.count > 1)
        for (n, command) in commands.enumerated() {
            #expect(command.payload.count <= 4096)
            #expect(command.payload.count % 4 == 0 || n == commands.count - 1)
            #expect(command.keys["q"] == "2")
            #expect(command.keys["m"] == (n == commands.count - 1 ? "0" : "1"))
            if n > 0 { #expect(Set(command.keys.keys) == ["q", "m"]) }
        }
        #expect(commands[0].keys["i"] == "42")
        #expect(commands[0].keys["a"] == "t")
        #expect(try KittyDecoder.image(bytes).image == image)
    }

    @Test(arguments: RawFixture.allCases)
    func photosRoundTripExactly(fixture: RawFixture) throws {
        let source = try fixture.load()
        let bytes = encoder.transmit(source, imageID: 3)
        let (decoded, commands) = try KittyDecoder.image(bytes)
        #expect(decoded == source)
        #expect(commands.allSatisfy { $0.payload.count <= KittyEncoder.maxChunkSize })
        #expect(commands[0].keys["f"] == "100")
    }

    @Test func placeWritesPlacementKeys() {
        #expect(
            TestImages.string(encoder.place(imageID: 5, placementID: 2, columns: 40, rows: 12))
                == "\u{1B}_Ga=p,i=5,p=2,c=40,r=12,C=1,q=2\u{1B}\\")
        let cropped = encoder.place(
            imageID: 5, placementID: 2, columns: 40, rows: 12,
            crop: PixelRect(x: 10, y: 20, width: 300, height: 200), zIndex: -1)
        #expect(
            TestImages.string(cropped)
                == "\u{1B}_Ga=p,i=5,p=2,c=40,r=12,x=10,y=20,w=300,h=200,z=-1,C=1,q=2\u{1B}\\")
        #expect(
            TestImages.string(encoder.place(imageID: 5, placementID: 0, columns: 0, rows: -3))
                == "\u{1B}_Ga=p,i=5,C=1,q=2\u{1B}\\")
    }

    @Test func transmitAndPlaceCarriesBoth() throws {
        let image = TestImages.noise(width: 60, height: 40)
        let bytes = encoder.transmitAndPlace(image, imageID: 9, placementID: 1, columns: 6, rows: 2)
        let (decoded, commands) = try KittyDecoder.image(bytes)
        #expect(decoded == image)
        #expect(commands[0].keyOrder == ["a", "f", "i", "p", "c", "r", "C", "q", "m"])
        #expect(commands[0].keys["a"] == "T")
        #expect(commands[0].keys["c"] == "6")
    }

    @Test func deleteCommandsAreExact() {
        #expect(TestImages.string(encoder.delete(imageID: 12)) == "\u{1B}_Ga=d,d=I,i=12,q=2\u{1B}\\")
        #expect(TestImages.string(encoder.deletePlacements(imageID: 12)) == "\u{1B}_Ga=d,d=i,i=12,q=2\u{1B}\\")
        #expect(TestImages.string(encoder.deletePlacements(atColumn: 7, row: 3)) == "\u{1B}_Ga=d,d=p,x=7,y=3,q=2\u{1B}\\")
        #expect(
            TestImages.string(encoder.place(imageID: 2, placementID: 1, columns: 3, rows: 2, offset: PixelPoint(x: 4, y: 0)))
                == "\u{1B}_Ga=p,i=2,p=1,c=3,r=2,X=4,Y=0,C=1,q=2\u{1B}\\")
    }

    @Test func emptyImageSendsNothing() {
        #expect(encoder.transmit(RGBAImage(width: 0, height: 3), imageID: 1).isEmpty)
    }

    @Test func smallerChunksStillDecode() throws {
        let image = TestImages.noise(width: 20, height: 20, opaque: false)
        let bytes = KittyEncoder(chunkSize: 102).transmit(image, imageID: 1)
        let commands = try KittyDecoder.commands(bytes)
        // 102 rounds down to 100 (a whole number of base64 quads).
        #expect(commands.dropLast().allSatisfy { $0.payload.count == 100 })
        #expect(try KittyDecoder.image(bytes).image == image)
    }
}
