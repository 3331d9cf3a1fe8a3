import Testing

@testable import Pixabay

@Suite struct ImageFileTypeTests {
    @Test func sniffingImages() {
        #expect(ImageFileType(sniffing: [0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(ImageFileType(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFileType(sniffing: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(ImageFileType(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(ImageFileType.jpeg.fileExtension == "jpg")
        #expect(ImageFileType.describeNonImage(Array("  <html><body>".utf8)) == "an HTML page")
        #expect(ImageFileType.describeNonImage(Array(#"{"error": 1}"#.utf8)) == "JSON")
        #expect(ImageFileType.describeNonImage(Array("Forbidden\n".utf8)) == "text")
        #expect(ImageFileType.describeNonImage([0, 1, 2, 200]) == "unrecognised data")
        #expect(ImageFileType.describeNonImage([]) == "an empty body")
    }
}
