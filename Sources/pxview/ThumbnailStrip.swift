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
    let screen = InlineDrawing.prepare(view: view)
    guard screen.drawsGraphics else { return }
    let units = screen.backend.screen
    let box = units.unitBox(cells: ThumbnailStrip.tileCells)
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
            previews[index], label: "\(hit.id)", box: box, screen: screen, maxPixels: view.maxPixels,
            imageID: imageIDBase + UInt32(index))
    }
    let columns = TextTable.outputWidth()
    screen.draw(ThumbnailStrip.compose(tiles, terminalColumns: columns))
    screen.finish()
}

/// One tile of a strip or contact sheet: `bytes` decoded straight to the
/// tile's `box` (in the backend's units) and drawn for it; no picture when
/// there are no bytes or they do not decode (the label says so).
func stripTile(
    _ bytes: [UInt8]?, label: String, box: PixelSize, screen: InlineDrawing, maxPixels: Int, imageID: UInt32,
    turn: ImageTurn = ImageTurn()
) -> StripTile {
    let units = screen.backend.screen
    let renderer = ImageRenderer()
    let options = DecodeSize.thumbnail(box: turn.turnedSize(box), screen: units, maxPixels: maxPixels)
    guard let bytes, var decoded = try? screen.drawing.decode(bytes, options: options) else {
        return StripTile(label: label, picture: nil)
    }
    if turn != ImageTurn() {
        decoded = decoded.mapImages { $0.turned(turn) }
        decoded.fullSize = turn.turnedSize(decoded.fullSize)
    }
    let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewSettings(), box: box, screen: units)
    return StripTile(
        label: label, picture: renderer.render(decoded.image, viewport: viewport, backend: screen.backend, imageID: imageID))
}

/// Kitty image ids for this process: distinct from other pxview runs, so a
/// new picture never replaces one still in the scrollback.
enum ImageIDs {
    static func base() -> UInt32 {
        (UInt32(truncatingIfNeeded: getpid()) & 0xFFFFF) << 8 | 1
    }
}
