import Decoding
import Encoding
import Foundation
import GraphicsReadback
import Pixels
import Rendering
import Scaling

struct BenchOptions {
    /// A laptop's small window and a full 1440p screen: encoders scale with
    /// the output, decoders with the photo, so both ends are measured.
    static let defaultBoxes = [PixelSize(width: 800, height: 600), PixelSize(width: 2560, height: 1440)]
    static let usage = """
        usage: pxbench [--box WxH]... [--boxes WxH,WxH...] [--runs N] [--pxview PATH] [--large|--no-large]
                       [--gradient] [--per-photo] [--markdown] [--stages] [--reference DIR]
                       [--preview] [--preview-only] [--preview-photo FILE] [--colour] [--colour-only] [--tools NAME,NAME] [FILE|DIR...]
        """

    var boxes: [PixelSize] = []
    var runs = 5
    var pxview: String
    var inputs: [String] = []
    var gradient = false
    var large = false
    var perPhoto = false
    var markdown = false
    var stagesOnly = false
    var referenceDirectory: String?
    var preview = false
    var previewOnly = false
    /// `--colour-only`: the colour step's cost alone.
    var colourOnly = false
    /// Only an extra measurement (`--preview-only`, `--colour-only`): no photos.
    var extrasOnly: Bool { previewOnly || colourOnly }
    var previewPhoto = "Tests/Fixtures/images/p03_storm_1920x1280.jpg"
    /// Only these tools (`--tools "pxview kitty,chafa kitty"`); nil: all.
    var toolNames: Set<String>?
    /// `--colour`: the colour step's cost (`ColourBench`).
    var colour = false

    init(_ arguments: [String]) {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        pxview = here + "/pxview"
        var index = 0
        func next() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--box": boxes.append(Self.box(next()))
            case "--boxes": boxes += next().split(separator: ",").map { Self.box(String($0)) }
            case "--runs":
                guard let n = Int(next()), n > 0 else { fail("--runs expects a positive number") }
                runs = n
            case "--pxview": pxview = next()
            case "--gradient": gradient = true
            case "--large": large = true
            case "--no-large": large = false
            case "--per-photo": perPhoto = true
            case "--markdown": markdown = true
            case "--stages": stagesOnly = true
            case "--reference": referenceDirectory = next()
            case "--preview": preview = true
            case "--preview-only": (preview, previewOnly) = (true, true)
            case "--preview-photo": previewPhoto = next()
            case "--tools": toolNames = Set(next().split(separator: ",").map { String($0) })
            case "--colour": colour = true
            case "--colour-only": (colour, colourOnly) = (true, true)
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            case let other where other.hasPrefix("-"): fail("unknown option \(other)")
            case let path: inputs.append(path)
            }
            index += 1
        }
        if inputs.isEmpty { inputs = ["Tests/Fixtures/images", "Sources/Pixabay/Catalog/large"] }
        boxes =
            boxes.isEmpty
            ? Self.defaultBoxes : boxes.enumerated().filter { !boxes[..<$0.offset].contains($0.element) }.map(\.element)
    }

    static func box(_ text: String) -> PixelSize {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { fail("--box expects WxH, like 800x600 (got '\(text)')") }
        return PixelSize(width: parts[0], height: parts[1])
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pxbench: \(message)\n".utf8))
    exit(2)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("pxbench: \(message)\n".utf8))
}

/// A photo to measure and its full size (display orientation).
struct Photo {
    var path: String
    var size: PixelSize
    var name: String { URL(fileURLWithPath: path).lastPathComponent }
    var megapixels: Double { Double(size.area) / 1e6 }
}

/// Photos to measure: images of any format pxview reads (by magic bytes) under the inputs,
/// at least 256 px on the long side: smaller files (the decoder's synthetic
/// orientation variants) would measure process start-up, not the pipeline.
func photos(_ inputs: [String]) -> [Photo] {
    var photos: [Photo] = []
    for input in inputs {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else { continue }
        let candidates =
            isDirectory.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []).sorted().map { "\(input)/\($0)" }
            : [input]
        for file in candidates {
            // Folders inside (a --reference folder beside the photos) are not photos.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
                let handle = FileHandle(forReadingAtPath: file)
            else { continue }
            let head = [UInt8](handle.readData(ofLength: 64))
            try? handle.close()
            guard sniffImageFormat(head) != nil, let data = FileManager.default.contents(atPath: file),
                let decoded = try? decodeImage(
                    [UInt8](data), options: DecodeOptions(targetSize: PixelSize(width: 256, height: 256))),
                max(decoded.fullSize.width, decoded.fullSize.height) >= 256
            else { continue }
            photos.append(Photo(path: file, size: decoded.fullSize))
        }
    }
    return photos
}

/// Photos by megapixels: decoding and resampling grow with the photo while
/// encoding grows with the box, so one median over all photos would hide
/// how a tool copes with a camera's 24 MP.
struct SizeClass {
    var name: String
    var megapixels: Range<Double>
    static let all = [
        SizeClass(name: "<1 MP", megapixels: 0..<1), SizeClass(name: "1-4 MP", megapixels: 1..<4),
        SizeClass(name: "4-16 MP", megapixels: 4..<16), SizeClass(name: ">=16 MP", megapixels: 16..<Double.infinity),
    ]
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// The CPU time `body` took on all of this process's threads, in ms: the
/// work done, which other builds on a shared machine disturb less than the
/// wall time.
func cpuMilliseconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
    let start = now()
    body()
    return now() - start
}

/// One tool's result on one photo in one box: medians of the runs, the last
/// run's output scored, and the peak RSS of one more run under GNU time.
struct Measurement {
    var milliseconds: Double
    var cpuMilliseconds: Double
    var bytes: Int
    var peakRSSMB: Double
    var psnr: Double
    var banding: Double
}

/// A tool's output read back to pixels: the graphics only, from the first
/// escape to the last ST (`ESC \`), so a cursor hidden before or a newline
/// after does not count against it.
func readBack(_ output: [UInt8], kitty: Bool) -> RGBAImage? {
    var end = output.count
    while end >= 2, !(output[end - 2] == 0x1B && output[end - 1] == UInt8(ascii: "\\")) { end -= 1 }
    let introducer = kitty ? UInt8(ascii: "_") : UInt8(ascii: "P")
    guard end >= 2,
        let start = output[..<end].indices.dropLast().first(where: { output[$0] == 0x1B && output[$0 + 1] == introducer })
    else { return nil }
    let graphics = Array(output[start..<end])
    return kitty ? try? KittyDecoder.image(graphics).image : try? SixelDecoder.decode(graphics).image
}
