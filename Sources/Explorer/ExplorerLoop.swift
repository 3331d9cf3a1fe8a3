import Decoding
import Encoding
import Foundation
import Glibc
import Pixabay
import Pixels
import Rendering
import Terminal

/// The thin I/O loop around the two state machines: poll(2) on the
/// terminal, the signal pipe and the completion pipe; feed events to the
/// current screen; run its effects (network and decoding in Tasks, never
/// blocking the loop); write one frame per batch of events.
final class ExplorerLoop {
    private let source: (any PhotoSource)?
    /// The command line's filters, kept for every search the browser makes.
    private var filters = SearchQuery()
    private let display: ExplorerDisplay
    private let options: ExplorerOptions
    private let completions: CompletionQueue
    private var geometry: ScreenGeometry
    private var decoder = InputDecoder()
    private let writer: FrameWriter

    private var browser: BrowserState?
    private var browserPainter: BrowserPainter?
    private var thumbnails: [Int: RGBAImage] = [:]
    private var viewer: ViewerState?
    private var viewerPainter: ViewerPainter?
    private var viewerBytes: [UInt8] = []
    /// The hit whose large image is on its way (a newer request wins).
    private var opening: Int?
    private var exitStatus: Int32?

    init(source: (any PhotoSource)?, display: ExplorerDisplay, options: ExplorerOptions) throws(ExplorerError) {
        self.source = source
        self.display = display
        self.options = options
        completions = try CompletionQueue()
        geometry = display.geometry(window: windowSize(fd: options.outputFD))
        writer = FrameWriter(fd: options.outputFD, synchronizedOutput: display.capabilities?.synchronizedOutput ?? false)
    }

    func runBrowser(query: SearchQuery) -> Int32 {
        filters = query
        var state = BrowserState(layout: BrowserLayout(geometry: geometry), query: query.q, offline: source?.isOffline ?? true)
        if let store = options.favourites, let saved = try? store.list() { state.favouriteIDs = Set(saved.map(\.id)) }
        browserPainter = BrowserPainter(
                geometry: geometry, tmuxPassthrough: display.decision.tmuxPassthrough, colorRegisters: colorRegisters)
        let effects = state.start()
        browser = state
        return run { self.perform(effects) }
    }

    func runViewer(bytes: [UInt8], decoded: DecodedImage, title: String, hit: PixabayHit?, framing: ViewSettings) -> Int32 {
        openViewer(bytes: bytes, decoded: decoded, title: title, hit: hit, directly: true, framing: framing)
        return run {}
    }

    // MARK: The loop

    private func run(_ start: () -> Void) -> Int32 {
        let session: TerminalSession
        let signals: SignalPipe
        do {
            session = try TerminalSession(inputFD: options.inputFD, outputFD: options.outputFD)
            signals = try SignalPipe()
        } catch {
            return 1
        }
        session.installEmergencyRestore(signalPipe: signals)
        defer {
            var goodbye = browserPainter?.teardown() ?? []
            goodbye += viewerPainter?.teardown() ?? []
            if geometry.graphics == .kitty { goodbye += KittyEncoderBytes.deleteAll(tmux: display.decision.tmuxPassthrough) }
            try? writer.write(goodbye)
            session.restore()
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
            let timeout = decoder.hasPendingEscape ? InputDecoder.escapeTimeoutMilliseconds : -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return 1
            }
            var events: [InputEvent] = []
            if ready == 0 { events += decoder.flushPendingEscape() }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(options.inputFD, $0.baseAddress, $0.count) }
                if count > 0 {
                    events += decoder.feed(Array(buffer.prefix(count)))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    exitStatus = 1  // the terminal went away
                }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in signals.takeSignals() {
                    if signal == SIGWINCH {
                        relayout()
                    } else {
                        exitStatus = 128 + signal
                    }
                }
                dirty = true
            }
            if fds[2].revents & Int16(POLLIN) != 0 {
                for completion in completions.take() { apply(completion) }
                dirty = true
            }
            for event in events where exitStatus == nil {
                handle(event)
                dirty = true
            }
        }
        return exitStatus ?? 0
    }

    private func draw() {
        var frame: [UInt8]
        if let viewer, let viewerPainter {
            frame = viewerPainter.frame(for: viewer)
        } else if let browser, let browserPainter {
            frame = browserPainter.frame(for: browser, thumbnails: thumbnails)
        } else {
            return
        }
        if frame.isEmpty { return }
        frame += TerminalCommand.moveTo(row: geometry.windowCells.height, column: 1)
        try? writer.write(frame)
    }

    private func relayout() {
        geometry = display.geometry(window: windowSize(fd: options.outputFD))
        var out = browserPainter?.teardown() ?? []
        out += viewerPainter?.teardown() ?? []
        try? writer.write(out)
        if browser != nil {
            browserPainter = BrowserPainter(
                geometry: geometry, tmuxPassthrough: display.decision.tmuxPassthrough, colorRegisters: colorRegisters)
            perform(browser?.handle(.resized(BrowserLayout(geometry: geometry))) ?? [])
        }
        if let painter = viewerPainter {
            viewerPainter = ViewerPainter(
                image: painter.image, geometry: geometry, colorRegisters: colorRegisters,
                tmuxPassthrough: display.decision.tmuxPassthrough, palette: painter.palette)
            perform(viewer?.handle(.resized(ViewerLayout(geometry: geometry))) ?? [])
        }
    }

    private var colorRegisters: Int {
        min(display.capabilities?.colorRegisters ?? DisplayTarget.sixelPaletteColors, DisplayTarget.sixelPaletteColors)
    }

    // MARK: Events and effects

    private func handle(_ event: InputEvent) {
        if viewer != nil {
            let time = Int(DispatchTime.now().uptimeNanoseconds / 1_000_000)
            perform(viewer?.handle(.input(event, timeMs: time)) ?? [])
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
            case .save:
                guard let state = viewer else { continue }
                let message: String
                if let save = options.save {
                    do {
                        message = try save(viewerBytes, state.hit, state.title)
                    } catch {
                        message = "cannot save: \(error)"
                    }
                } else {
                    message = "saving is not available here"
                }
                _ = viewer?.handle(.message(message))
            case .toggleFavourite:
                guard let hit = viewer?.hit else { continue }
                if let now = toggleFavourite(hit) { _ = viewer?.handle(.favouriteChanged(isFavourite: now)) }
            case .needFullResolution:
                let bytes = viewerBytes
                let maxPixels = options.maxPixels
                let queue = completions
                Task.detached {
                    let image = try? decodeImage(bytes, options: DecodeOptions(maxPixels: maxPixels)).image
                    queue.post(.fullResolution(image))
                }
            }
        }
    }

    private func perform(_ effects: [BrowserEffect]) {
        for effect in effects {
            switch effect {
            case .quit:
                exitStatus = 0
            case let .search(query, page):
                search(query: query, page: page)
            case .loadThumbnails(let hits):
                loadThumbnails(hits)
            case .openViewer(let hit):
                openFromBrowser(hit)
            case .toggleFavourite(let hit):
                if let now = toggleFavourite(hit) { perform(browser?.handle(.favouriteChanged(id: hit.id, isFavourite: now)) ?? []) }
            case .showFavourites:
                guard let store = options.favourites else {
                    perform(browser?.handle(.message("favourites are not available")) ?? [])
                    continue
                }
                do {
                    let entries = try store.list()
                    perform(browser?.handle(.favouritesLoaded(entries.map(\.hit))) ?? [])
                } catch {
                    perform(browser?.handle(.message("\(error)")) ?? [])
                }
            }
        }
    }

    /// Adds or removes `hit`; the new state, or nil after an error (shown).
    private func toggleFavourite(_ hit: PixabayHit) -> Bool? {
        guard let store = options.favourites else { return nil }
        do {
            if try store.contains(id: hit.id) {
                try store.remove(id: hit.id)
                return false
            }
            try store.add(hit)
            return true
        } catch {
            _ = viewer?.handle(.message("\(error)"))
            _ = browser?.handle(.message("\(error)"))
            return nil
        }
    }

    private func search(query: String, page: Int) {
        guard let source else { return }
        let queue = completions
        var request = filters
        request.q = query
        request.page = page
        Task.detached { [request] in
            let outcome: SearchOutcome
            do {
                outcome = SearchOutcome(try await source.search(request))
            } catch {
                outcome = .failed("\(error)")
            }
            queue.post(.search(query: query, page: page, outcome: outcome))
        }
    }

    private func loadThumbnails(_ hits: [PixabayHit]) {
        guard let source, let layout = browser?.layout else { return }
        let queue = completions
        // Decode straight to about the tile size (DCT scaling for JPEGs).
        let target = PixelSize(
            width: layout.tileCells.width * geometry.cellPixels.width, height: layout.tileCells.height * geometry.cellPixels.height)
        for hit in hits {
            Task.detached {
                var image: RGBAImage?
                if let bytes = try? await source.imageBytes(for: hit, size: .preview) {
                    image = try? decodeImage(bytes, options: DecodeOptions(maxPixels: 4_000_000, targetSize: target)).image
                }
                queue.post(.thumbnail(id: hit.id, image: image))
            }
        }
    }

    private func openFromBrowser(_ hit: PixabayHit) {
        guard let source else { return }
        opening = hit.id
        perform(browser?.handle(.message("opening #\(hit.id)…")) ?? [])
        let queue = completions
        let view = ViewerLayout(geometry: geometry).viewSize
        let maxPixels = options.maxPixels
        Task.detached {
            do {
                let bytes = try await source.imageBytes(for: hit, size: .large)
                let decoded = try decodeImage(bytes, options: DecodeOptions(maxPixels: maxPixels, targetSize: view))
                queue.post(.viewerImage(hit: hit, bytes: bytes, decoded: decoded))
            } catch {
                queue.post(.viewerFailed(hit: hit, message: "cannot open #\(hit.id): \(error)"))
            }
        }
    }

    private func apply(_ completion: Completion) {
        switch completion {
        case let .search(query, page, outcome):
            perform(browser?.handle(.searchFinished(query: query, page: page, result: outcome)) ?? [])
        case let .thumbnail(id, image):
            if let image { thumbnails[id] = image }
            perform(browser?.handle(.thumbnailFinished(id: id, loaded: image != nil)) ?? [])
        case let .viewerImage(hit, bytes, decoded):
            guard opening == hit.id, viewer == nil else { return }
            opening = nil
            _ = browser?.handle(.message(""))
            browser?.message = nil
            let isFavourite = browser?.favouriteIDs.contains(hit.id) ?? false
            openViewer(bytes: bytes, decoded: decoded, title: "#\(hit.id)", hit: hit, directly: false, isFavourite: isFavourite)
        case let .viewerFailed(hit, message):
            guard opening == hit.id else { return }
            opening = nil
            perform(browser?.handle(.message(message)) ?? [])
        case .fullResolution(let image):
            guard let image, let painter = viewerPainter else { return }
            painter.replaceImage(image)
            _ = viewer?.handle(.fullResolutionDecoded(image.size))
        }
    }

    private func openViewer(
        bytes: [UInt8], decoded: DecodedImage, title: String, hit: PixabayHit?, directly: Bool, isFavourite: Bool = false,
        framing: ViewSettings = ViewSettings()
    ) {
        if let painter = browserPainter { try? writer.write(painter.teardown()) }
        viewerBytes = bytes
        var favourite = isFavourite
        if let hit, let store = options.favourites, let saved = try? store.contains(id: hit.id) { favourite = saved }
        viewer = ViewerState(
            title: title, hit: hit, fullSize: decoded.fullSize, decodedSize: decoded.image.size,
            layout: ViewerLayout(geometry: geometry), openedDirectly: directly, framing: framing, isFavourite: favourite)
        viewerPainter = ViewerPainter(
            image: decoded.image, geometry: geometry, colorRegisters: colorRegisters,
            tmuxPassthrough: display.decision.tmuxPassthrough)
    }

    private func closeViewer() {
        if let painter = viewerPainter { try? writer.write(painter.teardown()) }
        if let hit = viewer?.hit, let browserState = browser {
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

/// kitty's delete-everything command, for the way out.
enum KittyEncoderBytes {
    static func deleteAll(tmux: Bool) -> [UInt8] {
        let bytes = KittyEncoder().deleteAll()
        return tmux ? TmuxPassthrough.wrap(bytes) : bytes
    }
}
