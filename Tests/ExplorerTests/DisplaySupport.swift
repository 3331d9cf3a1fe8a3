import Pixels
import Rendering

/// A display drawing with `method` on `cells` of `cell` px, as the probe would make it.
func testDisplay(
    _ method: DrawingMethod, cells: PixelSize, cell: PixelSize, traits: TerminalTraits = TerminalTraits(),
    background: RGBA? = nil
) -> Display {
    Display(
        method: method, geometry: DisplayGeometry(windowCells: cells, cellPixels: cell, background: background),
        traits: traits)
}

extension ScreenGeometry {
    /// The window in `method`'s units, as its backend sees it.
    init(graphics method: DrawingMethod, windowCells: PixelSize, cellPixels: PixelSize) {
        self = testDisplay(method, cells: windowCells, cell: cellPixels).makeBackend().screen
    }
}
