import Explorer
import Foundation
import Pixabay
import Rendering
import Pixels

/// Draws the page's previews side by side above the results table, each
/// labelled with its id. Previews download in parallel; one that fails to
/// arrive or decode leaves its tile empty with a note, never the whole strip.
func drawThumbnailStrip(page: SearchPage, source: any PhotoSource, parsed: ParsedArguments) async throws {
    let view = try ViewOptions(parsed, command: "search")
    let screen = Screen.prepare(view: view)
    guard screen.drawsGraphics else { return }
    let cell = screen.target.cellSize
    var target = screen.target
    target.box = PixelSize(
        width: ThumbnailStrip.tileCells.width * cell.width, height: ThumbnailStrip.tileCells.height * cell.height)
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
    var tiles: [StripTile] = []
    for (index, hit) in hits.enumerated() {
        var rendered: RenderedImage?
        if let bytes = previews[index],
            let decoded = try? renderer.decode(bytes, settings: ViewSettings(), target: target, maxPixels: view.maxPixels)
        {
            let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewSettings(), target: target)
            rendered = renderer.render(decoded.image, viewport: viewport, target: target, imageID: imageIDBase + UInt32(index))
        }
        tiles.append(StripTile(label: "\(hit.id)", image: rendered))
    }
    let columns = TextTable.outputWidth()
    Output.write(ThumbnailStrip.compose(tiles, graphics: target.graphics, terminalColumns: columns))
}

/// Kitty image ids for this process: distinct from other pxview runs, so a
/// new picture never replaces one still in the scrollback.
enum ImageIDs {
    static func base() -> UInt32 {
        (UInt32(truncatingIfNeeded: getpid()) & 0xFFFFF) << 8 | 1
    }
}
