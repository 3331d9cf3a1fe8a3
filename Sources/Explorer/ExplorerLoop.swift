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

/// The thin I/O loop around the two state machines: poll(2) on the
/// terminal, the signal pipe and the completion pipe; feed events to the
/// current screen; run its effects (network and decoding in Tasks, never
/// blocking the loop); write one frame per batch of events.
final class ExplorerLoop {
    private let source: (any PhotoSource)?
    /// Searches, thumbnails and photos fetched and decoded off the loop.
    private var work: ExplorerWork
    private let favourites: ExplorerFavourites
    private var drawing: DrawingPlan
    private let options: ExplorerOptions
    private let completions: CompletionQueue
    /// The one backend of this run: the browser's tiles and the viewer's
    /// picture are its slots (another one only after a late probe).
    private var backend: any GraphicsBackend
    private var decoder = InputDecoder()
    private var writer: FrameWriter
    /// Inside tmux, with pictures going through passthrough: whether they
    /// may be drawn now and where.
    private var pane: PaneKeeper
    /// A frame was held back while pictures could not be drawn.
    private var frameDeferred = false

    private var browser: BrowserState?
    private var browserPainter: BrowserPainter?
    private var thumbnails: [Int: RGBAImage] = [:]
    private var viewer: ViewerState?
    private var viewerPainter: ViewerPainter?
    private var viewerBytes: [UInt8] = []
    /// The photo whose large image is on its way (a newer request wins);
    /// the work for any other stops before its decode.
    private var opening: Int? {
        didSet {
            work.wanted.set(opening)
            if opening != oldValue { decodingSinceMs = nil }
        }
    }
    /// The photo `opening` names.
    private var openingPhoto: Photo?
    /// When the photo on its way began decoding (its bytes came).
    private var decodingSinceMs: Int?
    /// The viewer opened directly, before its first photo has come.
    private var waiting: OpeningState?
    /// What was last drawn of `waiting` (drawn again only when it changes).
    private var waitingDrawn: [UInt8] = []
    private var exitStatus: Int32?

    init(source: (any PhotoSource)?, drawing: DrawingPlan, options: ExplorerOptions) throws(ExplorerError) {
        self.source = source
        var drawing = drawing
        drawing.geometry = drawing.geometry.resized(to: windowSize(fd: options.outputFD))
        self.drawing = drawing
        self.options = options
        completions = try CompletionQueue()
        work = ExplorerWork(source: source, completions: completions, filters: SearchQuery(), maxPixels: options.maxPixels)
        favourites = ExplorerFavourites(store: options.favourites)
        (backend, writer, pane) = Self.drawingParts(drawing, options: options)
        pendingEvents = decoder.feed(options.typedAhead)
        if options.reprobe != nil, drawing.shortfall == .notProbed(.paneNotActive) {
            lateProbe = LateProbe(tmux: Tmux(environment: ProcessInfo.processInfo.environment))
        }
    }

    /// What draws for `drawing`: its backend, the one writer, and the pane
    /// keeper (the writer places pictures where it says the pane is).
    private static func drawingParts(_ drawing: DrawingPlan, options: ExplorerOptions) -> (
        any GraphicsBackend, FrameWriter, PaneKeeper
    ) {
        var writer = FrameWriter(
            fd: options.outputFD, synchronizedOutput: drawing.synchronizedOutput, multiplexer: drawing.multiplexer,
            fenceInputFD: options.inputFD)
        let pane = PaneKeeper(
            drawing: drawing, environment: ProcessInfo.processInfo.environment, nowMs: MonotonicClock.milliseconds())
        writer.paneOrigin = pane.origin
        return (drawing.makeBackend(), writer, pane)
    }

    /// A probe not sent at the start (pxview's tmux pane was not the
    /// active one: the outer terminal's answers would have been typed into
    /// another pane), sent once the pane is active: a key or a click typed
    /// there, focus coming to it, or tmux saying so when asked (every
    /// `PaneWatch.intervalMs`).
    private struct LateProbe {
        let tmux: Tmux?
        var lastCheckMs = 0
    }
    private var lateProbe: LateProbe?

    /// Why pictures are text, when the user can change it.
    private var notice: DisplayNotice? {
        drawing.shortfall.map { DisplayNotice(status: $0.status, fix: $0.fix) }
    }

    /// The window in the backend's units.
    var geometry: BackendGeometry { backend.screen }

    func runBrowser(query: SearchQuery, folder: String? = nil) -> ExplorerOutcome {
        work.filters = query
        var state = BrowserState(
            layout: BrowserLayout(geometry: geometry, nameLines: folder != nil), query: query.q,
            offline: source?.isOffline ?? true, folder: folder)
        state.notice = notice
        do {
            state.favouriteIDs = try favourites.ids()
        } catch {
            // Moved aside, or unreadable: said where the user looks.
            state.message = ExplorerFavourites.problem(error)
        }
        browserPainter = BrowserPainter(backend: backend, glyphs: drawing.glyphs)
        let effects = state.start()
        browser = state
        let status = run { self.perform(effects) }
        return ExplorerOutcome(status: status, marked: markedLinks)
    }

    /// `sequence`: the photos `n`/`p` step through (the files given to
    /// `show`), `photo` among them.
    /// `bytes`: `photo`'s, when the command fetched them (else `source` does).
    /// The screen answers keys at once; the photo is fetched and decoded
    /// off the loop (`OpeningState`). `failures`: a line for each photo
    /// that could not be opened before the viewer opened.
    func runViewer(
        photo: Photo, bytes: [UInt8]?, framing: ViewSettings, sequence: [Photo] = []
    ) -> ExplorerOutcome {
        self.sequence = PhotoSequence(sequence, showing: photo)
        self.framing = framing
        waiting = OpeningState(title: photo.title, hasNext: self.sequence.hasNext)
        let status = run { self.open(photo, bytes: bytes) }
        let failures = waiting?.failures ?? failedBeforeViewer
        return ExplorerOutcome(status: failures.isEmpty ? status : max(status, 1), failures: failures, marked: markedLinks)
    }

    /// The photos marked with `m` (the grid's own set when there is a grid),
    /// as links, in their list's order.
    private var markedIDs: Set<Int> = []
    private var markedLinks: [[UInt8]] {
        let (photos, marked) = browser.map { ($0.photos, $0.markedIDs) } ?? (sequence.photos, markedIDs)
        return photos.filter { marked.contains($0.id) }.compactMap(\.link)
    }

    /// `m` in the viewer: the photo marked or not, in the grid's set when
    /// there is a grid (its tile shows it).
    private func toggleMark() {
        guard let photo = viewer?.photo else { return }
        var marked = browser?.markedIDs ?? markedIDs
        let isMarked = marked.insert(photo.id).inserted
        if !isMarked { marked.remove(photo.id) }
        if browser != nil { browser?.markedIDs = marked } else { markedIDs = marked }
        viewer?.isMarked = isMarked
        _ = viewer?.handle(.message("\(isMarked ? "marked" : "unmarked") · \(marked.count) marked"))
    }

    /// The lines of the photos that failed before the viewer opened.
    private var failedBeforeViewer: [String] = []

    // MARK: The loop

    private func run(_ start: () -> Void) -> Int32 {
        let session: TerminalSession
        let signals: SignalPipe
        do {
            // The pipe first: from the moment the terminal is raw, a signal
            // is an event for this loop (`ProcessSignals` reports to it).
            signals = try SignalPipe()
            // Inside tmux, focus reports (with tmux's `focus-events on`) tell
            // when its pane is switched away from and back: tmux never sees
            // the pictures, so they are taken down and drawn again.
            session = try TerminalSession(
                inputFD: options.inputFD, outputFD: options.outputFD,
                options: TerminalSession.Options(focusEvents: drawing.multiplexer.wrapsGraphics))
        } catch {
            return 1
        }
        self.session = session
        // Whatever the image libraries print goes to a file while the
        // screen is pxview's (libjxl's JXL_FAILURE lines scrolled the grid).
        let libraryOutput = StderrCapture()
        defer {
            if !pane.mayDraw(nowMs: MonotonicClock.milliseconds()), pane.tmux != nil {
                hidePictures(clientTTY: pane.watch?.pane?.clientTTY)
            } else {
                _ = try? writer.write(backend.teardown())
            }
            session.restore()
            self.session = nil
            if let said = libraryOutput?.finish(), !said.isEmpty { options.librarySaid?(said) }
        }
        start()
        var dirty = true
        while exitStatus == nil {
            if dirty {
                draw()
                dirty = false
            }
            var fds = [
                pollfd(fd: options.inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: completions.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let escapeWait = Int(InputDecoder.escapeTimeoutMilliseconds) - (MonotonicClock.milliseconds() - lastInputMs)
            var timeout = !pendingEvents.isEmpty ? 0 : decoder.hasPendingEscape ? max(0, escapeWait) : -1
            timeout = pane.pollTimeout(timeout, nowMs: MonotonicClock.milliseconds())
            if lateProbe?.tmux != nil, timeout < 0 || timeout > PaneWatch.intervalMs { timeout = PaneWatch.intervalMs }
            if let wake = viewerTimeout(), timeout < 0 || wake < timeout { timeout = wake }
            if let since = decodingSinceMs {
                let wait = max(0, since + options.decodeTimeoutMs - MonotonicClock.milliseconds())
                if timeout < 0 || wait < timeout { timeout = wait }
            }
            if let due = followUps.min() {
                let wait = max(0, due - MonotonicClock.milliseconds())
                if timeout < 0 || wait < timeout { timeout = wait }
            }
            let ready = poll(&fds, nfds_t(fds.count), Int32(timeout))
            if ready < 0 {
                if errno == EINTR { continue }
                return 1
            }
            if pane.checkDue(nowMs: MonotonicClock.milliseconds()), checkPane() { dirty = true }
            if pane.takeSettleRedraw(nowMs: MonotonicClock.milliseconds()) {
                // Sixel pixels a frame in flight left outside the pane go
                // only under tmux's text (kitty's go with their placements).
                if drawing.method == .sixel { pane.redrawClient() }
                browserPainter?.invalidate()
                viewerPainter?.invalidate()
                dirty = true
            }
            var events = pendingEvents
            pendingEvents = []
            // A lone Esc only once no input has come for the escape timeout:
            // other wake-ups (follow-ups, tmux checks) must not cut an arrow
            // key split across reads into Esc and `[A`.
            if events.isEmpty, fds[0].revents == 0, decoder.hasPendingEscape,
                MonotonicClock.milliseconds() - lastInputMs >= Int(InputDecoder.escapeTimeoutMilliseconds)
            {
                events += decoder.flushPendingEscape()
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in signals.takeSignals() { handle(signal: signal) }
                dirty = true
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, exitStatus == nil {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(options.inputFD, $0.baseAddress, $0.count) }
                if count > 0 {
                    lastInputMs = MonotonicClock.milliseconds()
                    events += decoder.feed(Array(buffer.prefix(count)))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    exitStatus = 1  // the terminal went away
                }
            }
            if fds[2].revents & Int16(POLLIN) != 0 {
                for completion in completions.take() { apply(completion) }
                dirty = true
            }
            if lateProbe != nil, paneIsActiveNow(events: events) {
                probeLate()
                dirty = true
            }
            for event in events where exitStatus == nil {
                handle(event)
                dirty = true
            }
            // A key of its own: pxview's pane is the active one now (the
            // keeper listens when tmux cannot be asked); the events already
            // ask for a frame.
            if !events.isEmpty { pane.keyArrived(nowMs: MonotonicClock.milliseconds()) }
            if tickViewer() { dirty = true }
            if giveUpDecodingIfDue() { dirty = true }
            writeFollowUp()
        }
        return exitStatus ?? 0
    }

    /// The terminal session while the loop runs (job control needs it).
    private var session: TerminalSession?
    /// True between coming back from a stop and the SIGCONT that reports it.
    private var resumedFromStop = false

    /// True when pxview's pane is the active one: a key or a click of its
    /// own (tmux sends keys to the active pane only), focus coming in, or
    /// tmux saying so (asked every `PaneWatch.intervalMs`).
    private func paneIsActiveNow(events: [InputEvent]) -> Bool {
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
    private func probeLate() {
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
    private func switchDrawing(to newDrawing: DrawingPlan) {
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
            perform(browser?.handle(.graphicsChanged(BrowserLayout(geometry: geometry))) ?? [])
        }
        if let old = viewerPainter {
            viewerPainter = ViewerPainter(
                frames: old.frames, backend: backend, pictureID: -viewerSerial, glyphs: drawing.glyphs)
            viewer?.notice = notice
            // Asks for the full decode when the new view needs more pixels.
            perform(viewer?.handle(.resized(ViewerLayout(geometry: geometry))) ?? [])
        }
    }

    /// A signal `ProcessSignals` reported through the pipe.
    private func handle(signal: Int32) {
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
    private func suspend() {
        guard let session else { return }
        write(backend.teardown())
        session.suspendUntilContinued()
        resumedFromStop = true
        redrawEverything()
    }

    /// Lays out and draws both screens afresh: the terminal's screen was
    /// someone else's meanwhile.
    private func redrawEverything() {
        relayout()
        browserPainter?.invalidate()
        viewerPainter?.invalidate()
    }

    /// Asks tmux where pxview's pane is now and acts on the change; true
    /// when a frame must be drawn.
    @discardableResult
    private func checkPane(redrawing: Bool = true) -> Bool {
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
    private func hidePictures(clientTTY: String?) {
        let deletes = backend.teardown()
        browserPainter?.invalidate()
        viewerPainter?.invalidate()
        if drawing.method == .kitty { pane.hideKittyPictures(deletes, clientTTY: clientTTY) }
    }

    private func draw() {
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
            frame = ViewerPainter.waitingFrame(waiting, layout: ViewerLayout(geometry: geometry), glyphs: drawing.glyphs)
            if frame == waitingDrawn { return }
            waitingDrawn = frame
        } else {
            return
        }
        if frame.isEmpty { return }
        frame += TerminalCommand.moveTo(row: geometry.windowCells.height, column: 1)
        write(frame)
        let now = MonotonicClock.milliseconds()
        followUps = backend.followUpDelaysMs.map { now + $0 }
    }

    /// When the backend's follow-up to the last frame is due (`GraphicsBackend.followUp`).
    private var followUps: [Int] = []

    /// Writes the backend's follow-up once its time has come.
    private func writeFollowUp() {
        let now = MonotonicClock.milliseconds()
        guard followUps.contains(where: { $0 <= now }) else { return }
        followUps.removeAll { $0 <= now }
        guard pane.mayDraw(nowMs: now) else { return }
        write(backend.followUp())
    }

    /// Writes through the one writer; keys typed while it waited on tmux go to the decoder.
    private func write(_ bytes: [UInt8]) {
        guard let typed = try? writer.write(bytes), !typed.isEmpty else { return }
        pendingEvents += decoder.feed(typed)
    }

    /// When input last came from the terminal: a pending Esc is a key of
    /// its own only `InputDecoder.escapeTimeoutMilliseconds` after it.
    private var lastInputMs = 0

    /// Events decoded from input read outside the poll loop.
    private var pendingEvents: [InputEvent] = []

    /// SIGWINCH: the geometry measured again (keeping the cell size unless
    /// the terminal's pixels say it changed), every picture removed, and
    /// both screens laid out anew.
    private func relayout() {
        // A terminal that reported its cell size is asked again (a font change).
        if drawing.reportsCellSize && !drawing.multiplexer.wrapsGraphics { write(TerminalCommand.cellSizeQuery) }
        apply(drawing.geometry.resized(to: windowSize(fd: options.outputFD)))
    }

    /// Lays both screens out for `measured`, every picture removed first.
    private func apply(_ measured: TerminalGeometry) {
        drawing.geometry = measured
        pane.laidOut(nowMs: MonotonicClock.milliseconds())
        write(backend.teardown())
        backend.update(geometry: drawing.geometry)
        if browser != nil {
            browserPainter?.relayout()
            perform(browser?.handle(.resized(BrowserLayout(geometry: geometry))) ?? [])
        }
        if viewer != nil {
            viewerPainter?.invalidate()
            perform(viewer?.handle(.resized(ViewerLayout(geometry: geometry))) ?? [])
        }
    }

    // MARK: Events and effects

    private func handle(_ event: InputEvent) {
        if case .key(let key) = event, key.modifiers.contains(.control), key.code == .char("z") {
            suspend()
            return
        }
        if case .key(let key) = event, key.modifiers.contains(.control), key.code == .char("c") {
            // Raw mode makes Ctrl-C a key: pxview ends as SIGINT would have
            // ended it, once the terminal is back (the shell sees 130, and
            // a loop over pxview stops).
            ProcessSignals.requestTermination(SIGINT)
            exitStatus = 128 + SIGINT
            return
        }
        if case .unknown(let bytes) = event {
            if let cell = cellSizeReport(bytes) {
                // Only a cell that really changed is worth a new layout.
                let reported = drawing.geometry.withReportedCellSize(cell)
                if reported != drawing.geometry { apply(reported) }
            } else if let status = TerminalCommand.clipboardWriteStatus(bytes) {
                clipboardAnswer(status)
            } else if bytes == TerminalCommand.focusIn {
                // Back from another tmux window: tmux redrew its text over
                // whatever pictures it never saw; draw them again.
                browserPainter?.invalidate()
                viewerPainter?.invalidate()
            }
            return
        }
        if waiting != nil {
            if case .key(let key) = event, let effect = OpeningState.effect(for: key) { perform([effect]) }
        } else if viewer != nil {
            perform(viewer?.handle(.input(event, timeMs: MonotonicClock.milliseconds())) ?? [])
        } else if browser != nil {
            perform(browser?.handle(.input(event)) ?? [])
        }
    }

    private func perform(_ effects: [ViewerEffect]) {
        for effect in effects {
            switch effect {
            case .quit:
                exitStatus = 0
            case .close:
                closeViewer()
            case .save(let folder):
                guard let state = viewer else { continue }
                let message: String
                if let save = options.save {
                    do {
                        message = try save(viewerBytes, state.photo, folder)
                        if let folder { saveFolderSuggestion = folder }
                    } catch {
                        message = "cannot save: \(error)"
                    }
                } else {
                    message = "saving is not available here"
                }
                _ = viewer?.handle(.message(message))
            case .toggleFavourite:
                guard let hit = viewer?.photo.pixabayHit else { continue }
                if let now = toggleFavourite(hit) {
                    _ = viewer?.handle(.favouriteChanged(isFavourite: now))
                    // The grid knows at once: stepping on with n must not lose it.
                    if now { browser?.favouriteIDs.insert(hit.id) } else { browser?.favouriteIDs.remove(hit.id) }
                }
            case .step(let delta):
                step(by: delta)
            case .stepToEnd(let last):
                stepToEnd(last: last)
            case .toggleMark:
                toggleMark()
            case .trash:
                trashShown()
            case .slideshowNext:
                let (index, count) = place
                if count > 1 {
                    if index + 1 >= count { stepToEnd(last: false) } else { step(by: 1) }
                }
            case .turn(let turn):
                viewerPainter?.replaceFrames(viewerFrames.map { $0.turned(turn) })
            case .runKeyHandler(let key):
                runKeyHandler(key, current: viewer?.photo)
            case .copyImage:
                copyImage()
            case .copyLink:
                guard let link = viewer?.photo.link else { continue }
                // Through tmux's passthrough when it has one (tmux's own
                // set-clipboard, off by default for programs, is not relied on).
                let copy = TerminalCommand.copyToClipboard(base64: Data(link).base64EncodedString())
                write(drawing.multiplexer.wrapsGraphics ? Passthrough.wrap(copy) : copy)
                _ = viewer?.handle(.message("copied \(TerminalText.sanitize(String(decoding: link, as: UTF8.self)))"))
            case .needFullResolution:
                work.decodeFully(viewerBytes, visit: viewerSerial, drawing: drawing)
            }
        }
    }

    private func perform(_ effects: [BrowserEffect]) {
        for effect in effects {
            switch effect {
            case .quit:
                exitStatus = 0
            case .search(let query, let page):
                // A photo still on its way is not opened over a new search.
                if viewer == nil && page == 1 { opening = nil }
                search(query: query, page: page)
            case .loadThumbnails(let photos):
                loadThumbnails(photos)
            case .openViewer(let photo):
                open(photo)
            case .toggleFavourite(let hit):
                if let now = toggleFavourite(hit) {
                    perform(browser?.handle(.favouriteChanged(id: hit.id, isFavourite: now)) ?? [])
                }
            case .runKeyHandler(let key):
                runKeyHandler(key, current: browser?.selectedPhoto)
            case .showFavourites:
                do {
                    guard let hits = try favourites.list() else {
                        perform(browser?.handle(.message("favourites are not available")) ?? [])
                        continue
                    }
                    perform(browser?.handle(.favouritesLoaded(hits.map { Photo(hit: $0) })) ?? [])
                } catch {
                    perform(browser?.handle(.message("\(error)")) ?? [])
                }
            }
        }
    }

    /// Adds or removes `hit`; the new state, or nil after an error (shown).
    private func toggleFavourite(_ hit: PixabayHit) -> Bool? {
        switch favourites.toggle(hit) {
        case .success(let now): return now
        case .failure(let message):
            _ = viewer?.handle(.message(message.text))
            _ = browser?.handle(.message(message.text))
            return nil
        case nil: return nil
        }
    }

    private func search(query: String, page: Int) {
        work.search(query: query, page: page)
    }

    private func loadThumbnails(_ photos: [Photo]) {
        guard let layout = browser?.layout, let size = browser?.thumbnailSize else { return }
        work.loadThumbnails(photos, size: size, tileBox: layout.tileBox, screen: geometry, drawing: drawing)
    }

    /// The photo `n`/`p` lead to: the grid's neighbour, or the next of the
    /// files given; at either end the viewer says so.
    private var sequence = PhotoSequence()
    /// The command's `--fit`/`--zoom`/`--center`, for every photo `n` steps to.
    private var framing = ViewSettings()

    private func step(by delta: Int) {
        let target: Photo
        if browser != nil {
            guard let (photo, effects) = browser?.step(by: delta) else {
                let text = browser?.message ?? ""
                browser?.message = nil
                _ = viewer?.handle(.message(text))
                return
            }
            perform(effects)
            target = photo
        } else {
            switch sequence.step(by: delta) {
            case .success(let photo): target = photo
            case .failure(let message):
                _ = viewer?.handle(.message(message.text))
                waiting?.message = message.text
                return
            }
        }
        open(target)
    }

    /// `g`/`G`: the first or last photo of the grid (as loaded so far) or
    /// of the files given; on it already, the viewer says so.
    private func stepToEnd(last: Bool) {
        let (index, count) = place
        let delta = last ? count - 1 - index : -index
        guard delta != 0 else {
            let text = count <= 1 ? "this is the only photo" : last ? "this is the last photo" : "this is the first photo"
            _ = viewer?.handle(.message(text))
            waiting?.message = text
            return
        }
        step(by: delta)
    }

    /// `D` `y`: the shown file to the trash (`ExplorerOptions.trash`), out of
    /// the grid or the files given, and the next one shown (the last one
    /// gone: back to the grid, or out).
    private func trashShown() {
        guard let photo = viewer?.photo, let location = photo.link, let trash = options.trash else {
            _ = viewer?.handle(.message("there is no trash here"))
            return
        }
        let said: String
        do {
            said = try trash(location)
        } catch {
            _ = viewer?.handle(.message("\(error)"))
            return
        }
        markedIDs.remove(photo.id)
        let next: Photo?
        if browser != nil {
            browser?.remove(id: photo.id)
            next = browser?.selectedPhoto
        } else {
            next = sequence.removeShown()
        }
        guard let next else {
            if browser != nil {
                closeViewer()
                browser?.message = said
            } else {
                exitStatus = 0
            }
            return
        }
        open(next)
        _ = viewer?.handle(.message(said))
        carriedMessage = said
    }

    /// Where the shown photo is among those `n` steps through: the grid's
    /// (as loaded) or the files given.
    private var place: (index: Int, count: Int) {
        browser.map { ($0.selection, $0.photos.count) } ?? (sequence.index, sequence.photos.count)
    }

    /// The shown photo's place for the viewer's status line ("2/12"): in
    /// the grid (of all its results), or among the files given.
    private var position: String? {
        if let browser {
            return browser.photos.isEmpty ? nil : "\(browser.selection + 1)/\(max(browser.totalHits, browser.photos.count))"
        }
        return sequence.photos.count > 1 ? "\(sequence.index + 1)/\(sequence.photos.count)" : nil
    }

    /// Fetches and decodes `photo` for the viewer; the screen stays as it is
    /// (the grid, or the viewer on the previous photo) until it arrives.
    private func open(_ photo: Photo, bytes: [UInt8]? = nil) {
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
            photo, bytes: bytes, viewSize: ViewerLayout(geometry: geometry).viewSize, screen: geometry, drawing: drawing,
            settings: browser == nil ? framing : ViewSettings())
    }

    /// A decode past `options.decodeTimeoutMs` is given up as a failure; true when one was.
    private func giveUpDecodingIfDue() -> Bool {
        guard let since = decodingSinceMs, let photo = openingPhoto, opening == photo.id,
            MonotonicClock.milliseconds() - since >= options.decodeTimeoutMs
        else { return false }
        let seconds =
            options.decodeTimeoutMs.isMultiple(of: 1000)
            ? "\(options.decodeTimeoutMs / 1000)" : String(format: "%.1f", Double(options.decodeTimeoutMs) / 1000)
        apply(.viewerFailed(photo: photo, message: "gave up on \(photo.title): still decoding after \(seconds) s"))
        return true
    }

    private func apply(_ completion: Completion) {
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
                framing: directly ? framing : ViewSettings(), showInfo: viewer?.showInfo ?? false,
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
        }
    }

    private func openViewer(
        bytes: [UInt8], decoded: DecodedImage, photo: Photo, directly: Bool, isFavourite: Bool = false,
        framing: ViewSettings = ViewSettings(), showInfo: Bool = false, slideshowMs: Int? = nil
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
            layout: ViewerLayout(geometry: geometry), openedDirectly: directly, framing: framing, isFavourite: favourite,
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

    /// Said on the status line of the photo on its way once it opens (what
    /// the trash or the key handler did before it was opened).
    private var carriedMessage: String?

    /// `Y`: the image itself to the clipboard through kitty's clipboard
    /// protocol (through tmux's passthrough, a packet at a time); kitty's
    /// answer says whether it took it (`clipboardAnswer`).
    private func copyImage() {
        guard drawing.traits.takesClipboardImages else {
            _ = viewer?.handle(
                .message("no image clipboard in this terminal (kitty 0.27+ has one); y copies the path"))
            return
        }
        let (items, said) = ClipboardImage.items(bytes: viewerBytes, picture: viewerFrames.first)
        guard !items.isEmpty else { return }
        for packet in ClipboardImage.packets(items) {
            write(drawing.multiplexer.wrapsGraphics ? Passthrough.wrap(packet) : packet)
        }
        _ = viewer?.handle(.message("copying the image to the clipboard (\(said))…"))
    }

    /// kitty's answer to `Y`'s write, on the status line.
    private func clipboardAnswer(_ status: String) {
        let text =
            switch status {
            case "DONE": "copied the image to the clipboard"
            case "EPERM": "the terminal refused the clipboard (kitty: clipboard_control)"
            default: "the terminal could not take the image (\(status))"
            }
        _ = viewer?.handle(.message(text))
    }

    /// The folder `s` offers for a file's copy: the last one saved into,
    /// at first the current one.
    private var saveFolderSuggestion = FileManager.default.currentDirectoryPath

    /// Ctrl-X KEY: the user's key handler run with the marked files' paths
    /// (or `current`'s) on its standard input, the terminal the shell's
    /// while it runs; then everything drawn again and the shown photo read
    /// again, as nsxiv does (a handler may have rotated or edited it).
    private func runKeyHandler(_ key: String, current: Photo?) {
        let say: (String) -> Void = { text in
            if self.viewer != nil { _ = self.viewer?.handle(.message(text)) } else { self.browser?.message = text }
        }
        guard let handler = options.keyHandler, let session else {
            say("there is no key handler here")
            return
        }
        guard let input = KeyHandler.input(marked: markedLinks, current: current?.link) else {
            say("the key handler takes local files")
            return
        }
        guard access(handler, X_OK) == 0 else {
            say("no key handler: make \(handler) an executable (see the README)")
            return
        }
        write(backend.teardown())
        let ending = session.lend { Subprocess.run([handler, key], input: input) }
        redrawEverything()
        let name = "key-handler \(key)"
        let said: String
        switch ending {
        case .exited(0): said = "\(name): done"
        case .exited(let status): said = "\(name): exit status \(status)"
        case .signalled(let signal): said = "\(name): ended by signal \(signal)"
        case .notStarted(let code): said = "\(name): cannot run: \(String(cString: strerror(code)))"
        }
        if let shown = viewer?.photo, shown.link?.first == UInt8(ascii: "/") {
            open(shown)
            carriedMessage = said
        }
        say(said)
    }

    /// The viewed photo's frames as decoded, before any turn (`<` `>` `|` `^`).
    private var viewerFrames: [RGBAImage] = []

    /// Numbers each viewer visit, so a sixel palette or a kitty upload is never
    /// taken for another photo's (thumbnail keys are photo ids, positive).
    private var viewerSerial = 0

    private func closeViewer() {
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
    fileprivate func viewerTimeout() -> Int? {
        let now = MonotonicClock.milliseconds()
        guard let wake = viewer?.nextWakeMs(now: now) else { return nil }
        return max(0, wake - now)
    }

    /// Ticks the viewer when its wake-up is due; true when it was (draw again:
    /// the painter writes nothing if the picture and the text stay the same).
    fileprivate func tickViewer() -> Bool {
        let now = MonotonicClock.milliseconds()
        guard let wake = viewer?.nextWakeMs(now: now), wake <= now else { return false }
        perform(viewer?.handle(.tick(timeMs: now)) ?? [])
        return true
    }
}
