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

/// What the screens ask of the loop: keys and clicks fed to them, their
/// effects run (saving, favourites, marks, stepping, the trash, the
/// clipboard, the key handler).
extension ExplorerLoop {
    /// `m` in the viewer: the photo marked or not, in the grid's set when
    /// there is a grid (its tile shows it).
    func toggleMark() {
        guard let photo = viewer?.photo else { return }
        var marked = browser?.markedIDs ?? markedIDs
        let isMarked = marked.insert(photo.id).inserted
        if !isMarked { marked.remove(photo.id) }
        if browser != nil { browser?.markedIDs = marked } else { markedIDs = marked }
        viewer?.isMarked = isMarked
        _ = viewer?.handle(.message("\(isMarked ? "marked" : "unmarked") · \(marked.count) marked"))
    }

    // MARK: Events and effects

    func handle(_ event: InputEvent) {
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

    func perform(_ effects: [ViewerEffect]) {
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
                let copy = TerminalCommand.copyToClipboard(base64: Base64.encode(link))
                write(drawing.multiplexer.wrapsGraphics ? Passthrough.wrap(copy) : copy)
                _ = viewer?.handle(.message("copied \(TerminalText.sanitize(String(decoding: link, as: UTF8.self)))"))
            case .needFullResolution:
                work.decodeFully(viewerBytes, visit: viewerSerial, drawing: drawing)
            }
        }
    }

    func perform(_ effects: [BrowserEffect]) {
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
    func toggleFavourite(_ hit: PixabayHit) -> Bool? {
        switch favourites.toggle(hit) {
        case .success(let now): return now
        case .failure(let message):
            _ = viewer?.handle(.message(message.text))
            _ = browser?.handle(.message(message.text))
            return nil
        case nil: return nil
        }
    }

    func search(query: String, page: Int) {
        work.search(query: query, page: page)
    }

    func loadThumbnails(_ photos: [Photo]) {
        guard let layout = browser?.layout, let size = browser?.thumbnailSize else { return }
        work.loadThumbnails(photos, size: size, tileBox: layout.tileBox, screen: screen, drawing: drawing)
    }

    func step(by delta: Int) {
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
    func stepToEnd(last: Bool) {
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
    func trashShown() {
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
    var place: (index: Int, count: Int) {
        browser.map { ($0.selection, $0.photos.count) } ?? (sequence.index, sequence.photos.count)
    }

    /// The shown photo's place for the viewer's status line ("2/12"): in
    /// the grid (of all its results), or among the files given.
    var position: String? {
        if let browser {
            return browser.photos.isEmpty ? nil : "\(browser.selection + 1)/\(max(browser.totalHits, browser.photos.count))"
        }
        return sequence.photos.count > 1 ? "\(sequence.index + 1)/\(sequence.photos.count)" : nil
    }

    /// `Y`: the image itself to the clipboard through kitty's clipboard
    /// protocol; its packets are made off the loop (`ExplorerWork.clipboardImage`)
    /// and written when they come (`writeClipboardImage`).
    func copyImage() {
        guard drawing.traits.takesClipboardImages else {
            _ = viewer?.handle(
                .message("no image clipboard in this terminal (kitty 0.27+ has one); y copies the path"))
            return
        }
        work.clipboardImage(bytes: viewerBytes, picture: viewerFrames.first, visit: viewerSerial)
    }

    /// `Y`'s packets, made for viewer visit `visit`, written (through tmux's
    /// passthrough, a packet at a time) while the viewer still shows that
    /// visit's photo; kitty's answer says whether it took them (`clipboardAnswer`).
    func writeClipboardImage(_ packets: [[UInt8]], said: String, visit: Int) {
        // Made for a photo since stepped past or closed: not the one shown.
        guard viewer != nil, visit == viewerSerial else { return }
        for packet in packets {
            write(drawing.multiplexer.wrapsGraphics ? Passthrough.wrap(packet) : packet)
        }
        _ = viewer?.handle(.message("copying the image to the clipboard (\(said))…"))
    }

    /// kitty's answer to `Y`'s write, on the status line.
    func clipboardAnswer(_ status: String) {
        let text =
            switch status {
            case "DONE": "copied the image to the clipboard"
            case "EPERM": "the terminal refused the clipboard (kitty: clipboard_control)"
            default: "the terminal could not take the image (\(status))"
            }
        _ = viewer?.handle(.message(text))
    }

    /// Ctrl-X KEY: the user's key handler run with the marked files' paths
    /// (or `current`'s) on its standard input, the terminal the shell's
    /// while it runs; then everything drawn again and the shown photo read
    /// again, as nsxiv does (a handler may have rotated or edited it).
    func runKeyHandler(_ key: String, current: Photo?) {
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
}
