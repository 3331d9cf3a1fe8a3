import Decoding
import Photos
import Pixels
import Rendering
import Scaling
import Terminal

/// The viewer's keys: the one table that says what each does (and what
/// help lists), and what each does to the state; the questions the status
/// line asks and their answers; turning the picture.
extension ViewerState {
    /// What a key asks of the viewer.
    package enum KeyAction: Sendable, Equatable {
        case zoomIn, zoomOut, toggleOneTwo, reset, panLeft, panRight, panUp, panDown
        case edgeLeft, edgeRight, edgeTop, edgeBottom, cycleFit, playPause, previousFrame, nextFrame
        case rotateLeft, rotateRight, flipLeftRight, flipUpsideDown, slideshow, trash, keyHandler
        case nextPhoto, previousPhoto, firstPhoto, lastPhoto, info, save, copyLink, copyImage, mark, favourite, back, quit, help
    }

    /// The viewer's keys: what they do and how help lists them.
    package static let keys = KeyTable<KeyAction>([
        KeyLine("+ =", "zoom in (x1.25, about the centre)", keys: [(.char("+"), .zoomIn), (.char("="), .zoomIn)]),
        KeyLine("- _", "zoom out", keys: [(.char("-"), .zoomOut), (.char("_"), .zoomOut)]),
        KeyLine("wheel", "zoom about the pointer"),
        KeyLine("z, double-click", "toggle 1x / 2x", keys: [(.char("z"), .toggleOneTwo)]),
        .directions("pan by a fifth of the view", left: .panLeft, right: .panRight, up: .panUp, down: .panDown),
        KeyLine(
            "H J K L", "jump to the left/bottom/top/right edge",
            keys: [(.char("H"), .edgeLeft), (.char("J"), .edgeBottom), (.char("K"), .edgeTop), (.char("L"), .edgeRight)]),
        KeyLine("drag", "pan with the mouse"),
        KeyLine("0, r", "reset zoom (1x, centred)", keys: [(.char("0"), .reset), (.char("r"), .reset)]),
        KeyLine("f", "cycle fit: contain, cover, 1:1 pixels", keys: [(.char("f"), .cycleFit)]),
        KeyLine(
            "< >", "rotate 90° counter-clockwise / clockwise (the view only)",
            keys: [(.char("<"), .rotateLeft), (.char(">"), .rotateRight)]),
        KeyLine(
            "| ^", "flip left-right / upside down (the view only)",
            keys: [(.char("|"), .flipLeftRight), (.char("^"), .flipUpsideDown)]),
        KeyLine("Ctrl-A", "pause / play an animation (GIF, WebP, ...)", keys: [(.ctrl("a"), .playPause)]),
        KeyLine(", .", "previous / next frame (pausing)", keys: [(.char(","), .previousFrame), (.char("."), .nextFrame)]),
        KeyLine("S", "start / stop the slideshow (5 s a photo, or --slideshow's)", keys: [(.char("S"), .slideshow)]),
        KeyLine("n, Space", "next photo", keys: [(.char("n"), .nextPhoto), (.char(" "), .nextPhoto)]),
        KeyLine("p, Backspace", "previous photo", keys: [(.char("p"), .previousPhoto), (KeyChord(.backspace), .previousPhoto)]),
        KeyLine("g G", "first / last photo", keys: [(.char("g"), .firstPhoto), (.char("G"), .lastPhoto)]),
        KeyLine("i", "toggle the info line", keys: [(.char("i"), .info)]),
        KeyLine(
            "s", "save the image; a file's copy goes where you say or show --out (NAME-2, -3 if taken)",
            keys: [(.char("s"), .save)]),
        KeyLine("y", "copy the file's path (a Pixabay photo's page) to the clipboard", keys: [(.char("y"), .copyLink)]),
        KeyLine(
            "Y", "copy the image itself to the clipboard (kitty 0.27 and later)", keys: [(.char("Y"), .copyImage)]),
        KeyLine("m", "mark / unmark the photo (show -o prints the marked)", keys: [(.char("m"), .mark)]),
        KeyLine("D", "move the file to the trash (y confirms; never deleted)", keys: [(.char("D"), .trash)]),
        KeyLine(
            "Ctrl-X KEY", "run your key-handler KEY on the marked files (or this one)",
            keys: [(.ctrl("x"), .keyHandler)]),
        KeyLine("*", "toggle favourite", keys: [(.char("*"), .favourite)]),
        KeyLine("q, Esc", "back to the grid (or quit)", keys: [(.char("q"), .back), (KeyChord(.escape), .back)]),
        KeyLine("Ctrl-C", "quit", keys: [(.ctrl("c"), .quit)]),
        KeyLine("Ctrl-Z", "suspend to the shell (fg comes back)", keys: [(.ctrl("z"), nil)]),
        KeyLine("?", "this help (any key closes it)", keys: [(.char("?"), .help)]),
    ])

    mutating func handleKey(_ key: Key, timeMs: Int) -> [ViewerEffect] {
        let action = Self.keys.action(for: key)
        if action == .quit { return [.quit] }
        if let question {
            // The question's answer, whatever the key means otherwise.
            return answer(question, key: key)
        }
        if showHelp {
            // Any key closes the help; `q` and Esc only close it, too.
            showHelp = false
            return []
        }
        guard let action else { return [] }
        switch action {
        case .zoomIn: viewport = viewport.zoomed(by: Self.zoomStep)
        case .zoomOut: viewport = viewport.zoomed(by: 1 / Self.zoomStep)
        case .toggleOneTwo: viewport = viewport.toggledOneTwo()
        case .reset: viewport = viewport.reset()
        case .panLeft: viewport = viewport.panned(byViewFractionX: -Self.panStep, y: 0)
        case .panRight: viewport = viewport.panned(byViewFractionX: Self.panStep, y: 0)
        case .panUp: viewport = viewport.panned(byViewFractionX: 0, y: -Self.panStep)
        case .panDown: viewport = viewport.panned(byViewFractionX: 0, y: Self.panStep)
        case .edgeLeft: viewport = viewport.edge(.left)
        case .edgeRight: viewport = viewport.edge(.right)
        case .edgeTop: viewport = viewport.edge(.top)
        case .edgeBottom: viewport = viewport.edge(.bottom)
        case .cycleFit:
            let index = Self.fitCycle.firstIndex(of: viewport.fit) ?? 0
            var next = viewport
            next.fit = Self.fitCycle[(index + 1) % Self.fitCycle.count]
            next.zoom = 1
            viewport = next.clamped()
            message = "fit: \(Self.fitName(viewport.fit))"
        case .playPause, .previousFrame, .nextFrame:
            // Ctrl-A is nsxiv's key: Space and n/p already step through the photos.
            guard animation != nil else {
                message = "not an animation"
                return []
            }
            if action == .playPause {
                animation?.togglePause(at: timeMs)
            } else {
                animation?.step(action == .nextFrame ? 1 : -1)
            }
        case .info:
            showInfo.toggle()
            relayout(screen: layout.screen)
        case .help: showHelp = true
        case .save:
            // A copy of a file goes where the user says: never dropped in
            // whatever folder pxview was started from.
            guard photo.pixabayHit == nil else { return [.save(folder: nil)] }
            if let saveFolder { return [.save(folder: saveFolder)] }
            askFolder(saveFolderSuggestion)
        case .keyHandler:
            question = .keyHandler
            message = KeyHandler.prompt
        case .mark: return [.toggleMark]
        case .trash:
            guard photo.pixabayHit == nil, photo.link?.first == UInt8(ascii: "/") else {
                message = photo.pixabayHit == nil ? "only a local file can go to the trash" : "Pixabay photos cannot be trashed"
                return []
            }
            question = .trash
            message = "move \(title) to the trash? y: yes, any other key: no"
        case .slideshow:
            if slideshowMs == nil {
                slideshowMs = slideshowStartMs
                slideDueMs = timeMs + slideshowStartMs
                message = "slideshow: \(Self.seconds(slideshowStartMs)) a photo"
            } else {
                slideshowMs = nil
                slideDueMs = nil
                message = "slideshow stopped"
            }
        case .rotateLeft, .rotateRight, .flipLeftRight, .flipUpsideDown:
            let (next, said): (ImageTurn, String) =
                switch action {
                case .rotateLeft: (turn.rotated(clockwise: false), "turned 90° counter-clockwise")
                case .rotateRight: (turn.rotated(clockwise: true), "turned 90° clockwise")
                case .flipLeftRight: (turn.flippedLeftRight, "flipped left-right")
                default: (turn.flippedUpsideDown, "flipped upside down")
                }
            let effect = turned(to: next)
            message = next == ImageTurn() ? "as the file is" : said
            return [effect]
        case .copyLink:
            guard photo.link != nil else {
                message = "nothing to copy: where this photo came from is not known"
                return []
            }
            return [.copyLink]
        case .copyImage:
            return [.copyImage]
        case .favourite:
            guard photo.isFavouritable else {
                message = BrowserState.favouritesArePixabays
                return []
            }
            return [.toggleFavourite]
        case .nextPhoto: return [.step(1)]
        case .previousPhoto: return [.step(-1)]
        case .firstPhoto: return [.stepToEnd(last: false)]
        case .lastPhoto: return [.stepToEnd(last: true)]
        case .back: return [openedDirectly ? .quit : .close]
        case .quit: return [.quit]
        }
        return []
    }

    /// The answer to `question`: `y` for the trash, any key for the key
    /// handler (Esc: none), a line for the folder.
    mutating func answer(_ asked: ViewerQuestion, key: Key) -> [ViewerEffect] {
        question = nil
        switch asked {
        case .trash:
            guard key.code == .char("y") else {
                message = "kept \(title)"
                return []
            }
            return [.trash]
        case .keyHandler:
            guard let name = KeyHandler.argument(for: key) else {
                message = "no key handler run"
                return []
            }
            return [.runKeyHandler(name)]
        case .saveFolder(var typed):
            switch key.code {
            case .escape:
                message = "not saved"
            case .enter:
                let folder = String(typed.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                guard !folder.isEmpty else {
                    message = "not saved"
                    return []
                }
                saveFolderSuggestion = folder
                return [.save(folder: folder)]
            case .backspace:
                if !typed.isEmpty { typed.removeLast() }
                askFolder(typed)
            case .char("u") where key.modifiers.contains(.control):
                askFolder("")
            case .char(let character) where !key.modifiers.contains(.control):
                askFolder(typed + String(character))
            default:
                askFolder(typed)
            }
            return []
        }
    }

    /// The folder question, `typed` so far, on the status line.
    mutating func askFolder(_ typed: String) {
        let line = String(typed.prefix(Self.maxFolderCharacters))
        question = .saveFolder(line)
        message = "save a copy in: \(line)_  (Enter saves, Esc cancels)"
    }

    /// A folder's path as typed: PATH_MAX's 4096 bytes are more than a
    /// status line shows; this is more than anyone types.
    static let maxFolderCharacters = 1024

    /// The picture turned to `next`: sizes swapped when its axes do, the
    /// view back to the fit (1x, centred), as a new picture is shown.
    mutating func turned(to next: ImageTurn) -> ViewerEffect {
        if next.swapsAxes != turn.swapsAxes {
            fullSize = PixelSize(width: fullSize.height, height: fullSize.width)
            decodedSize = PixelSize(width: decodedSize.height, height: decodedSize.width)
        }
        turn = next
        viewport = Viewport(
            imageSize: layout.screen.unitImageSize(fullSize), viewSize: layout.viewSize, fit: viewport.fit, zoom: 1,
            centerX: 0.5, centerY: 0.5)
        return .turn(next)
    }
}
