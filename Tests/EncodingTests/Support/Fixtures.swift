import Foundation
import Pixels

/// Raw RGBA fixtures made by Tests/Fixtures/raw/make.py from the photos in
/// Tests/Fixtures/images (attribution in Tests/Fixtures/raw/SOURCES.md).
enum RawFixture: String, CaseIterable {
    case china = "china_320x213"
    case coffee = "coffee_300x200"
    case chelseaAlpha = "chelsea_alpha_225x150"

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static var directory: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Fixtures/raw")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return url
    }

    var size: (width: Int, height: Int) {
        let dimensions = rawValue.split(separator: "_").last!.split(separator: "x").map { Int($0)! }
        return (dimensions[0], dimensions[1])
    }

    func load() throws -> RGBAImage {
        let url = Self.directory.appendingPathComponent(rawValue + ".rgba")
        let data = try Data(contentsOf: url)
        let (width, height) = size
        guard data.count == width * height * 4 else {
            throw Missing(description: "\(url.path): \(data.count) bytes, expected \(width * height * 4)")
        }
        return RGBAImage(width: width, height: height, pixels: [UInt8](data))
    }
}
