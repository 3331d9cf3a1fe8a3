import ControlSequences
import Decoding
import Encoding
import Foundation
import Photos
import Pixabay
import Pixels
import Plumbing
import Rendering
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// The photo on its way and the one shown: fetched and decoded off the
/// loop, opened in the viewer, given up on, closed.
extension ExplorerLoop {
    /// Fetches and decodes `photo` for the viewer; the screen stays as it is
    /// (the grid, or the viewer on the previous photo) until it arrives.
    func open(_ photo: Photo, bytes: [UInt8]? = nil) {
        guard source != nil || bytes != nil else { return }
        opening = photo.id
        openingPhoto = photo
        let note = "opening \(photo.title)…"
        if waiting != nil {
            waiting?.title = photo.title
            waiting?.hasNext = sequence.hasNext
            waiting?.message = nil
        } else if viewer != nil {
            _ = viewer?.handle(.message(note))
        } else {
            perform(browser?.handle(.message(note)) ?? [])
        }
        // Opened directly, every photo is framed as the command line says.
        work.open(
            photo, bytes: bytes, viewSize: ViewerLayout(screen: screen).viewSize, screen: screen, drawing: drawing,
            settings: browser == nil ? framing : ViewFraming())
    }

    /// A decode past `options.decodeTimeoutMs` is given up as a failure; true when one was.
    func giveUpDecodingIfDue() -> Bool {
        guard let since = decodingSinceMs, let photo = openingPhoto, opening == photo.id,
            MonotonicClock.milliseconds() - since >= options.decodeTimeoutMs
        else { return false }
        let seconds =
            options.decodeTimeoutMs.isMultiple(of: 1000)
            ? "\(options.decodeTimeoutMs / 1000)" : String(format: "%.1f", Double(options.decodeTimeoutMs) / 1000)
        apply(.viewerFailed(photo: photo, message: "gave up on \(photo.title): still decoding after \(seconds) s"))
        return true
    }

    func apply(_ completion: Completion) {
        switch completion {
        case .search(let query, let page, let outcome):
            perform(browser?.handle(.searchFinished(query: query, page: page, result: outcome)) ?? [])
        case .thumbnail(_, _, _, _, let generation) where generation != work.drawingGeneration:
            // Made for the way of drawing before a late probe: asked again since.
            return
        case .viewerImage(let photo, let bytes, _, let generation) where generation != work.drawingGeneration:
            // Decoded for the view before a late probe: open it again, for this one.
            if opening == photo.id { open(photo, bytes: bytes) }
        case .decoding(let photo):
            if opening == photo.id { decodingSinceMs = MonotonicClock.milliseconds() }
        case .thumbnail(let id, let image, let fullSize, let frames, _):
            if frames > 1 { _ = browser?.handle(.animated(id: id, frames: frames)) }
            if let image {
                if thumbnails[id] != nil { browserPainter?.thumbnailReplaced(id: id) }
                thumbnails[id] = image
            }
            if let fullSize {
                _ = browser?.handle(.imageSize(id: id, width: fullSize.width, height: fullSize.height))
            }
            perform(browser?.handle(.thumbnailFinished(id: id, loaded: image != nil)) ?? [])
        case .viewerImage(let photo, let bytes, let decoded, _):
            guard opening == photo.id else { return }
            opening = nil
            browser?.message = nil
            let isFavourite = browser?.favouriteIDs.contains(photo.id) ?? false
            // Stepping with n/p: the new photo replaces the one on screen.
            let directly = waiting != nil || (viewer?.openedDirectly ?? false)
            if let failures = waiting?.failures { failedBeforeViewer = failures }
            waiting = nil
            if let painter = viewerPainter { write(painter.teardown()) }
            browser?.select(id: photo.id)
            openViewer(
                bytes: bytes, decoded: decoded, photo: photo, directly: directly, isFavourite: isFavourite,
                framing: directly ? framing : ViewFraming(), showInfo: viewer?.showInfo ?? false,
                slideshowMs: viewer.map { $0.slideshowMs } ?? options.slideshowMs)
        case .viewerFailed(let photo, let message):
            guard opening == photo.id else { return }
            opening = nil
            if waiting != nil {
                // Before the viewer opened: the line is for stderr, and the next photo is tried.
                if waiting?.failed(message) == true, case .success(let next) = sequence.step(by: 1) {
                    open(next)
                } else {
                    exitStatus = 1
                }
                return
            }
            if viewer != nil { _ = viewer?.handle(.message(message)) } else { perform(browser?.handle(.message(message)) ?? []) }
        case .fullResolution(let frames, let visit):
            // A decode for a photo since closed is not this one's; an
            // animation's frames are replaced only all together.
            let turn = viewer?.turn ?? ImageTurn()
            guard let frames, let first = frames.first, visit == viewerSerial, let painter = viewerPainter,
                painter.replaceFrames(frames.map { $0.turned(turn) })
            else { return }
            viewerFrames = frames
            _ = viewer?.handle(.fullResolutionDecoded(turn.turnedSize(first.size)))
        case .clipboardImage(let packets, let said, let visit):
            writeClipboardImage(packets, said: said, visit: visit)
        }
    }

    func openViewer(
        bytes: [UInt8], decoded: DecodedImage, photo: Photo, directly: Bool, isFavourite: Bool = false,
        framing: ViewFraming = ViewFraming(), showInfo: Bool = false, slideshowMs: Int? = nil
    ) {
        if let painter = browserPainter { write(painter.teardown()) }
        viewerBytes = bytes
        var favourite = isFavourite
        var problem: String?
        if let hit = photo.pixabayHit, favourites.store != nil {
            do {
                favourite = try favourites.contains(hit)
            } catch {
                problem = ExplorerFavourites.problem(error)
            }
        }
        viewer = ViewerState(
            photo: photo, fullSize: decoded.fullSize, decodedSize: decoded.image.size,
            layout: ViewerLayout(screen: screen), openedDirectly: directly, framing: framing, isFavourite: favourite,
            frameDelays: decoded.frames.count > 1 ? decoded.frames.map(\.playbackDelayMs) : [], plays: decoded.loopCount,
            showInfo: showInfo, position: position, slideshowMs: slideshowMs, colour: decoded.colour?.description,
            details: decoded.details?.description)
        if let start = options.slideshowMs { viewer?.slideshowStartMs = start }
        viewer?.saveFolder = options.saveFolder
        viewer?.saveFolderSuggestion = saveFolderSuggestion
        viewer?.isMarked = (browser?.markedIDs ?? markedIDs).contains(photo.id)
        viewer?.notice = notice
        viewerSerial += 1
        viewerFrames = decoded.frames.map(\.image)
        viewerPainter = ViewerPainter(
            frames: decoded.frames.map(\.image), backend: backend, pictureID: -viewerSerial, glyphs: drawing.glyphs)
        if let text = problem ?? carriedMessage { _ = viewer?.handle(.message(text)) }
        carriedMessage = nil
    }

    func closeViewer() {
        // A photo n asked for and still on its way stays closed.
        opening = nil
        if let painter = viewerPainter { write(painter.teardown()) }
        if let hit = viewer?.photo.pixabayHit, let browserState = browser {
            // The viewer may have changed the favourite.
            let isFavourite = viewer?.isFavourite ?? false
            if isFavourite != browserState.favouriteIDs.contains(hit.id) {
                if isFavourite { browser?.favouriteIDs.insert(hit.id) } else { browser?.favouriteIDs.remove(hit.id) }
            }
        }
        viewer = nil
        viewerPainter = nil
        viewerBytes = []
        browserPainter?.invalidate()
    }
}

/// The cell size in a `CSI 6 ; height ; width t` report, if `bytes` is one.
func cellSizeReport(_ bytes: [UInt8]) -> PixelSize? {
    var parser = ProbeReplyParser()
    parser.feed(bytes)
    return parser.result.cellPixels
}

// MARK: The viewer's clock

/// An animated image in the viewer plays, and a still view settles, by this
/// small piece alone: the loop's poll(2) waits no longer than the viewer's
/// next frame or its settling is due (`ViewerState.nextWakeMs`), and after
/// every wake-up the viewer gets a `.tick` once that time has come.
extension ExplorerLoop {
    /// How long poll(2) may wait for the viewer's next wake-up (ms); nil when nothing is due.
    func viewerTimeout() -> Int? {
        let now = MonotonicClock.milliseconds()
        guard let wake = viewer?.nextWakeMs(now: now) else { return nil }
        return max(0, wake - now)
    }

    /// Ticks the viewer when its wake-up is due; true when it was (draw again:
    /// the painter writes nothing if the picture and the text stay the same).
    func tickViewer() -> Bool {
        let now = MonotonicClock.milliseconds()
        guard let wake = viewer?.nextWakeMs(now: now), wake <= now else { return false }
        perform(viewer?.handle(.tick(timeMs: now)) ?? [])
        return true
    }
}
