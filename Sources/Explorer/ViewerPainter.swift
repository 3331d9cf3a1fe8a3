import ControlSequences
import Photos
import Pixels
import Rendering
import Scaling
import Terminal

/// What a viewer frame shows, as a pure function of the state: where the
/// picture goes and which part of the image it shows, and the text rows.
package struct ViewerPlan: Equatable, Sendable {
    /// The viewport to draw (nil while the help hides the picture).
    package var viewport: Viewport?
    /// Help lines over the picture area, with their 0-based rows.
    package var overlay: [(row: Int, text: String)]
    package var status: String
    /// The info line, when it has a row of its own (`ViewerLayout.infoRow`).
    package var info: String?
    /// The picture is drawn the settled way (`ViewerState.drawsSettled`).
    package var settled: Bool
    /// A Pixabay photo's `#ID` links to its page and its photographer's
    /// name to their profile (OSC 8), on the status and info rows.
    package var links: [TextLink]

    package static func == (lhs: ViewerPlan, rhs: ViewerPlan) -> Bool {
        lhs.viewport == rhs.viewport && lhs.status == rhs.status && lhs.info == rhs.info && lhs.settled == rhs.settled
            && lhs.links == rhs.links
            && lhs.overlay.map(\.row) == rhs.overlay.map(\.row) && lhs.overlay.map(\.text) == rhs.overlay.map(\.text)
    }

    /// `glyphs`: the status line is composed as it will be drawn (ASCII in a C locale).
    package init(_ state: ViewerState, glyphs: Glyphs = .unicode) {
        let layout = state.layout
        status = Self.statusText(state, glyphs: glyphs)
        links = state.links
        if layout.infoRow != nil {
            // Padded to the width: inverse across the row, as the status line.
            info = StatusLine.compose(
                left: Self.infoText(state), right: "", width: layout.screen.windowCells.width, glyphs: glyphs)
        }
        settled = state.drawsSettled
        if state.showHelp {
            viewport = nil
            var lines = ["viewer keys (any key closes this help)", ""] + ViewerState.helpLines
            if let notice = state.notice {
                lines += [""] + notice.helpLines(width: max(20, layout.screen.windowCells.width - 4))
            }
            let top = layout.imageArea.row + max(0, (layout.imageArea.rows - lines.count) / 2)
            overlay = lines.enumerated().compactMap { index, line in
                let row = top + index
                return row < layout.imageArea.row + layout.imageArea.rows ? (row, "  " + line) : nil
            }
        } else {
            viewport = state.viewport
            overlay = []
        }
    }

    /// The bottom line. Left: the last message (it has priority), else the
    /// title (the file's basename, or `#ID`) and, with `i`, the info; cut
    /// with an ellipsis. Right, always: the zoom (100% is the fitted view)
    /// and the `? keys · q quit` hint.
    static func statusText(_ state: ViewerState, glyphs: Glyphs = .unicode) -> String {
        var left = titleText(state)
        if state.showInfo, state.layout.infoRow == nil { left += "  " + infoText(state) }
        if let message = state.message, !message.isEmpty { left = message }
        return StatusLine.compose(
            left: left, right: rightText(state), width: state.layout.screen.windowCells.width, glyphs: glyphs)
    }

    /// The title, the favourite's star and why pictures are text.
    static func titleText(_ state: ViewerState) -> String {
        var left = state.title + (state.isMarked ? " ✓" : "") + (state.isFavourite ? " ★" : "")
        if let notice = state.notice { left += " · \(notice.status) (? for why)" }
        return left
    }

    /// The photo's place among those `n` steps through ("2/12"), the zoom
    /// (100% is the fitted view), an animation's frame, the keys.
    /// `widest`: as wide as they can get on this photo (its largest zoom,
    /// `stopped` on the last frame).
    static func rightText(_ state: ViewerState, widest: Bool = false) -> String {
        let zoom = Int(((widest ? state.viewport.maxZoom : state.viewport.effectiveZoom) * 100).rounded())
        var right = "\(zoom)% · ? keys · \(state.openedDirectly ? "q quit" : "q back")"
        if let animation = state.animation {
            let word = widest || animation.isFinished ? "stopped" : animation.isPaused ? "paused" : "frame"
            let frame = widest ? animation.delays.count : animation.frame + 1
            right = "\(word) \(frame)/\(animation.delays.count) · " + right
        }
        if let interval = state.slideshowMs { right = "slideshow \(ViewerState.seconds(interval)) · " + right }
        if let position = state.position { right = position + " · " + right }
        return right
    }

    /// `i`'s line: the full size, the fit and the part in view, in
    /// full-image pixels (the viewport may count half-block units), and the
    /// colour space converted from, and what the camera wrote;
    /// `widest`: with the largest numbers the view can have.
    static func infoText(_ state: ViewerState, widest: Bool = false) -> String {
        let size = state.fullSize
        let source = state.viewport.sourceRect(inImageOf: size)
        let visible =
            widest
            ? "\(size.width),\(size.height) \(size)"
            : "\(Int(source.x)),\(Int(source.y)) \(Int(source.width.rounded()))x\(Int(source.height.rounded()))"
        let fit = widest ? ViewerState.fitName(.actual) : ViewerState.fitName(state.viewport.fit)
        let author = state.photo.pixabayHit.map { $0.user.isEmpty ? "" : "by \($0.user)  " } ?? ""
        return author + "\(size)  fit \(fit)  view \(visible)" + (state.colour.map { "  \($0)" } ?? "")
            + (state.details.map { "  \($0)" } ?? "")
    }

    /// True when the info line, at its widest while panning and zooming,
    /// does not fit on the status line beside the title and the zoom and
    /// frame at theirs (the photo's largest zoom, `stopped N/N`): then it
    /// takes a row of its own, decided once per toggle and resize, so the
    /// picture does not jump and nothing is cut as the numbers change.
    static func infoNeedsItsOwnLine(_ state: ViewerState, width: Int) -> Bool {
        let left = TerminalText.displayWidth(titleText(state) + "  " + infoText(state, widest: true))
        return left + 2 + TerminalText.displayWidth(rightText(state, widest: true)) + 2 > width
    }
}

/// Turns viewer plans into terminal bytes, remembering what is already on
/// screen so each frame writes only what changed. The picture is the
/// backend's slot 0: kitty uploads once and re-places per zoom or pan,
/// sixel re-encodes with one palette for the whole visit, text pictures
/// redraw; each erases what its last frame covered and this one does not.
/// An animation's frames are pictures of their own (`PictureKey.frame`):
/// each is drawn in turn as the state's clock moves on (kitty uploads
/// each, sixel encodes each with the first one's palette).
package final class ViewerPainter {
    /// The backend slot the viewer's picture lives in.
    package static let slot = 0
    package let backend: any GraphicsBackend
    /// What text is drawn with (ASCII in a C locale).
    package let glyphs: Glyphs
    /// The decoded frames (possibly scaled down by the decoder): one for a still image.
    package private(set) var frames: [RGBAImage]
    /// Names this visit's pixels: a new decode bumps the version.
    private let pictureID: Int
    private var version = 0
    private var lastRows: [Int: [UInt8]] = [:]
    private var lastOverlayRows: [Int] = []
    /// The row the info line had in the last frame, if one of its own.
    private var lastInfoRow: Int?
    private var needsFullRedraw = true

    package init(frames: [RGBAImage], backend: any GraphicsBackend, pictureID: Int = 1, glyphs: Glyphs = .unicode) {
        precondition(!frames.isEmpty, "a picture has a frame")
        self.frames = frames
        self.backend = backend
        self.glyphs = glyphs
        self.pictureID = pictureID
    }

    package convenience init(image: RGBAImage, backend: any GraphicsBackend, pictureID: Int = 1, glyphs: Glyphs = .unicode) {
        self.init(frames: [image], backend: backend, pictureID: pictureID, glyphs: glyphs)
    }

    /// The first frame.
    package var image: RGBAImage { frames[0] }

    /// An animation's frames, each shrunk to at most `sampleSide` px and
    /// stacked: what the one sixel palette of every frame is made from.
    private lazy var paletteSample: RGBAImage? = Self.paletteSample(of: frames)

    /// 48 px a frame: the palette builder shrinks its input to 256 px on the
    /// long side anyway, so five frames stacked already fill it.
    static let sampleSide = 48
    /// At most this many frames, spread over the animation.
    static let sampledFrames = 32

    static func paletteSample(of frames: [RGBAImage]) -> RGBAImage? {
        guard frames.count > 1, let first = frames.first, !first.size.isEmpty else { return nil }
        let scale = min(1, Double(sampleSide) / Double(max(first.width, first.height)))
        let size = PixelSize(
            width: max(1, Int(Double(first.width) * scale)), height: max(1, Int(Double(first.height) * scale)))
        let resampler = Resampler(threads: 1)
        let chosen = (0..<min(frames.count, sampledFrames)).map { frames[$0 * frames.count / min(frames.count, sampledFrames)] }
        let pixels = chosen.flatMap { resampler.resize($0, to: size).pixels }
        return RGBAImage(width: size.width, height: size.height * chosen.count, pixels: pixels)
    }

    /// A better decode of the same picture (the full resolution) or the
    /// picture turned: kitty uploads it once more, sixel keeps its
    /// palette; an animation's frames are replaced only all together.
    /// False (and nothing replaced) when the count differs: a full decode
    /// that kept fewer frames within the pixel limit.
    @discardableResult
    package func replaceFrames(_ newFrames: [RGBAImage]) -> Bool {
        guard newFrames.count == frames.count else { return false }
        frames = newFrames
        version += 1
        return true
    }

    /// Forget what is on screen: the next frame redraws everything.
    package func invalidate() {
        needsFullRedraw = true
        lastRows = [:]
        lastOverlayRows = []
        backend.forgetScreen()
    }

    /// Bytes that remove the picture when leaving the viewer (the grid's
    /// tiles kitty holds stay uploaded).
    package func teardown() -> [UInt8] {
        backend.erase(slot: Self.slot)
    }

    /// The bytes of one frame for `state`.
    /// The screen while the viewer waits for its first photo
    /// (`OpeningState`): blank, with the status line.
    static func waitingFrame(_ state: OpeningState, layout: ViewerLayout, glyphs: Glyphs) -> [UInt8] {
        let width = layout.screen.windowCells.width
        let status = StatusLine.compose(left: state.status, right: "", width: width, glyphs: glyphs)
        return FrameText.eraseRows(0..<layout.screen.windowCells.height, width: width)
            + FrameText.row(layout.statusRow, status, width: width, style: TerminalCommand.inverse, glyphs: glyphs)
    }

    package func frame(for state: ViewerState) -> [UInt8] {
        let plan = ViewerPlan(state, glyphs: glyphs)
        let layout = state.layout
        let width = layout.screen.windowCells.width
        var out: [UInt8] = []
        let overlayRows = plan.overlay.map(\.row)
        if needsFullRedraw {
            out += FrameText.eraseRows(0..<layout.screen.windowCells.height, width: width)
            backend.forgetScreen()
        } else if !lastOverlayRows.isEmpty && lastOverlayRows != overlayRows {
            // Help text under or beside the picture goes, and so does what
            // the erase took of the picture.
            for row in lastOverlayRows { out += FrameText.erase(row: row, column: 0, count: width) }
            backend.forgetScreen()
        }
        if let row = lastInfoRow, row != layout.infoRow {
            // The info line's own row goes back to the picture.
            out += FrameText.erase(row: row, column: 0, count: width)
            lastRows[row] = nil
        }
        lastInfoRow = layout.infoRow
        if let viewport = plan.viewport {
            let index = min(state.frameIndex, frames.count - 1)
            out += backend.draw(
                Picture.view(
                    of: frames[index], key: PictureKey(id: pictureID, version: version, frame: index), viewport: viewport,
                    area: layout.imageArea, paletteSample: paletteSample, isAnimationFrame: frames.count > 1,
                    settled: plan.settled),
                slot: Self.slot)
        } else {
            out += backend.erase(slot: Self.slot)
        }
        for (row, text) in plan.overlay {
            out += FrameText.row(row, text, width: width, glyphs: glyphs)
        }
        lastOverlayRows = overlayRows
        let status = FrameText.row(
            layout.statusRow, plan.status, width: width, style: TerminalCommand.inverse, glyphs: glyphs, links: plan.links)
        if lastRows[layout.statusRow] != status {
            out += status
            lastRows[layout.statusRow] = status
        }
        if let row = layout.infoRow {
            let info = FrameText.row(
                row, plan.info ?? "", width: width, style: TerminalCommand.inverse, glyphs: glyphs, links: plan.links)
            if lastRows[row] != info {
                out += info
                lastRows[row] = info
            }
        }
        needsFullRedraw = false
        return out
    }
}
