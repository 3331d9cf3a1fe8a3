import Decoding
import Foundation
import Photos
import Pixabay
import Pixels
import Plumbing
import Rendering

/// The explorer's work off the loop: searches, thumbnails, a photo opened
/// in the viewer, its full decode and `Y`'s clipboard packets, each a
/// detached task that posts its result to the loop's completion queue
/// (the loop never blocks on the network, a decoder or an encoder).
struct ExplorerWork {
    let source: (any PhotoSource)?
    let completions: CompletionQueue
    /// The command line's filters, kept for every search the browser makes.
    var filters: SearchQuery
    let maxPixels: Int
    /// The colour step's transforms, shared by every decode of the run (a
    /// folder of one phone's photos builds one).
    let colourTransforms = ColourTransforms()
    /// Counts the ways of drawing this run has had (a late probe brings
    /// another): thumbnails and photos decoded for an earlier one are too
    /// small for the next and are dropped when they come.
    var drawingGeneration = 0

    /// One page of `query`'s results.
    func search(query: String, page: Int) {
        guard let source else { return }
        let queue = completions
        var request = filters
        request.q = query
        request.page = page
        Task.detached { [request] in
            let outcome: SearchOutcome
            do {
                outcome = SearchOutcome(try await source.photos(for: request))
            } catch {
                outcome = .failed("\(error)")
            }
            queue.post(.search(query: query, page: page, outcome: outcome))
        }
    }

    /// Each photo's thumbnail, decoded straight to about the tile size (DCT
    /// scaling for JPEGs); a tile shows an animation's first frame (and says
    /// how many there are).
    func loadThumbnails(
        _ photos: [Photo], size: ImageSize, tileBox: PixelSize, screen: BackendGeometry, drawing: DrawingPlan
    ) {
        guard let source else { return }
        let queue = completions
        var previews = DecodeSize.thumbnail(box: tileBox, screen: screen, maxPixels: maxPixels)
        var files = DecodeSize.thumbnail(box: tileBox, screen: screen, maxPixels: maxPixels, local: true)
        previews.maxFrames = 1
        files.maxFrames = 1
        previews.colourTransforms = colourTransforms
        files.colourTransforms = colourTransforms
        let generation = drawingGeneration
        for photo in photos {
            let options = photo.hasRenditions ? previews : files
            Task.detached {
                var decoded: DecodedImage?
                if let bytes = try? await source.bytes(of: photo, size: size) {
                    decoded = try? drawing.decode(bytes, options: options)
                }
                queue.post(
                    .thumbnail(
                        id: photo.id, image: decoded?.image, fullSize: decoded?.fullSize, frames: decoded?.frameCount ?? 1,
                        drawing: generation))
            }
        }
    }

    /// The photo the viewer waits for (`ExplorerLoop.opening`): work for one
    /// left behind stops before its decode.
    let wanted = WantedPhoto()

    /// `photo`'s large image (or `bytes`, when the command fetched them),
    /// fetched and decoded for a view of `viewSize` framed by `settings`.
    /// The decode runs on a thread of its own: decodes of photos `n` has
    /// already stepped past (each up to ~1 s of hostile file, unstoppable
    /// inside a C library) must not hold the two threads of the shared pool
    /// on a 2-core machine while the next photo waits behind them.
    func open(
        _ photo: Photo, bytes known: [UInt8]? = nil, viewSize: PixelSize, screen: BackendGeometry, drawing: DrawingPlan,
        settings: ViewFraming = ViewFraming()
    ) {
        let queue = completions
        let title = photo.title
        var framed = DecodeSize.options(box: viewSize, screen: screen, settings: settings, maxPixels: maxPixels)
        framed.colourTransforms = colourTransforms
        let options = framed
        let generation = drawingGeneration
        let wanted = self.wanted
        wanted.set(photo.id)
        let source = self.source
        Task.detached {
            let bytes: [UInt8]
            do {
                if let known {
                    bytes = known
                } else if let source {
                    bytes = try await source.bytes(of: photo, size: .large)
                } else {
                    return
                }
            } catch let error as LocalFileError {
                // A local file's error already names it.
                queue.post(.viewerFailed(photo: photo, message: "\(error)"))
                return
            } catch {
                queue.post(.viewerFailed(photo: photo, message: "cannot open \(title): \(error)"))
                return
            }
            guard wanted.is(photo.id) else { return }
            queue.post(.decoding(photo: photo))
            switch await OwnThread.run({ () -> Result<DecodedImage, DecodeError> in
                Result { () throws(DecodeError) in try drawing.decode(bytes, options: options) }
            }) {
            case .success(let decoded):
                queue.post(.viewerImage(photo: photo, bytes: bytes, decoded: decoded, drawing: generation))
            case .failure(let error):
                queue.post(.viewerFailed(photo: photo, message: "cannot decode \(title): \(error)"))
            }
        }
    }

    /// Every frame of `bytes` at full size, for viewer visit `visit`.
    func decodeFully(_ bytes: [UInt8], visit: Int, drawing: DrawingPlan) {
        let queue = completions
        let options = DecodeOptions(maxPixels: maxPixels, colourTransforms: colourTransforms)
        Task.detached {
            let frames = try? drawing.decode(bytes, options: options).frames.map(\.image)
            queue.post(.fullResolution(frames, visit: visit))
        }
    }

    /// `Y`'s packets for viewer visit `visit`: `bytes` as they are and, for
    /// a file not a PNG, a PNG of `picture`, all in Base64 (`ClipboardImage`).
    /// A 12 MP picture's PNG and Base64 take some 0.2 s, which keys and
    /// frames must not wait for; none go when there is nothing to copy.
    func clipboardImage(bytes: [UInt8], picture: RGBAImage?, visit: Int) {
        let queue = completions
        Task.detached {
            let (items, said) = ClipboardImage.items(bytes: bytes, picture: picture)
            guard !items.isEmpty else { return }
            queue.post(.clipboardImage(ClipboardImage.packets(items), said: said, visit: visit))
        }
    }
}

/// Which photo the viewer is waiting for, shared with the work fetching it.
final class WantedPhoto: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var id: Int?

    func set(_ id: Int?) { lock.withLock { self.id = id } }

    func `is`(_ id: Int) -> Bool { lock.withLock { self.id == id } }
}

/// Work on a thread of its own, outside Swift's cooperative pool (as wide
/// as the machine has cores).
enum OwnThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
