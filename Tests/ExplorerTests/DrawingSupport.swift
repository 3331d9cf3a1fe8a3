import Pixels
import Rendering

/// A drawing plan with `method` on `cells` of `cell` px, as the probe would make it.
func testDrawing(
    _ method: DrawingMethod, cells: CellCount, cell: PixelSize, traits: TerminalTraits = TerminalTraits(),
    background: RGBA? = nil
) -> DrawingPlan {
    DrawingPlan(
        method: method, geometry: TerminalGeometry(windowCells: cells, cellPixels: cell, background: background),
        traits: traits)
}

extension BackendGeometry {
    /// The window in `method`'s units, as its backend sees it.
    init(graphics method: DrawingMethod, windowCells: CellCount, cellPixels: PixelSize) {
        self = testDrawing(method, cells: windowCells, cell: cellPixels).makeBackend().screen
    }
}
