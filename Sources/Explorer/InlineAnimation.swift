import ControlSequences
import Foundation
import Pixels
import Plumbing
import Rendering
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// `show --once --animate`: an animation played in place at the cursor,
/// through the same clock as the viewer (`AnimationState`), until its
/// passes end or a key is pressed.
///
/// Its rows are made first (so the terminal never scrolls under it), the
/// cursor saved at its top-left, and every frame drawn there again after
/// restoring it: sixel and text pictures draw each frame whole, kitty
/// replaces the image under the same id and placement. It ends with the
/// cursor on the line below the picture, as a drawing of a still does.
package struct InlineAnimation {
    /// The picture of frame `index`, fitted (in the backend's units).
    package var pixels: (_ index: Int) -> RGBAImage
    package var clock: AnimationState
    package var backend: any GraphicsBackend
    package var imageID: UInt32
    /// The rows the picture covers (known once the first frame is drawn).
    package private(set) var rows = 0

    /// `delays`: each frame's playback delay (ms); `plays`: passes in all, 0 for ever.
    package init(
        delays: [Int], plays: Int, backend: any GraphicsBackend, imageID: UInt32, pixels: @escaping (_ index: Int) -> RGBAImage
    ) {
        clock = AnimationState(delays: delays, plays: plays)
        self.pixels = pixels
        self.backend = backend
        self.imageID = imageID
    }

    /// The bytes that draw frame `index`: the first also makes the rows and saves the cursor.
    package mutating func bytes(frame index: Int, first: Bool) -> [UInt8] {
        let picture = backend.inline(pixels(index), imageID: imageID)
        let body = InlinePicture(lines: picture.lines, lineRows: picture.lineRows, cells: picture.cells, cursorAfter: []).bytes
        guard !first else {
            rows = picture.cells.height
            return InlinePicture.reserving(rows: rows) + TerminalCommand.saveCursor + body
        }
        return TerminalCommand.restoreCursor + body
    }

    /// The cursor to the line below the picture.
    package var ending: [UInt8] {
        TerminalCommand.restoreCursor + Array("\r".utf8) + [UInt8](repeating: UInt8(ascii: "\n"), count: rows)
    }

    /// Why playing stopped.
    package enum End: Equatable, Sendable {
        /// Every pass was played.
        case played
        /// A key came on `keys`.
        case key
        /// Ctrl-C came on `keys` (raw mode makes it a byte, not SIGINT).
        case interrupted
    }

    /// Plays to the end, or until a byte arrives on `keys` (a terminal in
    /// raw mode; nil: no keys, the passes alone end it). `draw` writes.
    package mutating func play(keys: Int32?, now: () -> Int = MonotonicClock.milliseconds, draw: ([UInt8]) -> Void) -> End {
        var shown = 0
        draw(bytes(frame: 0, first: true))
        clock.advance(to: now())
        while let wake = clock.wakeTime(now: now()) {
            let wait = max(0, wake - now())
            if let keys {
                var fd = pollfd(fd: keys, events: Int16(POLLIN), revents: 0)
                if poll(&fd, 1, Int32(clamping: wait)) > 0 {
                    var byte: UInt8 = 0
                    _ = withUnsafeMutableBytes(of: &byte) { Descriptor.read(keys, into: $0) }
                    draw(ending)
                    return byte == 0x03 ? .interrupted : .key
                }
            } else if wait > 0 {
                usleep(UInt32(clamping: wait * 1000))
            }
            if clock.advance(to: now()), clock.frame != shown {
                shown = clock.frame
                draw(bytes(frame: shown, first: false))
            }
        }
        draw(ending)
        return .played
    }
}
