import Decoding
import Encoding
import Foundation
import GraphicsReadback
import Pixels
import Rendering
import Scaling

/// pxview's stages, in-process, with the same settings as
/// `ImageRenderer.render` for sixel: one list per stage, a median per photo.
struct StageTimes {
    var decode = [Double](), scale = [Double](), quantize = [Double](), map = [Double](), sixel = [Double](), kitty = [Double]()
    /// Text pictures (`symbols`), per window of cells in `textWindows`: the
    /// resample to 8x8 samples per cell and the encode (wall and CPU time),
    /// and the encode with sextants.
    var textScale = [[Double]](repeating: [], count: textWindows.count)
    var textEncode = [[Double]](repeating: [], count: textWindows.count)
    var textEncodeCPU = [[Double]](repeating: [], count: textWindows.count)
    var sextantEncode = [[Double]](repeating: [], count: textWindows.count)
}

/// The windows a text picture is timed in: `show`'s 96x36 cells and a full
/// 200x60 window, each covered by the photo (every cell drawn).
let textWindows = [CellCount(width: 96, height: 36), CellCount(width: 200, height: 60)]
/// xterm's cell with DejaVu Sans Mono 11, where text pictures are seen.
let textCell = PixelSize(width: 9, height: 19)

let renderer = ImageRenderer()
let sixelDisplay = DrawingPlan(method: .sixel, geometry: TerminalGeometry(windowCells: TerminalGeometry.fallbackCells))
let sixelScreen = sixelDisplay.makeBackend().screen

func measureStages(_ bytes: [UInt8], box: PixelSize, runs: Int, into stages: inout StageTimes) {
    var decodeRuns: [Double] = []
    var scaleRuns: [Double] = []
    var quantizeRuns: [Double] = []
    var mapRuns: [Double] = []
    var sixelRuns: [Double] = []
    var kittyRuns: [Double] = []
    for _ in 0..<runs {
        var decoded: DecodedImage?
        decodeRuns.append(
            milliseconds {
                decoded = try? renderer.decode(
                    bytes, settings: ViewFraming(), box: box, drawing: sixelDisplay, screen: sixelScreen,
                    maxPixels: DecodeOptions().maxPixels)
            })
        guard let decoded else { break }
        let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewFraming(), box: box, screen: sixelScreen)
        var scaled = RGBAImage(width: 0, height: 0)
        scaleRuns.append(
            milliseconds {
                scaled = renderer.resampler.resample(
                    decoded.image, from: viewport.sourceRect(inImageOf: decoded.image.size), to: viewport.outputSize)
            })
        var palette = Palette(colors: [])
        var isExact = false
        quantizeRuns.append(
            milliseconds {
                (palette, isExact) = PaletteBuilder(maxColors: sixelDisplay.geometry.colorRegisters).buildReportingExactness(
                    from: scaled)
            })
        var indexed: IndexedImage?
        let mapper = SixelRenderer.stillMapper(palette, isExact: isExact)
        mapRuns.append(milliseconds { indexed = mapper.map(scaled) })
        if let indexed { sixelRuns.append(milliseconds { _ = SixelEncoder().encode(indexed, palette: mapper.palette) }) }
        kittyRuns.append(
            milliseconds { _ = KittyEncoder().transmitAndPlace(scaled, imageID: 1, placementID: 1, columns: 80, rows: 24) })
        for (index, cells) in textWindows.enumerated() {
            let screen = BackendGeometry(windowCells: cells, cellPixels: textCell, unitsPerCell: PixelSize(width: 8, height: 8))
            let view = screen.unitBox(cells: cells)
            let textViewport = Viewport(imageSize: screen.unitImageSize(decoded.fullSize), viewSize: view, fit: .cover)
            var samples = RGBAImage(width: 0, height: 0)
            stages.textScale[index].append(
                milliseconds {
                    samples = renderer.resampler.resample(
                        decoded.image, from: textViewport.sourceRect(inImageOf: decoded.image.size), to: textViewport.outputSize)
                })
            stages.textEncode[index].append(
                milliseconds { _ = TextPictureEncoder(repertoire: .blocks).encode(samples, columns: cells.width) })
            stages.textEncodeCPU[index].append(
                cpuMilliseconds { _ = TextPictureEncoder(repertoire: .blocks).encode(samples, columns: cells.width) })
            stages.sextantEncode[index].append(
                milliseconds { _ = TextPictureEncoder(repertoire: .sextants).encode(samples, columns: cells.width) })
        }
    }
    stages.decode.append(median(decodeRuns))
    stages.scale.append(median(scaleRuns))
    stages.quantize.append(median(quantizeRuns))
    stages.map.append(median(mapRuns))
    stages.sixel.append(median(sixelRuns))
    stages.kitty.append(median(kittyRuns))
}
