import Decoding
import Encoding
import Foundation
import GraphicsReadback
import Pixels
import Rendering
import Scaling

/// pxbench: times pxview's pipeline on real photos fitted into one or more
/// boxes, stage by stage in-process and as whole processes beside chafa,
/// img2sixel and timg, and scores every output's PSNR and banding index
/// (`Banding`) against a Lanczos-3 resize at its own size. Each process's
/// wall time, CPU time (all threads) and peak RSS (one more run, under GNU
/// time) are kept, and medians are given over all photos and per size
/// class (megapixels). `--large` adds
/// 12, 24 and 50 MP photos (`LargePhotos`); `--gradient` the synthetic sky
/// (`Banding.gradient`, 1600x1000).
///
///     swift run -c release pxbench [--box WxH]... [--boxes WxH,WxH] [--runs 5] [--pxview PATH]
///         [--large] [--gradient] [--per-photo] [--markdown] [--stages] [--reference DIR]
///         [--preview] [--preview-only] [--preview-photo FILE] [--tools NAME,NAME] [FILE|DIR...]
///
/// `--preview`: a file manager's preview as well: one photo (default the
/// 1920x1280 storm JPEG) into a 50x30-cell pane of a 120x40-cell terminal of
/// 9x18 px cells, each tool writing to a pseudo-terminal as it would inside
/// lf or fzf (`pxview show --once --place`, `chafa --size 50x30`).
/// `--preview-only` measures that alone.
///
/// `--colour`: the colour step's cost (`ColourBench`); `--colour-only` alone.
///
/// `--reference DIR`: a photo NAME.ext is scored against DIR/NAME.ext.png
/// when there is one (the format's own decoder's output: dwebp, avifdec,
/// heif-convert, djxl) instead of against pxview's own decode of it.

// MARK: Set-up

let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
var inputs = options.inputs
if options.large && !options.extrasOnly {
    do {
        inputs += try LargePhotos.paths(log: log)
    } catch {
        fail("--large: \(error)")
    }
}
var allPhotos = options.extrasOnly ? [] : photos(inputs)
if options.gradient && !options.extrasOnly {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-gradient-1600x1000.png").path
    let sky = Banding.gradient()
    guard let png = PNGWriter.encode(sky), FileManager.default.createFile(atPath: path, contents: Data(png))
    else { fail("cannot write \(path)") }
    allPhotos.insert(Photo(path: path, size: sky.size), at: 0)
}
guard !allPhotos.isEmpty || options.extrasOnly else { fail("no images found in \(inputs.joined(separator: ", "))") }
guard FileManager.default.isExecutableFile(atPath: options.pxview) else {
    fail("pxview not found at \(options.pxview): build it first (swift build -c release)")
}
let environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
let chafa = ProcessTimer.find("chafa")
let img2sixel = ProcessTimer.find("img2sixel")
let timg = ProcessTimer.find("timg")

/// The tools compared, each as a command line for one photo.
struct Tool {
    var name: String
    var kitty: Bool
    /// The program and its arguments for a file, the box, and the size
    /// pxview fits the photo to (for tools that take no box).
    var command: (_ file: String, _ box: PixelSize, _ fitted: PixelSize) -> (String, [String])
}

/// timg asks the terminal for its cell size; on a pipe it assumes 9x18-pixel
/// cells (and then always sends PNG), so the box is given in those cells.
let timgCell = PixelSize(width: 9, height: 18)
func timgCells(_ box: PixelSize) -> PixelSize {
    PixelSize(width: max(1, box.width / timgCell.width), height: max(1, box.height / timgCell.height))
}

var notes: [String] = []
var tools: [Tool] = [
    Tool(name: "pxview sixel", kitty: false) { file, box, _ in
        (options.pxview, ["show", "--protocol", "sixel", "--size", "\(box)", file])
    }
]
/// chafa sizes in cells: with its default 8x8-pixel cell and a 1:1 font
/// ratio, WxH cells of 8 px are a WxH pixel box.
func chafaTool(_ name: String, format: String, chafa: String) -> Tool {
    Tool(name: name, kitty: format == "kitty") { file, box, _ in
        (chafa, ["-f", format, "-s", "\(box.width / 8)x\(box.height / 8)", "--font-ratio", "1", file])
    }
}
/// -U: timg does not enlarge a photo smaller than the box unless asked,
/// while the others fill the box.
func timgTool(_ name: String, pixelation: String, timg: String) -> Tool {
    Tool(name: name, kitty: pixelation == "k") { file, box, _ in
        (timg, ["-p\(pixelation)", "-U", "-g\(timgCells(box))", file])
    }
}
if let chafa { tools.append(chafaTool("chafa sixel", format: "sixels", chafa: chafa)) }
if let img2sixel {
    tools.append(
        Tool(name: "img2sixel", kitty: false) { file, _, fitted in
            (img2sixel, ["-w", "\(fitted.width)", "-h", "\(fitted.height)", file])
        })
}
if let timg {
    let help =
        (try? ProcessTimer.run(timg, ["--help"], environment: environment, standardError: true)).map {
            String(decoding: $0.output, as: UTF8.self)
        } ?? ""
    if help.lowercased().contains("sixel") {
        tools.append(timgTool("timg sixel", pixelation: "s", timg: timg))
    } else {
        notes.append("timg sixel: left out, this timg has no sixel output (its --help names none)")
    }
    let boxes = options.boxes.map { box in
        let cells = timgCells(box)
        return "-g\(cells) for \(box) (\(cells.width * timgCell.width)x\(cells.height * timgCell.height) px)"
    }
    notes.append("timg: on a pipe it assumes \(timgCell)-pixel cells and sends PNG: " + boxes.joined(separator: ", "))
} else {
    notes.append("timg: not installed (apt: timg)")
}
tools.append(
    Tool(name: "pxview kitty", kitty: true) { file, box, _ in
        (options.pxview, ["show", "--protocol", "kitty", "--size", "\(box)", file])
    })
if let chafa { tools.append(chafaTool("chafa kitty", format: "kitty", chafa: chafa)) }
if let timg { tools.append(timgTool("timg kitty", pixelation: "k", timg: timg)) }
if let names = options.toolNames {
    let unknown = names.subtracting(tools.map(\.name))
    guard unknown.isEmpty else {
        fail("--tools: no tool named \(unknown.sorted().joined(separator: ", ")) (or it is not installed)")
    }
    tools = tools.filter { names.contains($0.name) }
}
// `--stages`: pxview's in-process stages alone, for working on one of them
// (after --tools, which it makes moot).
if options.stagesOnly { tools = [] }

/// `--preview`: a file manager's preview, measured before the photos so a
/// `--preview-only` run stops after it.
var previewRows: [PreviewBench.Row] = []
if options.preview {
    log("preview: \(options.previewPhoto) into a \(PreviewBench.pane)-cell pane")
    previewRows = PreviewBench.measure(
        photo: options.previewPhoto, runs: options.runs, pxview: options.pxview, chafa: chafa, notes: &notes)
}
var colourRows: [ColourBench.Row] = []
if options.colour && !options.previewOnly {
    log("colour: a \(ColourBench.size) JPEG with and without an Adobe RGB profile")
    colourRows = ColourBench.measure(runs: options.runs, pxview: options.pxview, notes: &notes)
}
if ProcessTimer.gnuTime == nil { notes.append("peak RSS: left out, it needs GNU time (apt: time)") }
if chafa == nil { notes.append("chafa: not installed (apt: chafa)") }
if img2sixel == nil { notes.append("img2sixel: not installed (apt: libsixel-bin)") }

func version(_ program: String?, _ flag: String) -> String {
    guard let program else { return "not installed" }
    return "\(program) (\(ProcessTimer.firstLine(program, [flag], environment: environment) ?? "version unknown"))"
}

// MARK: Measuring

/// Everything measured in one box.
struct BoxResults {
    var box: PixelSize
    var stages = StageTimes()
    var rows: [(photo: Photo, measurements: [String: Measurement])] = []
    /// Per tool, the photos it gave no result or no readable picture for.
    var problems: [String: [String]] = [:]
}

var results = options.extrasOnly ? [] : options.boxes.map { BoxResults(box: $0) }
for (number, photo) in allPhotos.enumerated() {
    log("[\(number + 1)/\(allPhotos.count)] \(photo.name) \(photo.size) (\(String(format: "%.1f", photo.megapixels)) MP)")
    // The yardstick: the format's own decoder's PNG when given (`--reference`), else pxview's decode.
    let referencePath = options.referenceDirectory.map { "\($0)/\(photo.name).png" }
    let referenceData = referencePath.flatMap { FileManager.default.contents(atPath: $0) }
    guard let data = FileManager.default.contents(atPath: photo.path),
        let full = try? decodeImage([UInt8](referenceData ?? data))
    else {
        log("cannot decode \(photo.path): left out")
        continue
    }
    if referenceData != nil { log("  scored against \(referencePath ?? "")") }
    let bytes = [UInt8](data)
    let sourceRGB = LanczosReference.flattenedRGB(full.image)
    /// One reference per output size, shared by the tools and boxes that draw at it.
    var references: [PixelSize: [Float]] = [:]
    for index in results.indices {
        let box = results[index].box
        measureStages(bytes, box: box, runs: options.runs, into: &results[index].stages)
        let fitted = Viewport(imageSize: full.image.size, viewSize: box).outputSize
        var row: [String: Measurement] = [:]
        for tool in tools {
            let (program, arguments) = tool.command(photo.path, box, fitted)
            // First, the run for peak RSS: it also brings the file into the page cache.
            let peakRSSKB = ProcessTimer.peakRSSKB(program, arguments, environment: environment)
            var runs: [ProcessRun] = []
            var failure: String?
            for _ in 0..<options.runs {
                do {
                    let run = try ProcessTimer.run(program, arguments, environment: environment)
                    guard run.exitCode == 0 else {
                        failure = "exit \(run.exitCode)"
                        break
                    }
                    runs.append(run)
                } catch {
                    failure = "\(error)"
                    break
                }
            }
            guard let last = runs.last, failure == nil else {
                results[index].problems[tool.name, default: []].append("\(photo.name) (\(failure ?? "no run"))")
                continue
            }
            var psnr = Double.nan
            var banding = Double.nan
            if let image = readBack(last.output, kitty: tool.kitty) {
                let reference =
                    references[image.size]
                    ?? LanczosReference.resize(sourceRGB, sourceSize: full.image.size, to: image.size)
                references[image.size] = reference
                psnr = LanczosReference.psnr(image, reference: reference)
                banding = Banding.index(image, reference: reference)
            } else {
                results[index].problems[tool.name, default: []].append("\(photo.name) (output not readable)")
            }
            row[tool.name] = Measurement(
                milliseconds: median(runs.map(\.milliseconds)), cpuMilliseconds: median(runs.map(\.cpuMilliseconds)),
                bytes: last.output.count, peakRSSMB: peakRSSKB.map { Double($0) / 1024 } ?? .nan,
                psnr: psnr, banding: banding)
        }
        results[index].rows.append((photo, row))
    }
}

// MARK: Report

func heading(_ text: String) {
    print(options.markdown ? "### \(text)" : "== \(text) ==")
    print("")
}

func printTable(_ title: String, _ table: Table) {
    print(title)
    print("")
    print(table.render(markdown: options.markdown))
    print("")
}

/// Compared pairs: pxview against each other tool drawing the same protocol.
let comparisons = [
    ("pxview sixel", "chafa sixel"), ("pxview sixel", "img2sixel"), ("pxview sixel", "timg sixel"),
    ("pxview kitty", "chafa kitty"), ("pxview kitty", "timg kitty"),
].filter { pair in tools.contains { $0.name == pair.0 } && tools.contains { $0.name == pair.1 } }

func ratio(_ a: Double, _ b: Double) -> String { (a / b).isFinite ? format(a / b, 2) + "x" : "-" }

if !options.extrasOnly {
    print(
        "pxbench: \(allPhotos.count) photos (\(format(allPhotos.map(\.megapixels).min() ?? .nan))"
            + " to \(format(allPhotos.map(\.megapixels).max() ?? .nan)) MP) into \(options.boxes.map(\.description).joined(separator: " and "))"
            + ", median of \(options.runs) runs each")
}
print("pxview: \(version(options.pxview, "--version"))")
print("chafa: \(version(chafa, "--version"))")
print("img2sixel: \(version(img2sixel, "-V"))")
print("timg: \(version(timg, "--version"))")
for note in notes { print("note: \(note)") }
print("")

let classes: [(SizeClass, Set<String>)] = SizeClass.all.compactMap { sizeClass in
    let paths = Set(allPhotos.filter { sizeClass.megapixels.contains($0.megapixels) }.map(\.path))
    return paths.isEmpty ? nil : (sizeClass, paths)
}
if !options.extrasOnly {
    print("size classes: " + classes.map { "\($0.0.name) \($0.1.count)" }.joined(separator: ", "))
    print("")
}

for box in results {
    heading("\(box.box) box, \(box.rows.count) photo\(box.rows.count == 1 ? "" : "s")")
    let s = box.stages
    print(
        "pxview in-process stages (median over photos, ms): decode \(format(median(s.decode)))"
            + ", scale \(format(median(s.scale))), quantize \(format(median(s.quantize)))"
            + ", map+dither \(format(median(s.map))), sixel encode \(format(median(s.sixel)))"
            + ", kitty encode \(format(median(s.kitty)))")
    print(
        "pxview text pictures (symbols, 8x8 samples per \(textCell.width)x\(textCell.height)-px cell, the photo covering the window, ms): "
            + textWindows.indices.map { index in
                "\(textWindows[index].width)x\(textWindows[index].height) cells: scale \(format(median(s.textScale[index])))"
                    + ", encode \(format(median(s.textEncode[index]))) (CPU \(format(median(s.textEncodeCPU[index]))))"
                    + " (with sextants \(format(median(s.sextantEncode[index]))))"
            }.joined(separator: "; "))
    print("")
    for tool in tools {
        guard let list = box.problems[tool.name] else { continue }
        print("\(tool.name): no score for \(list.count): \(list.joined(separator: ", "))")
        print("")
    }

    if options.perPhoto {
        var table = Table(
            ["photo", "tool", "MP", "time ms", "CPU ms", "KB", "peak RSS MB", "PSNR dB", "banding"], nameColumns: 2)
        for (photo, row) in box.rows {
            for tool in tools {
                guard let m = row[tool.name] else { continue }
                table.append([photo.name, tool.name, format(photo.megapixels)] + measurementCells(m))
            }
        }
        printTable("per photo (each the median of its runs):", table)
    }

    func measurements(_ tool: String, in paths: Set<String>? = nil) -> [Measurement] {
        box.rows.filter { paths?.contains($0.photo.path) ?? true }.compactMap { $0.measurements[tool] }
    }

    var overall = Table(["tool"] + Summary.headers)
    for tool in tools {
        guard let summary = Summary(measurements(tool.name)) else { continue }
        overall.append([tool.name] + summary.cells)
    }
    printTable("whole process, median over photos:", overall)

    var byClass = Table(["size", "tool"] + Summary.headers, nameColumns: 2)
    for (sizeClass, paths) in classes {
        for tool in tools {
            guard let summary = Summary(measurements(tool.name, in: paths)) else { continue }
            byClass.append([sizeClass.name, tool.name] + summary.cells)
        }
    }
    printTable("by photo size, median over each class's photos:", byClass)

    var ratios = Table(
        ["pxview / other", "size", "photos", "time", "CPU", "bytes", "peak RSS", "PSNR", "banding"], nameColumns: 2)
    for (a, b) in comparisons {
        for (name, paths) in [("all", nil)] + classes.map({ ($0.0.name, Optional($0.1)) }) {
            // Only the photos both tools drew, so a failure on one side does not tilt the ratio.
            let both = box.rows.filter {
                (paths?.contains($0.photo.path) ?? true) && $0.measurements[a] != nil && $0.measurements[b] != nil
            }
            guard let x = Summary(both.compactMap { $0.measurements[a] }), let y = Summary(both.compactMap { $0.measurements[b] })
            else { continue }
            let psnr = x.psnr - y.psnr
            ratios.append([
                "\(a) / \(b)", name, "\(both.count)", ratio(x.milliseconds, y.milliseconds),
                ratio(x.cpuMilliseconds, y.cpuMilliseconds), ratio(x.kilobytes, y.kilobytes), ratio(x.peakRSSMB, y.peakRSSMB),
                (psnr >= 0 ? "+" : "") + format(psnr) + " dB", "\(format(x.banding, 2)) vs \(format(y.banding, 2))",
            ])
        }
    }
    printTable("ratios of the medians over the photos both drew (PSNR: difference; banding: lower is better):", ratios)
}

if options.preview {
    heading(
        "a file manager's preview: \(PreviewBench.pane) cells of \(PreviewBench.cellPixels.width)x\(PreviewBench.cellPixels.height) px"
    )
    var table = Table(["tool", "time ms", "CPU ms", "KB"])
    for row in previewRows {
        table.append([row.tool, format(row.milliseconds), format(row.cpuMilliseconds), format(Double(row.bytes) / 1000, 0)])
    }
    printTable(
        "\(URL(fileURLWithPath: options.previewPhoto).lastPathComponent), a fresh process per run writing to a"
            + " pseudo-terminal (pxview: show --once --place; goal: well under 100 ms), median of \(options.runs):",
        table)
}

if !colourRows.isEmpty {
    heading("the colour step: a \(ColourBench.size) JPEG tagged Adobe RGB against the same photo untagged")
    var table = Table(["drawing", "untagged ms", "tagged ms", "tagged / untagged"])
    for row in colourRows {
        table.append([row.drawing, format(row.untagged), format(row.tagged), ratio(row.tagged, row.untagged)])
    }
    printTable(
        "pxview show --once, runs in turns, median of \(max(options.runs, 10)) (goal: at most 1.15x):", table)
}
