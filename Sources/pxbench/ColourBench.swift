import Foundation
import Pixels

/// `--colour`: what the colour step costs. Issue 28's goal: a 20 MP JPEG
/// with an ICC profile takes at most 1.15x the time of the same photo
/// untagged. Both files are one enlarged photo (`LargePhotos`), the tagged
/// one carrying the Adobe RGB profile of Tests/Fixtures/colour/adobe.jpg
/// in APP2 chunks after SOI; each drawing is run in turns, tagged and not.
enum ColourBench {
    static let size = PixelSize(width: 5472, height: 3648)
    static let source = "Tests/Fixtures/images/p04_freshflower_1600x1203_progressive.jpg"
    static let profileSource = "Tests/Fixtures/colour/adobe.jpg"
    /// The drawings timed: `show --once` with this protocol into this box.
    static let drawings = [("sixel", PixelSize(width: 800, height: 600)), ("kitty", PixelSize(width: 2560, height: 1440))]

    struct Row {
        var drawing: String
        var untagged: Double
        var tagged: Double
    }

    static func measure(runs: Int, pxview: String, notes: inout [String]) -> [Row] {
        let untaggedPath: String
        do {
            untaggedPath = try LargePhotos.make(source: source, size: size, log: log)
        } catch {
            notes.append("colour: \(error)")
            return []
        }
        guard let untagged = FileManager.default.contents(atPath: untaggedPath),
            let adobe = FileManager.default.contents(atPath: profileSource)
        else {
            notes.append("colour: cannot read \(untaggedPath) or \(profileSource)")
            return []
        }
        let segments = profileSegments([UInt8](adobe))
        guard !segments.isEmpty else {
            notes.append("colour: no ICC profile in \(profileSource)")
            return []
        }
        let bytes = [UInt8](untagged)
        let tagged = Array(bytes.prefix(2)) + segments + Array(bytes.dropFirst(2))
        let taggedPath = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-colour-adobe-\(size).jpg").path
        guard FileManager.default.createFile(atPath: taggedPath, contents: Data(tagged)) else {
            notes.append("colour: cannot write \(taggedPath)")
            return []
        }
        var rows: [Row] = []
        let environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
        for (name, box) in drawings {
            var times: [[Double]] = [[], []]
            // One run of each first, unmeasured: the files and the program in the page cache.
            for index in 0...max(runs, 10) {
                for (slot, path) in [untaggedPath, taggedPath].enumerated() {
                    let arguments = ["show", "--once", "--protocol", name, "--size", "\(box)", path]
                    guard let run = try? ProcessTimer.run(pxview, arguments, environment: environment), run.exitCode == 0 else {
                        notes.append("colour: pxview failed on \(path)")
                        return rows
                    }
                    if index > 0 { times[slot].append(run.milliseconds) }
                }
            }
            rows.append(Row(drawing: "\(name) \(box)", untagged: median(times[0]), tagged: median(times[1])))
        }
        return rows
    }

    /// The APP2 `ICC_PROFILE` segments of a JPEG, whole (marker, length and all).
    static func profileSegments(_ jpeg: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard i + 2 + length <= jpeg.count else { break }
            if jpeg[i + 1] == 0xE2, jpeg[(i + 4)...].starts(with: Array("ICC_PROFILE".utf8)) {
                found += jpeg[i..<(i + 2 + length)]
            }
            i += 2 + length
        }
        return found
    }
}
