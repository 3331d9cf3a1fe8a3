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
    let renderer = ImageRenderer()
    let imageIDBase = ImageIDs.base()
    let options = DecodeSize.thumbnail(box: box, screen: units, maxPixels: view.maxPixels)
    var tiles: [StripTile] = []
    for (index, hit) in hits.enumerated() {
        var picture: InlinePicture?
        if let bytes = previews[index], let decoded = try? screen.drawing.decode(bytes, options: options) {
            let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewSettings(), box: box, screen: units)
            picture = renderer.render(
                decoded.image, viewport: viewport, backend: screen.backend, imageID: imageIDBase + UInt32(index))
        }
        tiles.append(StripTile(label: "\(hit.id)", picture: picture))
    }
    let columns = TextTable.outputWidth()
    screen.draw(ThumbnailStrip.compose(tiles, terminalColumns: columns))
}

/// Kitty image ids for this process: distinct from other pxview runs, so a
/// new picture never replaces one still in the scrollback.
enum ImageIDs {
    static func base() -> UInt32 {
        (UInt32(truncatingIfNeeded: getpid()) & 0xFFFFF) << 8 | 1
    }
}
