import Decoding
import Photos
import Pixels
import Rendering
import Scaling
import Terminal

/// Something the viewer asks the I/O loop to do; the state machine itself
/// never touches the terminal, the network or the disk.
package enum ViewerEffect: Equatable, Sendable {
    /// Save the image (as `pxview save` does): into `folder`, or where
    /// the command saves when nil (a Pixabay photo: the current folder).
    case save(folder: String?)
    /// Run the key handler with this KEY argument (`KeyHandler`).
    case runKeyHandler(String)
    /// Add or remove the photo from the favourites (a Pixabay photo's only).
    case toggleFavourite
    /// Back to the browser.
    case close
    /// Leave the program (the viewer was opened directly).
    case quit
    /// The view now needs more pixels than were decoded: decode the full image once.
    case needFullResolution
    /// The next (+1) or previous (-1) photo: of the grid, the folder or the
    /// files given to `show`.
    case step(Int)
    /// The first (`last` false) or last photo of the same.
    case stepToEnd(last: Bool)
    /// Put the photo's link (`Photo.link`) on the terminal's clipboard.
    case copyLink
    /// Put the image itself on the terminal's clipboard (`ClipboardImage`).
    case copyImage
    /// Mark the photo, or unmark it (`show -o` prints the marked).
    case toggleMark
    /// The picture is now turned so: its frames turned again.
    case turn(ImageTurn)
    /// The slideshow's time for this photo is up: the next (after the last, the first).
    case slideshowNext
    /// `D` confirmed with `y`: the photo's file to the trash, then the next.
    case trash
}

/// A question the viewer's status line asks.
package enum ViewerQuestion: Equatable, Sendable {
    /// `D`: `y` moves the file to the trash.
    case trash
    /// Ctrl-X: the key for the key handler.
    case keyHandler
    /// `s` on a file: the folder for its copy, as typed so far.
    case saveFolder(String)
}

/// What can happen to the viewer: input (with a monotonic time in ms, for
/// double clicks and the animation's clock), the animation's wake-up time
/// coming, a new window size, or an answer to one of its effects.
package enum ViewerEvent: Equatable, Sendable {
    case input(InputEvent, timeMs: Int)
    /// The time `nextWakeMs` asked for has come (or passed).
    case tick(timeMs: Int)
    case resized(ViewerLayout)
    /// The full-resolution decode arrived: its pixel size.
    case fullResolutionDecoded(PixelSize)
    case favouriteChanged(isFavourite: Bool)
    /// A one-line message for the status line ("saved to …", an error).
    case message(String)
}

/// The picture viewer as a pure state machine: `handle` maps an event to a
/// new state plus effects; drawing is a function of the state alone.
///
/// Zoom follows the original app: 1x is the fitted picture, `+`/`-` pinch
/// by 1.25 about the view's centre, the wheel about the pointer, `z` and a
/// double click toggle 1x/2x, `0`/`r` reset. `Viewport` does the math and
/// the clamping (zoom from fit/4 up to 16 native pixels per image pixel).
package struct ViewerState: Equatable, Sendable {
    /// The fit modes `f` cycles through.
    package static let fitCycle: [FitMode] = [.contain, .cover, .actual]
    /// One pinch step.
    package static let zoomStep = 1.25
    /// One arrow-key pan: a fifth of the view.
    package static let panStep = 0.2
    /// Two left presses closer than this (and within one cell) are a double click.
    package static let doubleClickMs = 400

    package var viewport: Viewport
    package var layout: ViewerLayout
    /// The photo shown: it says its title, its save name and whether it can be a favourite.
    package let photo: Photo
    /// A Pixabay photo's `#ID` to its page and its photographer's name to
    /// their profile (OSC 8), for the status and info rows: made once for
    /// the photo (the name sanitized, the profile's URL percent-encoded),
    /// not at every frame.
    package let links: [TextLink]
    /// Shown in the info line: the file name or "#id".
    package var title: String { photo.title }
    /// The decoded image's size in pixels (smaller than the full image when
    /// the decoder scaled it down to the view).
    package var decodedSize: PixelSize
    /// The full image's size in pixels.
    package var fullSize: PixelSize
    package var showInfo = false
    /// What the colour step did ("Display P3 → sRGB"), for the info line; nil for sRGB.
    package var colour: String?
    /// What the camera wrote (`PhotoDetails`), for the info line.
    package var details: String?
    /// Where the photo is among those `n`/`p` step through ("2/12"), for the
    /// status line; nil for a photo shown alone.
    package var position: String?
    /// Marked with `m` (the status line's title says so).
    package var isMarked = false
    /// The question the status line asks, if any: the next key answers it
    /// (a folder: the line typed).
    package internal(set) var question: ViewerQuestion?
    /// Where `s` puts a copy of a file (`show --out`); nil: `s` asks,
    /// offering `saveFolderSuggestion`.
    package var saveFolder: String?
    /// The folder `s` offers for a copy: the last one answered, at first
    /// the current folder (the loop sets it).
    package var saveFolderSuggestion = ""
    /// How the picture is turned (`<` `>` `|` `^`); `fullSize` and
    /// `decodedSize` are the turned picture's.
    package internal(set) var turn = ImageTurn()
    /// The slideshow's time a photo (ms) while it runs (`S`, `--slideshow`).
    package internal(set) var slideshowMs: Int?
    /// When the slideshow moves on: set at the first tick after the photo
    /// is shown, so the time counts from the picture.
    package internal(set) var slideDueMs: Int?
    /// `S` without `--slideshow`: five seconds a photo, as feh's and imv's default is close to.
    package static let defaultSlideshowMs = 5000
    /// What `S` starts the slideshow with (the last one run, or `--slideshow`'s).
    package var slideshowStartMs = ViewerState.defaultSlideshowMs
    package var showHelp = false
    package var isFavourite = false
    package var message: String?
    /// An animated image's clock (nil for a still image): the frame shown.
    package internal(set) var animation: AnimationState?
    /// A lasting note about how pictures are drawn (`BrowserState.notice`).
    package var notice: GraphicsShortfall?
    /// True when closing leaves the program instead of returning to a browser.
    package var openedDirectly: Bool
    package internal(set) var fullResolutionRequested = false
    /// The last drag position (0-based cell), while the left button is down.
    package internal(set) var dragFrom: CellPoint?
    package internal(set) var lastClick: (CellPoint, Int)?
    /// False from a change of the view (a zoom, a pan, a fit, a frame step)
    /// until `settleMs` pass without another: while keys repeat, sixel
    /// pictures take the fast ordered pattern, and the view that settles is
    /// drawn again diffused like `show`'s (`drawsSettled`). A view just
    /// opened is settled: nothing is moving it.
    package internal(set) var isSettled = true
    /// When the view settles, while it is not settled.
    package internal(set) var settlesAtMs: Int?

    /// How long after the last change of view the picture is drawn the
    /// settled way. Held keys repeat every 25–40 ms (X's default is 25 a
    /// second, after 660 ms), so they never wait this long; a diffused
    /// 1200x800 sixel frame costs about twice the fast one, so within a
    /// burst of keys the fast frames keep up, and the settled picture is on
    /// the screen about 150 ms after the last key.
    package static let settleMs = 120

    /// A 0-based cell, for mouse bookkeeping.
    package struct CellPoint: Equatable, Sendable {
        package var column: Int
        package var row: Int
    }

    /// `frameDelays` (the frames' playback delays, ms) and `plays` (passes
    /// in all, 0: for ever) for an animation; a still image has none.
    /// `showInfo`: the info line on from the start (`n`/`p` keep it as `i`
    /// left it, as nsxiv's bar stays). `position`: see `position`.
    package init(
        photo: Photo, fullSize: PixelSize, decodedSize: PixelSize, layout: ViewerLayout,
        openedDirectly: Bool, framing: ViewFraming = ViewFraming(), isFavourite: Bool = false, frameDelays: [Int] = [],
        plays: Int = 0, showInfo: Bool = false, position: String? = nil, slideshowMs: Int? = nil,
        colour: String? = nil,
        details: String? = nil
    ) {
        self.position = position
        self.colour = colour
        self.details = details
        self.slideshowMs = slideshowMs
        if let slideshowMs { slideshowStartMs = slideshowMs }
        if frameDelays.count > 1 { animation = AnimationState(delays: frameDelays, plays: plays) }
        self.photo = photo
        links = Self.links(photo)
        self.fullSize = fullSize
        self.decodedSize = decodedSize
        self.layout = layout
        self.openedDirectly = openedDirectly
        // A file is never one, whatever the favourites hold: its id is its
        // place in its list, which a Pixabay photo's id can equal.
        self.isFavourite = isFavourite && photo.isFavouritable
        viewport = Viewport(
            imageSize: layout.screen.unitImageSize(fullSize), viewSize: layout.viewSize, fit: framing.fit,
            zoom: framing.zoom, centerX: framing.centerX, centerY: framing.centerY)
        fullResolutionRequested = decodedSize.width >= fullSize.width
        if showInfo {
            self.showInfo = true
            relayout(screen: layout.screen)
        }
    }

    private static func links(_ photo: Photo) -> [TextLink] {
        guard let hit = photo.pixabayHit else { return [] }
        return [
            hit.pageLink.map { TextLink(text: photo.title, url: $0) },
            hit.profileLink.map { TextLink(text: TerminalText.sanitize(hit.user), url: $0) },
        ].compactMap { $0 }
    }

    /// `links` is not compared: it is made from `photo`, which is.
    package static func == (lhs: ViewerState, rhs: ViewerState) -> Bool {
        lhs.viewport == rhs.viewport && lhs.layout == rhs.layout && lhs.photo == rhs.photo
            && lhs.decodedSize == rhs.decodedSize && lhs.fullSize == rhs.fullSize && lhs.showInfo == rhs.showInfo
            && lhs.colour == rhs.colour && lhs.details == rhs.details && lhs.position == rhs.position
            && lhs.isMarked == rhs.isMarked && lhs.turn == rhs.turn
            && lhs.slideshowMs == rhs.slideshowMs && lhs.slideDueMs == rhs.slideDueMs
            && lhs.question == rhs.question && lhs.saveFolder == rhs.saveFolder
            && lhs.saveFolderSuggestion == rhs.saveFolderSuggestion
            && lhs.showHelp == rhs.showHelp && lhs.isFavourite == rhs.isFavourite && lhs.message == rhs.message
            && lhs.openedDirectly == rhs.openedDirectly && lhs.fullResolutionRequested == rhs.fullResolutionRequested
            && lhs.dragFrom == rhs.dragFrom && lhs.lastClick?.0 == rhs.lastClick?.0
            && lhs.lastClick?.1 == rhs.lastClick?.1 && lhs.animation == rhs.animation
            && lhs.isSettled == rhs.isSettled && lhs.settlesAtMs == rhs.settlesAtMs
    }

    /// Applies `event`; returns what the I/O loop must do.
    package mutating func handle(_ event: ViewerEvent) -> [ViewerEffect] {
        switch event {
        case .tick(let time):
            animation?.advance(to: time)
            if let due = settlesAtMs, time >= due {
                isSettled = true
                settlesAtMs = nil
            }
            guard let interval = slideshowMs else { return [] }
            guard let due = slideDueMs else {
                slideDueMs = time + interval
                return []
            }
            guard time >= due else { return [] }
            // Not again before another interval, while the next photo comes.
            slideDueMs = time + interval
            return [.slideshowNext]
        case .input(let input, let time):
            let view = (viewport, frameIndex)
            var effects = handleInput(input, timeMs: time)
            if view != (viewport, frameIndex) {
                isSettled = false
                settlesAtMs = time + Self.settleMs
            }
            if needsFullResolution {
                fullResolutionRequested = true
                effects.append(.needFullResolution)
            }
            return effects
        case .resized(let newLayout):
            relayout(screen: newLayout.screen)
            if needsFullResolution {
                fullResolutionRequested = true
                return [.needFullResolution]
            }
            return []
        case .fullResolutionDecoded(let size):
            decodedSize = size
            fullResolutionRequested = true
            return []
        case .favouriteChanged(let isFavourite):
            self.isFavourite = isFavourite
            message = isFavourite ? "added to favourites" : "removed from favourites"
            return []
        case .message(let text):
            message = text
            return []
        }
    }

    /// Lays the viewer out for `geometry`, the info line on a row of its own
    /// when it is on and would not fit beside the title and the zoom (80
    /// columns cut it at "fit c…"); the view keeps its zoom and centre.
    mutating func relayout(screen: BackendGeometry) {
        let newLayout = ViewerLayout(
            screen: screen, infoLine: showInfo && ViewerPlan.infoNeedsItsOwnLine(self, width: screen.windowCells.width))
        guard newLayout != layout else { return }
        layout = newLayout
        viewport = viewport.resized(to: newLayout.viewSize)
        viewport.imageSize = newLayout.screen.unitImageSize(fullSize)
        viewport = viewport.clamped()
    }

    /// The frame to draw: 0 for a still image.
    package var frameIndex: Int { animation?.frame ?? 0 }

    /// When the I/O loop must send `.tick` next (ms, the clock of the events):
    /// the animation's next frame or the view settling, whichever comes
    /// first; nil when nothing is due (a settled still image, a paused or
    /// finished animation).
    package func nextWakeMs(now: Int) -> Int? {
        let slide = slideshowMs == nil ? nil : slideDueMs ?? now
        let times = [animation?.wakeTime(now: now), settlesAtMs, slide].compactMap { $0 }
        return times.min()
    }

    /// Whether the picture is drawn the settled way (sixel: diffused as
    /// `show` draws it): the view has settled and no animation is playing
    /// (its frames keep the ordered pattern, which does not boil from
    /// frame to frame where the picture stands still).
    package var drawsSettled: Bool {
        guard isSettled else { return false }
        guard let animation else { return true }
        return animation.isPaused || animation.isFinished
    }

    /// True when the view shows more screen units per decoded pixel than one,
    /// and the decoder had scaled the image down.
    package var needsFullResolution: Bool {
        guard !fullResolutionRequested, decodedSize.width < fullSize.width, decodedSize.width > 0 else { return false }
        let unitsPerDecodedPixel = viewport.scale * Double(viewport.imageSize.width) / Double(decodedSize.width)
        return unitsPerDecodedPixel > 1.0001
    }

    mutating func handleInput(_ input: InputEvent, timeMs: Int) -> [ViewerEffect] {
        switch input {
        case .key(let key):
            message = nil
            return handleKey(key, timeMs: timeMs)
        case .mouse(let mouse):
            return handleMouse(mouse, timeMs: timeMs)
        case .paste(let text):
            // Only the folder's line takes a paste (the name of a folder).
            guard case .saveFolder(let typed) = question else { return [] }
            askFolder(typed + TerminalText.sanitize(text))
            return []
        case .unknown:
            return []
        }
    }

    mutating func handleMouse(_ mouse: MouseEvent, timeMs: Int) -> [ViewerEffect] {
        let cell = CellPoint(column: mouse.x - 1, row: mouse.y - 1)
        switch mouse.kind {
        case .wheelUp: viewport = viewport.zoomed(by: Self.zoomStep, anchor: anchor(at: cell))
        case .wheelDown: viewport = viewport.zoomed(by: 1 / Self.zoomStep, anchor: anchor(at: cell))
        case .press(.left):
            if let (previous, time) = lastClick, timeMs - time <= Self.doubleClickMs,
                abs(previous.column - cell.column) <= 1, abs(previous.row - cell.row) <= 1
            {
                viewport = viewport.toggledOneTwo(anchor: anchor(at: cell))
                lastClick = nil
            } else {
                lastClick = (cell, timeMs)
            }
            dragFrom = cell
        case .drag(.left):
            if let from = dragFrom {
                let units = layout.screen.unitsPerCell
                // Dragging the picture right shows what is left of it.
                let dx = Double((from.column - cell.column) * units.width)
                let dy = Double((from.row - cell.row) * units.height)
                viewport = viewport.panned(byViewPixelsX: dx, y: dy)
                // A drag is not the first half of a double click.
                if from != cell { lastClick = nil }
            }
            dragFrom = cell
        case .release(.left):
            dragFrom = nil
        default: break
        }
        return []
    }

    /// The anchor `Viewport` wants for a cell: output units from the drawn
    /// output's top-left.
    func anchor(at cell: CellPoint) -> (x: Double, y: Double) {
        viewport.outputPoint(fromViewPoint: layout.viewPoint(column: cell.column, row: cell.row))
    }

    /// `ms` as the status line says it: "5 s", "1.5 s".
    package static func seconds(_ ms: Int) -> String {
        ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }

    package static func fitName(_ fit: FitMode) -> String {
        switch fit {
        case .contain: return "contain"
        case .cover: return "cover"
        case .down: return "down"
        case .actual: return "1:1 pixels"
        }
    }

    /// Every key, for `?`, `--help` and the README: aligned columns.
    package static var helpLines: [String] { KeyHelp.lines(KeyHelp.viewer) }
}
