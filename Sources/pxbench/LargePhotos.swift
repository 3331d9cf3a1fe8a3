import CTurboJPEG
import Decoding
import Foundation
import Pixels
import Scaling

/// Camera-sized JPEGs for `--large`: the fixtures and the catalog stop at
/// 16.7 MP, while phones and cameras write 12 to 50 MP. Each is a real photo
/// enlarged (Catmull-Rom, `Resampler`) and written as a camera would (quality
/// 90, 4:2:0), made once and kept in the temporary directory: enlarging and
/// encoding 50 MP takes seconds, more than a bench run should pay each time.
enum LargePhotos {
    /// A 3:2 photo, the shape of most camera sensors, like the sizes below.
    static let source = "Tests/Fixtures/images/p03_storm_1920x1280.jpg"
    /// 12, 24 and 50 MP: the 12 MP one fills the 4–16 MP class, which the
    /// fixtures leave empty.
    static let sizes = [
        PixelSize(width: 4243, height: 2828), PixelSize(width: 6000, height: 4000),
        PixelSize(width: 8660, height: 5773),
    ]
    static let quality: Int32 = 90

    /// The paths of the large photos, making the missing ones.
    static func paths(log: (String) -> Void) throws -> [String] {
        try sizes.map { try make(source: source, size: $0, log: log) }
    }

    /// `source` enlarged to `size`, made once in the temporary directory.
    static func make(source: String, size: PixelSize, log: (String) -> Void) throws -> String {
        let stem = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-\(stem)-\(size)-q\(quality).jpg")
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw LargePhotoError("cannot read \(source)")
        }
        let decoded = try decodeImage([UInt8](data)).image
        log("making \(url.path) (\(size), once)")
        let enlarged = Resampler().resize(decoded, to: size)
        guard let jpeg = JPEGWriter.encode(enlarged, quality: quality) else {
            throw LargePhotoError("cannot encode a \(size) JPEG")
        }
        // createFile writes aside and renames: an interrupted run leaves no
        // cut-off file to be reused.
        guard FileManager.default.createFile(atPath: url.path, contents: Data(jpeg)) else {
            throw LargePhotoError("cannot write \(url.path)")
        }
        return url.path
    }
}

struct LargePhotoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// TurboJPEG's compressor, which the decoder's library already provides.
enum JPEGWriter {
    static func encode(_ image: RGBAImage, quality: Int32) -> [UInt8]? {
        guard let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(jpeg) }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 4), Int32(image.height),
                Int32(TJPF_RGBA.rawValue), &jpeg, &size, Int32(TJSAMP_420.rawValue), quality, 0)
        }
        guard status == 0, let jpeg else { return nil }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }
}
