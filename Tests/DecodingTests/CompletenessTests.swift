import Testing

@testable import Decoding

@Suite struct CompletenessTests {
    @Test(arguments: [
        "p01_china_640x427.jpg", "p04_freshflower_1600x1203_progressive.jpg", "p02_coffee_600x400.png",
        "p11_chelsea_interlaced_451x300.png", "v02_china_arithmetic_640x427.jpg",
    ])
    func wholeImagesAreComplete(name: String) throws {
        #expect(isCompleteImage(try Fixtures.image(name)))
    }

    @Test func imagesCutShortAreNot() throws {
        #expect(!isCompleteImage(try Fixtures.bad("truncated_scan.jpg")))
        #expect(!isCompleteImage(try Fixtures.bad("truncated.png")))
        let jpeg = try Fixtures.image("p01_china_640x427.jpg")
        #expect(!isCompleteImage(Array(jpeg.prefix(jpeg.count / 2))))
        let png = try Fixtures.image("p02_coffee_600x400.png")
        #expect(!isCompleteImage(Array(png.prefix(png.count - 1))))
        #expect(!isCompleteImage([]))
        #expect(!isCompleteImage(Array("<html></html>".utf8)))
    }
}
