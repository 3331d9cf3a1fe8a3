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

/// The loop and its terminal: signals, suspending, tmux's pane, the late
/// probe, laying out, drawing a frame and writing through the one writer.
extension ExplorerLoop {
    /// True when pxview's pane is the active one: a key or a click of its
    /// own (tmux sends keys to the active pane only), focus coming in, or
    /// tmux saying so (asked every `PaneWatch.intervalMs`).
    func paneIsActiveNow(events: [InputEvent]) -> Bool {
        if events.contains(where: {
            if case .unknown(let bytes) = $0 { return bytes == TerminalCommand.focusIn }
            return true
        }) {
            return true
        }
        let now = MonotonicClock.milliseconds()
        guard let tmux = lateProbe?.tmux, now - (lateProbe?.lastCheckMs ?? 0) >= PaneWatch.intervalMs else { return false }
        lateProbe?.lastCheckMs = now
        guard let state = tmux.paneState() else { return false }
        return state.paneActive && state.windowActive
    }

    /// Asks the terminal now, as the start would have; with an answer,
    /// draws the way it says from here on.
    func probeLate() {
        guard let (newDrawing, typed) = options.reprobe?() else { return }
        lateProbe = nil
        pendingEvents += decoder.feed(typed)
        switchDrawing(to: newDrawing)
    }

    /// Everything drawn the new way: the old pictures taken down, a new
    /// backend, writer and pane keeper, both screens laid out for it, the
    /// thumbnails made again, and the viewer's photo decoded at full size
    /// when the new view needs more pixels (what text needed is far
    /// smaller). Work still on its way for the old way is dropped when it
    /// comes (`ExplorerWork.drawingGeneration`); a photo being opened is
    /// asked for again.
    func switchDrawing(to newDrawing: DrawingPlan) {
        write(backend.teardown())
        drawing = newDrawing
        drawing.geometry = drawing.geometry.resized(to: windowSize(fd: options.outputFD))
        (backend, writer, pane) = Self.drawingParts(drawing, options: options)
        followUps = []
        work.drawingGeneration += 1
        if browser != nil {
            browserPainter = BrowserPainter(backend: backend, glyphs: drawing.glyphs)
            thumbnails = [:]
            browser?.notice = notice
            perform(browser?.handle(.graphicsChanged(BrowserLayout(screen: screen))) ?? [])
        }
        if let old = viewerPainter {
            viewerPainter = ViewerPainter(
                frames: old.frames, backend: backend, pictureID: -viewerSerial, glyphs: drawing.glyphs)
            viewer?.notice = notice
            // Asks for the full decode when the new view needs more pixels.
            perform(viewer?.handle(.resized(ViewerLayout(screen: screen))) ?? [])
        }
    }

    /// A signal `ProcessSignals` reported through the pipe.
    func handle(signal: Int32) {
        switch signal {
        case SIGWINCH:
            // Inside tmux the pane may have moved as well as grown.
            if pane.tmux != nil { _ = checkPane(redrawing: false) }
            relayout()
        case SIGTSTP:
            suspend()
        case SIGCONT:
            // After a stop of our own the screen is already back; after a
            // SIGSTOP (which nobody sees) the shell may have put the
            // terminal in cooked mode: take it again and redraw.
            if resumedFromStop {
                resumedFromStop = false
            } else {
                session?.resume()
                redrawEverything()
            }
        default:
            exitStatus = 128 + signal
        }
    }

    /// Ctrl-Z or SIGTSTP, as every full-screen tool does it: pictures taken
    /// down, the terminal given back to the shell (main screen, mouse off,
    /// cooked), the process stopped; after `fg`, raw mode again and
    /// everything redrawn (nothing is probed again).
    func suspend() {
        guard let session else { return }
        write(backend.teardown())
        session.suspendUntilContinued()
        resumedFromStop = true
        redrawEverything()
    }

    /// Lays out and draws both screens afresh: the terminal's screen was
    /// someone else's meanwhile.
    func redrawEverything() {
        relayout()
        browserPainter?.invalidate()
        viewerPainter?.invalidate()
    }

    func checkPane(redrawing: Bool = true) -> Bool {
        let (change, state) = pane.check(nowMs: MonotonicClock.milliseconds())
        switch change {
        case .none:
            return false
        case .hidden:
            hidePictures(clientTTY: state?.clientTTY)
            return false
        case .redraw:
            writer.paneOrigin = pane.origin
            if let cell = state?.cellSize {
                let reported = drawing.geometry.withReportedCellSize(cell)
                if reported != drawing.geometry { drawing.geometry = reported }
            }
            if redrawing { redrawEverything() }
            return true
        }
    }

    /// pxview's window is no longer shown: every picture taken down, and
    /// kitty's on the client's terminal directly (`PaneKeeper`); everything
    /// is drawn again on return.
    func hidePictures(clientTTY: String?) {
        let deletes = backend.teardown()
        browserPainter?.invalidate()
        viewerPainter?.invalidate()
        if drawing.backendType.hidesOnTheClient { pane.hideKittyPictures(deletes, clientTTY: clientTTY) }
    }

    func draw() {
        if !pane.mayDraw(nowMs: MonotonicClock.milliseconds()) {
            // Pictures now would land in another pane or be dropped.
            frameDeferred = true
            return
        }
        frameDeferred = false
        var frame: [UInt8]
        if let viewer, let viewerPainter {
            frame = viewerPainter.frame(for: viewer)
        } else if let browser, let browserPainter {
            frame = browserPainter.frame(for: browser, thumbnails: thumbnails)
        } else if let waiting {
            frame = ViewerPainter.waitingFrame(waiting, layout: ViewerLayout(screen: screen), glyphs: drawing.glyphs)
            if frame == waitingDrawn { return }
            waitingDrawn = frame
        } else {
            return
        }
        if frame.isEmpty { return }
        frame += TerminalCommand.moveTo(row: screen.windowCells.height, column: 1)
        write(frame)
        let now = MonotonicClock.milliseconds()
        followUps = backend.followUpDelaysMs.map { now + $0 }
    }

    /// Writes the backend's follow-up once its time has come.
    func writeFollowUp() {
        let now = MonotonicClock.milliseconds()
        guard followUps.contains(where: { $0 <= now }) else { return }
        followUps.removeAll { $0 <= now }
        guard pane.mayDraw(nowMs: now) else { return }
        write(backend.followUp())
    }

    /// Writes through the one writer; keys typed while it waited on tmux go to the decoder.
    func write(_ bytes: [UInt8]) {
        guard let typed = try? writer.write(bytes), !typed.isEmpty else { return }
        pendingEvents += decoder.feed(typed)
    }

    /// SIGWINCH: the screen measured again (keeping the cell size unless
    /// the terminal's pixels say it changed), every picture removed, and
    /// both screens laid out anew.
    func relayout() {
        // A terminal that reported its cell size is asked again (a font change).
        if drawing.reportsCellSize && !drawing.multiplexer.wrapsGraphics { write(TerminalCommand.cellSizeQuery) }
        apply(drawing.geometry.resized(to: windowSize(fd: options.outputFD)))
    }

    /// Lays both screens out for `measured`, every picture removed first.
    func apply(_ measured: TerminalGeometry) {
        drawing.geometry = measured
        pane.laidOut(nowMs: MonotonicClock.milliseconds())
        write(backend.teardown())
        backend.update(geometry: drawing.geometry)
        if browser != nil {
            browserPainter?.relayout()
            perform(browser?.handle(.resized(BrowserLayout(screen: screen))) ?? [])
        }
        if viewer != nil {
            viewerPainter?.invalidate()
            perform(viewer?.handle(.resized(ViewerLayout(screen: screen))) ?? [])
        }
    }
}
