import ControlSequences
import Encoding
import Pixels

/// The bytes of a file manager's preview (`show --once --place`, `pxview
/// clear`): a picture placed in a box of cells in one write that leaves the
/// cursor where it was, and the bytes that take exactly that picture away.
public enum PreviewPlacement {
    /// The kitty image every preview uses: a fixed id, so `pxview clear`
    /// (another process) deletes pxview's preview and nothing else.
    public static let kittyImageID: UInt32 = 0x7078_7601

    public enum Alignment: String, CaseIterable, Sendable {
        case center
        case topLeft = "top-left"
    }

    /// The box a picture may use: `box` within the window, a row shorter
    /// for sixel when it reaches the window's last row (a sixel whose last
    /// pixel row lands on the last text row scrolls the screen).
    public static func usableBox(_ box: CellRect, window: PixelSize, method: DrawingMethod) -> CellRect? {
        var usable = box
        usable.columns = min(box.columns, window.width - box.column)
        usable.rows = min(box.rows, window.height - box.row)
        if method == .sixel, usable.row + usable.rows >= window.height { usable.rows -= 1 }
        return usable.columns > 0 && usable.rows > 0 ? usable : nil
    }

    /// One preview: the cursor saved, whatever the last preview left in the
    /// box taken away, `picture` (already fitted to `box`) placed row by row
    /// as `alignment` says, the cursor restored.
    public static func bytes(of picture: InlinePicture, in box: CellRect, alignment: Alignment, method: DrawingMethod)
        -> [UInt8]
    {
        let left = alignment == .center ? max(0, (box.columns - picture.cells.width) / 2) : 0
        let top = alignment == .center ? max(0, (box.rows - picture.cells.height) / 2) : 0
        var out = TerminalCommand.saveCursor + clearing(box, method: method)
        for (line, row) in zip(picture.lines, picture.lineRows) {
            out += TerminalCommand.moveTo(row: box.row + top + row + 1, column: box.column + left + 1) + line
        }
        return out + TerminalCommand.restoreCursor
    }

    /// `pxview clear`'s bytes: the preview taken away, the cursor left where it was.
    public static func clearingBytes(_ box: CellRect?, method: DrawingMethod) -> [UInt8] {
        let clearing = clearing(box, method: method)
        return clearing.isEmpty ? [] : TerminalCommand.saveCursor + clearing + TerminalCommand.restoreCursor
    }

    /// kitty's preview by its id (placements and data); the others by
    /// blanking the box's cells (ECH, which takes sixel pixels with it).
    static func clearing(_ box: CellRect?, method: DrawingMethod) -> [UInt8] {
        switch method {
        case .kitty, .kittyPlaceholders:
            return KittyEncoder().delete(imageID: kittyImageID)
        case .sixel, .symbols, .blocks:
            return box.map(FrameText.erase) ?? []
        }
    }
}
