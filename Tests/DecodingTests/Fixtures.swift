import Foundation
import Pixels
import Testing

@testable import Decoding

/// Test fixtures under Tests/Fixtures, found relative to this source file.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func image(_ name: String) throws -> [UInt8] {
        try bytes(root.appendingPathComponent("images").appendingPathComponent(name))
    }

    /// The codec table's newer formats (Tests/Fixtures/formats/make.py).
    static func format(_ name: String) throws -> [UInt8] {
        try bytes(root.appendingPathComponent("formats").appendingPathComponent(name))
    }

    /// Their own decoders' reads, frame by frame (formats.json).
    static let formatReference: [String: [ReferenceDecode]] = {
        let url = root.appendingPathComponent("formats").appendingPathComponent("formats.json")
        guard let data = try? Data(contentsOf: url),
            let table = try? JSONDecoder().decode([String: [ReferenceDecode]].self, from: data)
        else { return [:] }
        return table
    }()

    static func bad(_ name: String) throws -> [UInt8] {
        try bytes(root.appendingPathComponent("bad").appendingPathComponent(name))
    }

    private static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// PIL's decodes of the fixtures (Tests/Fixtures/reference/make_reference.py).
    static let reference: [String: ReferenceDecode] = {
        let url = root.appendingPathComponent("reference").appendingPathComponent("reference.json")
        guard let data = try? Data(contentsOf: url),
            let table = try? JSONDecoder().decode([String: ReferenceDecode].self, from: data)
        else { return [:] }
        return table
    }()
}

/// One reference.json entry: a compact fingerprint of PIL's decode.
struct ReferenceDecode: Decodable, Sendable {
    var width: Int
    var height: Int
    /// Mean R, G, B, A over all pixels.
    var mean: [Double]
    /// [x, y, r, g, b, a] on an 8x8 grid.
    var samples: [[Int]]
    /// FNV-1a 64 of the whole RGBA buffer, lower-case hex.
    var fnv1a64: String
}

/// FNV-1a 64-bit hash in lower-case hex, the same as make_reference.py's.
func fnv1a64(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    bytes.withUnsafeBufferPointer { buffer in
        for byte in buffer {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// Mean of each of R, G, B, A.
func channelMeans(_ image: RGBAImage) -> [Double] {
    var sums = [Int](repeating: 0, count: 4)
    image.pixels.withUnsafeBufferPointer { p in
        var i = 0
        while i < p.count {
            sums[0] += Int(p[i])
            sums[1] += Int(p[i + 1])
            sums[2] += Int(p[i + 2])
            sums[3] += Int(p[i + 3])
            i += 4
        }
    }
    let count = Double(max(1, image.width * image.height))
    return sums.map { Double($0) / count }
}

/// Mean absolute difference per byte between two same-sized images.
func meanAbsoluteDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    guard a.size == b.size else { return .infinity }
    var total = 0
    a.pixels.withUnsafeBufferPointer { pa in
        b.pixels.withUnsafeBufferPointer { pb in
            for i in 0..<pa.count { total += abs(Int(pa[i]) - Int(pb[i])) }
        }
    }
    return Double(total) / Double(max(1, a.pixels.count))
}

/// Checks `image` against PIL's decode: same size, and either identical
/// bytes (`exact`) or means within `meanTolerance` and every grid sample
/// within `sampleTolerance` per channel (JPEG decoders may round differently).
func expectMatchesReference(
    _ image: RGBAImage, _ key: String, exact: Bool,
    meanTolerance: Double = 1.0, sampleTolerance: Int = 4,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let reference = try #require(Fixtures.reference[key], "no reference entry for \(key)", sourceLocation: sourceLocation)
    try expectMatchesReference(
        image, reference, key, exact: exact, meanTolerance: meanTolerance, sampleTolerance: sampleTolerance,
        sourceLocation: sourceLocation)
}

/// The same against a reference decode given directly.
func expectMatchesReference(
    _ image: RGBAImage, _ reference: ReferenceDecode, _ key: String, exact: Bool,
    meanTolerance: Double = 1.0, sampleTolerance: Int = 4,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(
        image.width == reference.width && image.height == reference.height,
        "\(key): \(image.size) vs PIL \(reference.width)x\(reference.height)", sourceLocation: sourceLocation)
    guard image.width == reference.width, image.height == reference.height else { return }
    if exact {
        #expect(fnv1a64(image.pixels) == reference.fnv1a64, "\(key): pixels differ from PIL", sourceLocation: sourceLocation)
    }
    let means = channelMeans(image)
    for channel in 0..<4 {
        #expect(
            abs(means[channel] - reference.mean[channel]) <= meanTolerance,
            "\(key) channel \(channel) mean \(means[channel]) vs PIL \(reference.mean[channel])",
            sourceLocation: sourceLocation)
    }
    var worst = 0
    for sample in reference.samples {
        let pixel = image[sample[0], sample[1]]
        let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b), Int(pixel.a)]
        for channel in 0..<4 { worst = max(worst, abs(got[channel] - sample[2 + channel])) }
    }
    #expect(worst <= sampleTolerance, "\(key): a sampled pixel is \(worst) levels off PIL", sourceLocation: sourceLocation)
}
