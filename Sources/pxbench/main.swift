import Decoding
import Encoding
import Rendering
import Foundation
import GraphicsReadback
import Pixels
import Scaling

/// pxbench: times pxview's pipeline on real photos fitted into a box, stage by
/// stage in-process and as whole processes beside chafa and img2sixel, and
/// scores every output's PSNR and banding index (`Banding`) against a
/// Lanczos-3 resize at its own size. `--gradient` adds the synthetic sky
/// (`Banding.gradient`, 1600x1000) to the photos.
///
///     swift run -c release pxbench [--box 800x600] [--runs 5] [--pxview PATH] [--gradient] [FILE|DIR...]

struct BenchOptions {
    var box = PixelSize(width: 800, height: 600)
    var runs = 5
    var pxview: String
    var inputs: [String] = []
    var gradient = false

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
            case "--box":
                let parts = next().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { fail("--box expects WxH") }
                box = PixelSize(width: parts[0], height: parts[1])
            case "--runs":
                guard let n = Int(next()), n > 0 else { fail("--runs expects a positive number") }
                runs = n
            case "--pxview": pxview = next()
            case "--gradient": gradient = true
            case "--help", "-h":
                print("usage: pxbench [--box WxH] [--runs N] [--pxview PATH] [--gradient] [FILE|DIR...]")
                exit(0)
            case let other where other.hasPrefix("-"): fail("unknown option \(other)")
            case let path: inputs.append(path)
            }
            index += 1
        }
        if inputs.isEmpty { inputs = ["Tests/Fixtures/images", "Sources/Pixabay/Catalog/large"] }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pxbench: \(message)\n".utf8))
    exit(2)
}

/// Photos to measure: JPEG and PNG files (by magic bytes) under the inputs,
/// at least 256 px on the long side: smaller files (the decoder's synthetic
/// orientation variants) would measure process start-up, not the pipeline.
func photoFiles(_ inputs: [String]) -> [String] {
    var files: [String] = []
    for input in inputs {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else { continue }
        let candidates = isDirectory.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []).sorted().map { "\(input)/\($0)" }
            : [input]
        for file in candidates {
            guard let handle = FileHandle(forReadingAtPath: file) else { continue }
            let head = [UInt8](handle.readData(ofLength: 8))
            try? handle.close()
            guard sniffImageFormat(head) != nil, let data = FileManager.default.contents(atPath: file),
                let decoded = try? decodeImage([UInt8](data), options: DecodeOptions(targetSize: PixelSize(width: 256, height: 256))),
                max(decoded.fullSize.width, decoded.fullSize.height) >= 256
            else { continue }
            files.append(file)
        }
    }
    return files
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// One tool's result on one photo.
struct Measurement {
    var milliseconds: Double
    var bytes: Int
    var psnr: Double
    var banding: Double
}

/// Decodes a tool's output back to pixels and scores it: PSNR and banding index.
func score(_ output: [UInt8], source: RGBAImage, kitty: Bool) -> (psnr: Double, banding: Double) {
    do {
        // Score the graphics only: cut anything after the last ST (`ESC \`).
        var end = output.count
        while end >= 2, !(output[end - 2] == 0x1B && output[end - 1] == UInt8(ascii: "\\")) { end -= 1 }
        guard end >= 2 else { return (.nan, .nan) }
        let output = Array(output[..<end])
        let image: RGBAImage
        if kitty {
            image = try KittyDecoder.image(output).image
        } else {
            guard let start = output.firstIndex(of: 0x1B) else { return (.nan, .nan) }
            image = try SixelDecoder.decode(Array(output[start...])).image
        }
        let reference = LanczosReference.resize(source, to: image.size)
        return (LanczosReference.psnr(image, reference: reference), Banding.index(image, reference: reference))
    } catch {
        return (.nan, .nan)
    }
}

let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
var files = photoFiles(options.inputs)
if options.gradient {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-gradient-1600x1000.png").path
    guard let png = PNGWriter.encode(Banding.gradient(), level: 6),
        FileManager.default.createFile(atPath: path, contents: Data(png))
    else { fail("cannot write \(path)") }
    files.insert(path, at: 0)
}
guard !files.isEmpty else { fail("no JPEG or PNG files found in \(options.inputs.joined(separator: ", "))") }
guard FileManager.default.isExecutableFile(atPath: options.pxview) else {
    fail("pxview not found at \(options.pxview): build it first (swift build -c release)")
}
let chafa = ProcessTimer.find("chafa")
let img2sixel = ProcessTimer.find("img2sixel")
let box = options.box

print("pxbench: \(files.count) photos into \(box), median of \(options.runs) runs each")
print("tools: pxview \(options.pxview); chafa \(chafa ?? "not installed"); img2sixel \(img2sixel ?? "not installed")")
print("")

// MARK: In-process stages

struct StageTimes { var decode = [Double](), scale = [Double](), quantize = [Double](), map = [Double](), sixel = [Double](), kitty = [Double]() }
var stages = StageTimes()
let renderer = ImageRenderer()
let sixelDisplay = Display(method: .sixel, geometry: DisplayGeometry(windowCells: DisplayGeometry.fallbackCells))
let sixelScreen = sixelDisplay.makeBackend().screen
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else { continue }
    let bytes = [UInt8](data)
    var decodeRuns: [Double] = [], scaleRuns: [Double] = [], quantizeRuns: [Double] = [], mapRuns: [Double] = []
    var sixelRuns: [Double] = [], kittyRuns: [Double] = []
    for _ in 0..<options.runs {
        var decoded: DecodedImage?
        decodeRuns.append(milliseconds {
            decoded = try? renderer.decode(
                bytes, settings: ViewSettings(), box: box, display: sixelDisplay, screen: sixelScreen,
                maxPixels: DecodeOptions().maxPixels)
        })
        guard let decoded else { break }
        // The same stages, with the same settings, as `ImageRenderer.render` for sixel.
        let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewSettings(), box: box, screen: sixelScreen)
        var scaled = RGBAImage(width: 0, height: 0)
        scaleRuns.append(milliseconds {
            scaled = renderer.resampler.resample(
                decoded.image, from: viewport.sourceRect(inImageOf: decoded.image.size), to: viewport.outputSize)
        })
        var palette = Palette(colors: []), isExact = false
        quantizeRuns.append(milliseconds {
            (palette, isExact) = PaletteBuilder(maxColors: sixelDisplay.geometry.colorRegisters).buildReportingExactness(from: scaled)
        })
        var indexed: IndexedImage?
        let mapper = SixelRenderer.stillMapper(palette, isExact: isExact)
        mapRuns.append(milliseconds { indexed = mapper.map(scaled) })
        if let indexed { sixelRuns.append(milliseconds { _ = SixelEncoder().encode(indexed, palette: mapper.palette) }) }
        kittyRuns.append(milliseconds { _ = KittyEncoder().transmitAndPlace(scaled, imageID: 1, placementID: 1, columns: 80, rows: 24) })
    }
    stages.decode.append(median(decodeRuns))
    stages.scale.append(median(scaleRuns))
    stages.quantize.append(median(quantizeRuns))
    stages.map.append(median(mapRuns))
    stages.sixel.append(median(sixelRuns))
    stages.kitty.append(median(kittyRuns))
}
func format(_ value: Double, _ digits: Int = 1) -> String { value.isNaN ? "-" : String(format: "%.\(digits)f", value) }
print("in-process stages (median over photos, ms): decode \(format(median(stages.decode)))"
    + "  scale \(format(median(stages.scale)))  quantize \(format(median(stages.quantize)))"
    + "  map+dither \(format(median(stages.map)))  sixel encode \(format(median(stages.sixel)))"
    + "  kitty encode \(format(median(stages.kitty)))")
print("")

// MARK: Whole processes, side by side

/// The tools compared, each as a command line for one photo.
struct Tool {
    var name: String
    var kitty: Bool
    var command: (String, PixelSize) -> (String, [String])?
}

/// chafa sizes in cells: with its default 8x8-pixel cell and a 1:1 font ratio,
/// WxH cells of 8 px are a WxH pixel box.
var tools: [Tool] = [
    Tool(name: "pxview sixel", kitty: false) { file, _ in
        (options.pxview, ["show", "--protocol", "sixel", "--size", "\(box)", file])
    },
]
if let chafa {
    tools.append(Tool(name: "chafa sixel", kitty: false) { file, _ in
        (chafa, ["-f", "sixels", "-s", "\(box.width / 8)x\(box.height / 8)", "--font-ratio", "1", file])
    })
}
if let img2sixel {
    tools.append(Tool(name: "img2sixel", kitty: false) { file, fitted in
        (img2sixel, ["-w", "\(fitted.width)", "-h", "\(fitted.height)", file])
    })
}
tools.append(Tool(name: "pxview kitty", kitty: true) { file, _ in
    (options.pxview, ["show", "--protocol", "kitty", "--size", "\(box)", file])
})
if let chafa {
    tools.append(Tool(name: "chafa kitty", kitty: true) { file, _ in
        (chafa, ["-f", "kitty", "-s", "\(box.width / 8)x\(box.height / 8)", "--font-ratio", "1", file])
    })
}

var results: [String: [Measurement]] = [:]
var perPhoto: [(String, [String: Measurement])] = []
for file in files {
    guard let data = FileManager.default.contents(atPath: file),
        let full = try? decodeImage([UInt8](data))
    else { continue }
    let fitted = Viewport(imageSize: full.image.size, viewSize: box).outputSize
    var row: [String: Measurement] = [:]
    defer { perPhoto.append((URL(fileURLWithPath: file).lastPathComponent, row)) }
    for tool in tools {
        guard let (program, arguments) = tool.command(file, fitted) else { continue }
        var times: [Double] = []
        var output: [UInt8] = []
        for _ in 0..<options.runs {
            guard let run = try? ProcessTimer.run(program, arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm"]),
                run.exitCode == 0
            else { break }
            times.append(run.milliseconds)
            output = run.output
        }
        guard !times.isEmpty else { continue }
        let quality = score(output, source: full.image, kitty: tool.kitty)
        let measurement = Measurement(
            milliseconds: median(times), bytes: output.count, psnr: quality.psnr, banding: quality.banding)
        results[tool.name, default: []].append(measurement)
        row[tool.name] = measurement
    }
    FileHandle.standardError.write(Data(".".utf8))
}
FileHandle.standardError.write(Data("\n".utf8))

func summary(_ name: String, _ results: [String: [Measurement]]) -> (ms: Double, kb: Double, psnr: Double, banding: Double)? {
    guard let list = results[name], !list.isEmpty else { return nil }
    return (
        median(list.map(\.milliseconds)), median(list.map { Double($0.bytes) / 1000 }),
        median(list.map(\.psnr).filter { !$0.isNaN }), median(list.map(\.banding).filter { !$0.isNaN })
    )
}

print("per photo (ms / KB / dB / banding):")
let header = "photo".padding(toLength: 34, withPad: " ", startingAt: 0)
    + tools.map { $0.name.leftPadded(26) }.joined()
print(header)
for (name, row) in perPhoto {
    var line = String(name.prefix(33)).padding(toLength: 34, withPad: " ", startingAt: 0)
    for tool in tools {
        let cell = row[tool.name].map {
            "\(format($0.milliseconds, 0))/\(format(Double($0.bytes) / 1000, 0))/\(format($0.psnr, 1))/\(format($0.banding, 2))"
        } ?? "-"
        line += cell.leftPadded(26)
    }
    print(line)
}
print("")
print("whole process, median over photos:")
print("tool            time ms    size KB   PSNR dB   banding")
for tool in tools {
    guard let s = summary(tool.name, results) else { continue }
    let name = tool.name.padding(toLength: 14, withPad: " ", startingAt: 0)
    print(
        "\(name)  \(format(s.ms).leftPadded(7))  \(format(s.kb).leftPadded(9))  \(format(s.psnr).leftPadded(8))"
            + "  \(format(s.banding, 2).leftPadded(8))")
}
print("")
func ratio(_ a: String, _ b: String, _ results: [String: [Measurement]]) {
    guard let x = summary(a, results), let y = summary(b, results) else { return }
    print(
        "\(a) / \(b): time \(format(x.ms / y.ms, 2))x, size \(format(x.kb / y.kb, 2))x, PSNR \(format(x.psnr - y.psnr, 1)) dB,"
            + " banding \(format(x.banding, 2)) vs \(format(y.banding, 2))")
}
ratio("pxview sixel", "chafa sixel", results)
ratio("pxview sixel", "img2sixel", results)
ratio("pxview kitty", "chafa kitty", results)

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
