import ControlSequences
import Encoding
import Pixels

/// The bytes of a file manager's preview (`show --once --place`, `pxview
/// clear`): a picture placed in a box of cells in one write that leaves the
/// cursor where it was, and the bytes that take exactly that picture away.
package enum PreviewPlacement {
    /// The kitty image ids previews use, one after another (`kittyImageID(after:)`):
    /// `0xFF` in the high byte and 1...255 in the low one, so Unicode
    /// placeholders can name them too (inside tmux), apart from every id
    /// the grid and viewer use (`KittyBackend`: below `0x8000_0000`;
    /// `KittyPlaceholderBackend`: high bytes 1...254). A preview never
    /// reuses the id on screen: kitty 0.48.2 showed every second of five
    /// previews replacing one another under one id black, where chafa,
    /// which never reuses an id, showed them all.
    package static let kittyImageIDs: ClosedRange<UInt32> = 0xFF00_0001...0xFF00_00FF

    /// The one id previews used before they took turns; `clear` with
    /// nothing remembered deletes it too.
    package static let legacyKittyImageID: UInt32 = 0x7078_7601

    /// The id after `previous`, wrapping within `kittyImageIDs`; with none
    /// known, one at random (a preview drawn under an id deleted earlier
    /// showed black in kitty 0.48.2, and nothing says which were).
    package static func kittyImageID(
        after previous: UInt32?, random: () -> UInt32 = { UInt32.random(in: kittyImageIDs) }
    ) -> UInt32 {
        guard let previous, kittyImageIDs.contains(previous) else { return random() }
        return previous == kittyImageIDs.upperBound ? kittyImageIDs.lowerBound : previous + 1
    }

    package enum Alignment: String, CaseIterable, Sendable {
        case center
        case topLeft = "top-left"
    }

    /// `box` cut to the window; nil when none of it is inside.
    package static func clamped(_ box: CellRect, window: CellCount) -> CellRect? {
        var inside = box
        inside.columns = min(box.columns, window.width - box.column)
        inside.rows = min(box.rows, window.height - box.row)
        return inside.columns > 0 && inside.rows > 0 ? inside : nil
    }

    /// The box a picture may use: `box` within the window, a row shorter
    /// for sixel when it reaches the window's last row (a sixel whose last
    /// pixel row lands on the last text row scrolls the screen); nil when
    /// nothing is left (a sixel box on the last row alone).
    package static func usableBox(_ box: CellRect, window: CellCount, method: DrawingMethod) -> CellRect? {
        guard var usable = clamped(box, window: window) else { return nil }
        if style(method).scrollsOnLastRow, usable.row + usable.rows >= window.height { usable.rows -= 1 }
        return usable.rows > 0 ? usable : nil
    }

    /// The plan a preview in `box` draws with and the box it may use
    /// (`usableBox`): text where the plan's own way cannot draw there (a
    /// sixel box on the window's last row alone; text may use that row);
    /// nil when the box is outside the window.
    package static func fitting(_ box: CellRect, drawing: DrawingPlan) -> (drawing: DrawingPlan, box: CellRect)? {
        let window = drawing.geometry.windowCells
        guard let inside = clamped(box, window: window) else { return nil }
        if let usable = usableBox(box, window: window, method: drawing.method) { return (drawing, usable) }
        let text = drawing.drawingText()
        return (text, usableBox(box, window: window, method: text.method) ?? inside)
    }

    /// One preview of `pixels` (fitted to `box` in `backend`'s units) as
    /// `bytes(of:in:alignment:method:replacing:)` writes it, under the
    /// kitty id after `previous` (`kittyImageID(after:)`), replacing the
    /// kitty preview `onScreen`; with what to send `followUpDelayMs` after.
    package static func shot(
        _ pixels: RGBAImage, backend: any GraphicsBackend, in box: CellRect, alignment: Alignment,
        after previous: UInt32?, replacing onScreen: UInt32?
    ) -> PreviewShot {
        let style = style(backend.method)
        let id = kittyImageID(after: previous)
        let picture = backend.inline(pixels, imageID: id)
        let bytes = bytes(
            of: picture, in: box, alignment: alignment, method: backend.method, replacing: onScreen == id ? nil : onScreen)
        return PreviewShot(
            bytes: bytes, imageID: style.goesByImageID ? id : nil,
            followUp: style.goesByImageID ? style.followUp(picture, id) : [])
    }

    /// One preview: the cursor saved, the box blanked (sixel and text:
    /// what the last preview left there), `picture` (already fitted to
    /// `box`) placed row by row as `alignment` says, then the last kitty
    /// preview (`replacing`, another id) deleted, so the new one is on
    /// screen before the old one goes and the box is never empty; the
    /// cursor restored.
    package static func bytes(
        of picture: InlinePicture, in box: CellRect, alignment: Alignment, method: DrawingMethod,
        replacing previous: UInt32? = nil
    ) -> [UInt8] {
        let left = alignment == .center ? max(0, (box.columns - picture.cells.width) / 2) : 0
        let top = alignment == .center ? max(0, (box.rows - picture.cells.height) / 2) : 0
        var out = TerminalCommand.saveCursor
        // Text in the box's cells (sixel over them, text pictures, kitty's
        // placeholders, which tmux keeps in its grid and scrollback) goes first.
        let style = style(method)
        if style.blanksBox { out += FrameText.erase(box) }
        for (line, row) in zip(picture.lines, picture.lineRows) {
            out += TerminalCommand.moveTo(row: box.row + top + row + 1, column: box.column + left + 1) + line
        }
        if style.goesByImageID, let previous { out += KittyEncoder().delete(imageID: previous) }
        return out + TerminalCommand.restoreCursor
    }

    /// How long a kitty preview waits before `followUp`: kitty 0.48.2 left
    /// two of five previews undrawn until something else came; a nudge
    /// 20 ms later showed all of them (10 of 10), one sent at once did not.
    package static let followUpDelayMs = 50

    /// What `method`'s backend says of its previews.
    static func style(_ method: DrawingMethod) -> PreviewStyle { Backends.type(for: method).previewStyle }

    /// `pxview clear`'s bytes: the preview taken away, the cursor left
    /// where it was. `kittyImageIDs`: the previews to delete, nil when
    /// none is remembered (then every id previews use).
    package static func clearingBytes(_ box: CellRect?, method: DrawingMethod, kittyImageIDs: [UInt32]?) -> [UInt8] {
        let clearing = clearing(box, method: method, kittyImageIDs: kittyImageIDs)
        return clearing.isEmpty ? [] : TerminalCommand.saveCursor + clearing + TerminalCommand.restoreCursor
    }

    /// kitty's previews by their ids (placements and data; all of them by
    /// range, kitty 0.33 and later, when none is known); whatever is text
    /// in the box's cells (sixel, text pictures, kitty's placeholders) by
    /// blanking them (ECH, which takes sixel pixels with it).
    static func clearing(_ box: CellRect?, method: DrawingMethod, kittyImageIDs: [UInt32]?) -> [UInt8] {
        var out: [UInt8] = []
        let style = style(method)
        if style.goesByImageID {
            let encoder = KittyEncoder()
            if let ids = kittyImageIDs {
                out += ids.flatMap { encoder.delete(imageID: $0) }
            } else {
                out += encoder.delete(imageIDs: Self.kittyImageIDs) + encoder.delete(imageID: legacyKittyImageID)
            }
        }
        if style.blanksBox { out += box.map(FrameText.erase) ?? [] }
        return out
    }
}

/// A preview made (`PreviewPlacement.shot`): its bytes, the kitty image id
/// it is under (nil when it lives in the box's cells: sixel, text), and
/// what a kitty preview sends `PreviewPlacement.followUpDelayMs` after it
/// (a nudge, and for placeholders the virtual placement again, which has
/// kitty draw their cells anew).
package struct PreviewShot: Sendable {
    package var bytes: [UInt8]
    package var imageID: UInt32?
    package var followUp: [UInt8]
}
