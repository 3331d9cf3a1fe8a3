import Pixels
import Rendering
import Terminal

/// A picture placed in a box of cells beside a program's text (`place`),
/// the way pxview's previews are: what to write, and what takes it away.
public struct PlacedPicture: Sendable {
    /// The bytes to write (`TerminalDisplay.write`): the cursor saved, the
    /// box blanked where the picture lives in the text (sixel, text), the
    /// picture, the one it replaces deleted once it is up (kitty), the
    /// cursor put back.
    public let bytes: [UInt8]
    /// What to write `delayMs` after `bytes` so the terminal shows the
    /// picture (kitty 0.48.2 left two of five previews undrawn until more
    /// came); nil when nothing is needed.
    public let followUp: (delayMs: Int, bytes: [UInt8])?
    /// The kitty image id the picture is under: never the one before it
    /// (kitty 0.48.2 showed a picture under an id deleted just before
    /// black); nil for sixel and text, which live in the box's cells.
    public let imageID: UInt32?
    /// The cells the picture may cover (zero-based), from this column: the
    /// box cut to the window, a row shorter for sixel on the window's last
    /// row (where it would scroll the screen).
    public let column: Int
    /// … from this row.
    public let row: Int
    /// … this many columns wide.
    public let columns: Int
    /// … this many rows high.
    public let rows: Int
    /// The way it was drawn: text where the display's protocol cannot draw
    /// in the box (a sixel box on the last row alone).
    public let pictureProtocol: PictureProtocol
    package let method: DrawingMethod

    var box: CellRect { CellRect(column: column, row: row, columns: columns, rows: rows) }
}

/// Why bytes did not reach the terminal.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    /// One line.
    public var description: String
}

extension TerminalDisplay {
    /// `picture` placed in the box of `columns` x `rows` cells whose
    /// top-left cell is `column`, `row` (zero-based), centred, the cursor
    /// put back where it was: a preview beside a program's text.
    /// `replacing`: the picture placed before (in any box), taken away as
    /// this one goes up. Nil when the box is outside the window.
    public func place(
        _ picture: Picture, column: Int, row: Int, columns: Int, rows: Int, framing: Framing = Framing(),
        replacing previous: PlacedPicture? = nil
    ) -> PlacedPicture? {
        // The part of the box inside the window (a box left of or above it
        // is cut, not moved).
        let left = max(0, column)
        let top = max(0, row)
        let asked = CellRect(
            column: left, row: top, columns: max(0, column + columns - left), rows: max(0, row + rows - top))
        guard asked.columns > 0, asked.rows > 0, let (plan, box) = PreviewPlacement.fitting(asked, drawing: drawing)
        else { return nil }
        let backend = plan.makeBackend()
        let unitBox = backend.screen.unitBox(cells: CellCount(width: box.columns, height: box.rows))
        let shot = PreviewPlacement.shot(
            pixels(picture, backend: backend, box: unitBox, framing: framing), backend: backend, in: box,
            alignment: .center, after: previous?.imageID, replacing: previous?.imageID)
        // What the picture before it left in the cells of another box goes
        // first (sixel, text, kitty's placeholders); a kitty image goes by
        // its id once this one is up (`replacing`).
        var bytes = shot.bytes
        if let previous, previous.box != box {
            bytes = PreviewPlacement.clearingBytes(previous.box, method: previous.method, kittyImageIDs: []) + bytes
        }
        return PlacedPicture(
            bytes: framed(bytes),
            followUp: shot.followUp.isEmpty ? nil : (PreviewPlacement.followUpDelayMs, framed(shot.followUp)),
            imageID: shot.imageID, column: box.column, row: box.row, columns: box.columns, rows: box.rows,
            pictureProtocol: PictureProtocol(plan.choice), method: plan.method)
    }

    /// The bytes that take `placed` away and nothing else: the kitty
    /// picture by its id, else its cells blanked (sixel, text).
    public func remove(_ placed: PlacedPicture) -> [UInt8] {
        framed(removal(placed))
    }

    private func removal(_ placed: PlacedPicture) -> [UInt8] {
        PreviewPlacement.clearingBytes(
            PreviewPlacement.clamped(placed.box, window: drawing.geometry.windowCells), method: placed.method,
            kittyImageIDs: placed.imageID.map { [$0] } ?? [])
    }
}
