import Decoding
import Explorer
import Foundation
import Pixabay
import Pixels
import Rendering

/// Draws the page's previews side by side above the results table, each
/// labelled with its id. Previews download in parallel; one that fails to
/// arrive or decode leaves its tile empty with a note, never the whole strip.
func drawThumbnailStrip(page: SearchPage, source: any PixabaySource, parsed: ParsedArguments) async throws {
    let view = try ViewOptions(parsed)
    let output = InlineDrawing.prepare(view: view)
    guard output.drawsGraphics else { return }
    let screen = output.backend.screen
    let box = screen.unitBox(cells: ThumbnailStrip.tileCells)
    let hits = page.hits
    let previews: [[UInt8]?] = await withTaskGroup(of: (Int, [UInt8]?).self) { group in
        for (index, hit) in hits.enumerated() {
            group.addTask { (index, try? await source.imageBytes(for: hit, size: .preview)) }
        }
        var bytes = [[UInt8]?](repeating: nil, count: hits.count)
        for await (index, data) in group { bytes[index] = data }
        return bytes
    }
    let imageIDBase = ImageIDs.base()
    let tiles = hits.enumerated().map { index, hit in
        stripTile(
            previews[index], label: "\(hit.id)", box: box, output: output, maxPixels: view.maxPixels,
            imageID: imageIDBase + UInt32(index))
    }
    let columns = TextTable.outputWidth()
    output.draw(ThumbnailStrip.compose(tiles, terminalColumns: columns))
    output.finish()
}

/// One tile of a strip or contact sheet: `bytes` decoded straight to the
/// tile's `box` (in the backend's units) and drawn for it; no picture when
/// there are no bytes or they do not decode (the label says so).
func stripTile(
    _ bytes: [UInt8]?, label: String, box: PixelSize, output: InlineDrawing, maxPixels: Int, imageID: UInt32,
    turn: ImageTurn = ImageTurn()
) -> StripTile {
    let screen = output.backend.screen
    let renderer = ImageRenderer()
    let options = DecodeSize.thumbnail(box: turn.turnedSize(box), screen: screen, maxPixels: maxPixels)
    guard let bytes, var decoded = try? output.drawing.decode(bytes, options: options) else {
        return StripTile(label: label, picture: nil)
    }
    if turn != ImageTurn() {
        decoded = decoded.mapImages { $0.turned(turn) }
        decoded.fullSize = turn.turnedSize(decoded.fullSize)
    }
    let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewFraming(), box: box, screen: screen)
    return StripTile(
        label: label, picture: renderer.render(decoded.image, viewport: viewport, backend: output.backend, imageID: imageID))
}

/// Kitty image ids for this process: distinct from other pxview runs, so a
/// new picture never replaces one still in the scrollback.
enum ImageIDs {
    static func base() -> UInt32 {
        (UInt32(truncatingIfNeeded: getpid()) & 0xFFFFF) << 8 | 1
    }
}
