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
    let source: (any PhotoSource)?

    /// Searches, thumbnails and photos fetched and decoded off the loop.
    var work: ExplorerWork

    let favourites: ExplorerFavourites

    var drawing: DrawingPlan

    let options: ExplorerOptions

    let completions: CompletionQueue

    /// The one backend of this run: the browser's tiles and the viewer's
    /// picture are its slots (another one only after a late probe).
    var backend: any GraphicsBackend

    var decoder = InputDecoder()

    var writer: FrameWriter

    /// Inside tmux, with pictures going through passthrough: whether they
    /// may be drawn now and where.
    var pane: PaneKeeper

    /// A frame was held back while pictures could not be drawn.
    var frameDeferred = false

    var browser: BrowserState?

    var browserPainter: BrowserPainter?

    var thumbnails: [Int: RGBAImage] = [:]

    var viewer: ViewerState?

    var viewerPainter: ViewerPainter?

    var viewerBytes: [UInt8] = []

    /// The photo whose large image is on its way (a newer request wins);
    /// the work for any other stops before its decode.
    var opening: Int? {
        didSet {
            work.wanted.set(opening)
            if opening != oldValue { decodingSinceMs = nil }
        }
    }

    /// The photo `opening` names.
    var openingPhoto: Photo?

    /// When the photo on its way began decoding (its bytes came).
    var decodingSinceMs: Int?

    /// The viewer opened directly, before its first photo has come.
    var waiting: OpeningState?

    /// What was last drawn of `waiting` (drawn again only when it changes).
    var waitingDrawn: [UInt8] = []

    var exitStatus: Int32?

    var lateProbe: LateProbe?

    /// The photos marked with `m` (the grid's own set when there is a grid),
    /// as links, in their list's order.
    var markedIDs: Set<Int> = []

    /// The lines of the photos that failed before the viewer opened.
    var failedBeforeViewer: [String] = []

    /// The terminal session while the loop runs (job control needs it).
    var session: TerminalSession?

    /// True between coming back from a stop and the SIGCONT that reports it.
    var resumedFromStop = false

    /// When the backend's follow-up to the last frame is due (`GraphicsBackend.followUp`).
    var followUps: [Int] = []

    /// When input last came from the terminal: a pending Esc is a key of
    /// its own only `InputDecoder.escapeTimeoutMilliseconds` after it.
    var lastInputMs = 0

    /// Events decoded from input read outside the poll loop.
    var pendingEvents: [InputEvent] = []

    /// The photo `n`/`p` lead to: the grid's neighbour, or the next of the
    /// files given; at either end the viewer says so.
    var sequence = PhotoSequence()

    /// The command's `--fit`/`--zoom`/`--center`, for every photo `n` steps to.
    var framing = ViewFraming()

    /// Said on the status line of the photo on its way once it opens (what
    /// the trash or the key handler did before it was opened).
    var carriedMessage: String?

    /// The folder `s` offers for a file's copy: the last one saved into,
    /// at first the current one.
    var saveFolderSuggestion = FileManager.default.currentDirectoryPath

    /// The viewed photo's frames as decoded, before any turn (`<` `>` `|` `^`).
    var viewerFrames: [RGBAImage] = []

    /// Numbers each viewer visit, so a sixel palette or a kitty upload is never
    /// taken for another photo's (thumbnail keys are photo ids, positive).
    var viewerSerial = 0

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
    static func drawingParts(_ drawing: DrawingPlan, options: ExplorerOptions) -> (
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
    struct LateProbe {
        let tmux: Tmux?
        var lastCheckMs = 0
    }

    /// Why pictures are text, when the user can change it.
    var notice: GraphicsShortfall? {
        drawing.shortfall
    }

    /// The window in the backend's units.
    var screen: BackendGeometry { backend.screen }

    func runBrowser(query: SearchQuery, folder: String? = nil) -> ExplorerOutcome {
        work.filters = query
        var state = BrowserState(
            layout: BrowserLayout(screen: screen, nameLines: folder != nil), query: query.q,
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
        photo: Photo, bytes: [UInt8]?, framing: ViewFraming, sequence: [Photo] = []
    ) -> ExplorerOutcome {
        self.sequence = PhotoSequence(sequence, showing: photo)
        self.framing = framing
        waiting = OpeningState(title: photo.title, hasNext: self.sequence.hasNext)
        let status = run { self.open(photo, bytes: bytes) }
        let failures = waiting?.failures ?? failedBeforeViewer
        return ExplorerOutcome(status: failures.isEmpty ? status : max(status, 1), failures: failures, marked: markedLinks)
    }

    var markedLinks: [[UInt8]] {
        let (photos, marked) = browser.map { ($0.photos, $0.markedIDs) } ?? (sequence.photos, markedIDs)
        return photos.filter { marked.contains($0.id) }.compactMap(\.link)
    }

    // MARK: The loop

    func run(_ start: () -> Void) -> Int32 {
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
                if drawing.backendType.leavesPixelsOutsideMovedPanes { pane.redrawClient() }
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
                let count = buffer.withUnsafeMutableBytes { Descriptor.read(options.inputFD, into: $0) }
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
}
