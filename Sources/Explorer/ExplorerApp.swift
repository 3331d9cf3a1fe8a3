import Decoding
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

/// Saves the viewed photo's bytes (under the name the photo says) into
/// `folder` (nil: where the command saves); returns the message to show
/// ("saved …").
package typealias ExplorerSaveAction = @Sendable (_ bytes: [UInt8], _ photo: Photo, _ folder: String?) throws -> String

/// `D` then `y` in the viewer: the file at this location (an absolute path)
/// moved to the trash; the message to show, or an error saying why not.
package typealias ExplorerTrashAction = @Sendable (_ location: [UInt8]) throws -> String

/// Everything else the explorer needs from the command line.
package struct ExplorerOptions: Sendable {
    package var favourites: FavouritesStore?
    package var save: ExplorerSaveAction?
    package var maxPixels: Int
    package var inputFD: Int32
    package var outputFD: Int32
    /// Keys typed while the terminal was probed (the probe read them with
    /// its answers): handled first, so a `q` typed at once over a slow link
    /// still quits.
    package var typedAhead: [UInt8]
    /// Asks the terminal again and decides anew how to draw, as at the
    /// start (`ExplorerReprobe`); nil when it still could not ask.
    package var reprobe: ExplorerReprobe?
    /// What the image libraries wrote to stderr while the explorer ran
    /// (captured, never on the screen), once the terminal is restored.
    package var librarySaid: (@Sendable ([UInt8]) -> Void)?
    /// A viewer's decode running this long is given up (its result
    /// dropped, the status line says so, `n` and `q` answered all along).
    package var decodeTimeoutMs: Int
    /// `show --slideshow`: the viewer starts a slideshow, this long a photo (ms).
    package var slideshowMs: Int?
    /// `D`: nil where there is no trash to move to (Pixabay's photos).
    package var trash: ExplorerTrashAction?
    /// `show --out`: where `s` puts a copy of a file without asking.
    package var saveFolder: String?
    /// Ctrl-X: the key handler's path (`KeyHandler.path`); nil: none here.
    package var keyHandler: String?

    /// The default: a 100-megapixel PNG, the largest `--max-pixels` allows,
    /// decodes in 2.2 s here; a hostile file in at most 0.9 s.
    package static let defaultDecodeTimeoutMs = 10_000

    /// `PXVIEW_DECODE_TIMEOUT_MS` (100 ms to 10 minutes), else the default.
    package static func decodeTimeoutMs(environment: [String: String]) -> Int {
        guard let text = environment["PXVIEW_DECODE_TIMEOUT_MS"], let value = Int(text), (100...600_000).contains(value)
        else { return defaultDecodeTimeoutMs }
        return value
    }

    package init(
        favourites: FavouritesStore? = nil, save: ExplorerSaveAction? = nil, maxPixels: Int = DecodeOptions.defaultMaxPixels,
        inputFD: Int32 = 0, outputFD: Int32 = 1, typedAhead: [UInt8] = [], reprobe: ExplorerReprobe? = nil,
        librarySaid: (@Sendable ([UInt8]) -> Void)? = nil, decodeTimeoutMs: Int = ExplorerOptions.defaultDecodeTimeoutMs
    ) {
        self.librarySaid = librarySaid
        self.decodeTimeoutMs = decodeTimeoutMs
        self.favourites = favourites
        self.save = save
        self.maxPixels = maxPixels
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.typedAhead = typedAhead
        self.reprobe = reprobe
    }
}

/// The start-up probe once more, for a pxview that could not ask at its
/// start (its tmux pane was not the active one): the new drawing plan and
/// the keys read with the answers; nil when it still could not ask.
package typealias ExplorerReprobe = @Sendable () -> (drawing: DrawingPlan, typedAhead: [UInt8])?

/// Why the explorer could not run.
package enum ExplorerError: Error, CustomStringConvertible {
    case notATerminal
    /// The viewer (`show`/`open` on one image) needs a terminal.
    case viewerNeedsATerminal
    case terminal(TerminalError)
    case decode(String, DecodeError)

    package var description: String {
        switch self {
        case .notATerminal: return "the explorer needs a terminal on standard input and output"
        case .viewerNeedsATerminal: return "the viewer needs a terminal on standard input and output"
        case .terminal(let error): return "terminal: \(error)"
        case .decode(let name, let error): return "cannot decode \(name): \(error)"
        }
    }
}

/// How an explorer run ended: the exit status, a line for each photo that
/// could not be opened before the viewer showed one (for stderr, once the
/// terminal is back), and the marked photos' links in their list's order
/// (`m`; `show -o` prints them).
package struct ExplorerOutcome: Sendable, Equatable {
    package var status: Int32
    package var failures: [String] = []
    package var marked: [[UInt8]] = []
}

/// The two entry points: the browser (`pxview`, `pxview search -i`) and the
/// viewer opened directly (`pxview show -i`, `pxview open`). Both block
/// until the user quits and return the exit status.
package enum ExplorerApp {
    /// `query` carries the filters (type, colours, order…) every page and
    /// every new search typed in the browser keeps; its `q` and `page` start it.
    /// `folder` names the folder of a `FileList` (`pxview show DIR`).
    package static func runBrowser(
        source: any PhotoSource, query: SearchQuery, drawing: DrawingPlan, options: ExplorerOptions = ExplorerOptions(),
        folder: String? = nil
    ) throws(ExplorerError) -> ExplorerOutcome {
        try checkTerminal(options)
        let loop = try ExplorerLoop(source: source, drawing: drawing, options: options)
        return loop.runBrowser(query: query, folder: folder)
    }

    /// Opens the viewer on `photo`: its `bytes` when the command fetched
    /// them, else fetched from `source`; framed as `framing` says (`--fit`,
    /// `--zoom`, `--center`). With a `sequence` (several files given to
    /// `show`), `n`/`p` step through it. The screen answers keys from the
    /// start (`q` while a photo still decodes); a photo that cannot be
    /// opened before the viewer shows one is a line of `failures` (for
    /// stderr, once the terminal is back) and the next is tried.
    package static func runViewer(
        photo: Photo, bytes: [UInt8]? = nil, framing: ViewFraming = ViewFraming(), drawing: DrawingPlan,
        options: ExplorerOptions = ExplorerOptions(), source: (any PhotoSource)? = nil, sequence: [Photo] = []
    ) throws(ExplorerError) -> ExplorerOutcome {
        try checkTerminal(options, viewer: true)
        let loop = try ExplorerLoop(source: source, drawing: drawing, options: options)
        return loop.runViewer(photo: photo, bytes: bytes, framing: framing, sequence: sequence)
    }

    /// The one "is this a terminal" check of every explorer entry point:
    /// the commands ask it before probing, the runs again before drawing.
    package static func checkTerminal(_ options: ExplorerOptions, viewer: Bool = false) throws(ExplorerError) {
        guard isatty(options.inputFD) == 1, isatty(options.outputFD) == 1 else {
            throw viewer ? .viewerNeedsATerminal : .notATerminal
        }
    }
}

/// Results of background work, handed to the loop through a lock-protected
/// queue plus one byte on a wake-up pipe the loop polls.
enum Completion: Sendable {
    case search(query: String, page: Int, outcome: SearchOutcome)
    /// `frames`: how many the file has (the image is the first).
    /// `drawing`: the `ExplorerWork.drawingGeneration` it was decoded for.
    case thumbnail(id: Int, image: RGBAImage?, fullSize: PixelSize?, frames: Int, drawing: Int)
    case viewerImage(photo: Photo, bytes: [UInt8], decoded: DecodedImage, drawing: Int)
    case viewerFailed(photo: Photo, message: String)
    /// `photo`'s bytes are in: its decode has begun (the clock for giving up starts).
    case decoding(photo: Photo)
    /// The full decode (every frame) for viewer visit `visit`.
    case fullResolution([RGBAImage]?, visit: Int)
    /// `Y`'s packets for viewer visit `visit`, and what they hold ("JPEG 1.2 MB + PNG 1920x1280").
    case clipboardImage([[UInt8]], said: String, visit: Int)
}

final class CompletionQueue: @unchecked Sendable {
    private let lock = Lock()
    private var items: [Completion] = []
    let readFD: Int32
    private let writeFD: Int32

    init() throws(ExplorerError) {
        do {
            (readFD, writeFD) = try makeWakePipe()
        } catch {
            throw .terminal(error)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func post(_ item: Completion) {
        lock.withLock { items.append(item) }
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    func take() -> [Completion] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ Descriptor.read(readFD, into: $0) }) > 0 {}
        return lock.withLock {
            defer { items = [] }
            return items
        }
    }
}
