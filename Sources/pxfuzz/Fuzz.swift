import CShims
import Explorer
import Foundation
import GraphicsReadback
import Photos
import Pixels
import Rendering
import TestSupport

@testable import Decoding
@testable import HTTP
@testable import Pixabay
@testable import Terminal

/// libFuzzer entry points, one binary for all (built only by
/// `scripts/fuzz.sh`, with `--sanitize fuzzer --sanitize address`; the
/// target is named by `PXFUZZ_TARGET`). Every input must be refused
/// cleanly or handled: a trap, an ASan report or a broken invariant is a
/// crash that libFuzzer saves.
enum FuzzTarget: String, CaseIterable {
    /// Every format through `decodeImage` (seeded with JPEG and PNG), with a small pixel limit.
    case decode
    /// The keyboard and mouse decoder: every split of the same bytes decodes the same.
    case input
    /// The probe-reply parser: every split parses the same.
    case probe
    /// Pixabay's JSON.
    case json
    /// A disk cache entry and the cached response inside it.
    case cache
    /// URL splitting, redaction and cache keys.
    case url
    /// The sixel and kitty readback decoders.
    case readback
    /// Each newer row of the codec table on its own (the bytes go straight to
    /// the row, sniffing skipped, so mutations of the signature still test it).
    case gif, webp, avif, heic, jxl
    /// Animations and derived images built from the input's first bytes
    /// (`HostileImages`): the canvas, the frames' rectangles and their
    /// number are the fuzzer's, so the shapes byte mutation seldom reaches
    /// (a huge canvas, a frame far past it, thousands of frames, a HEIF
    /// grid's own canvas) come every run; libFuzzer's memory and time
    /// limits catch what the budget misses, and the frames kept must fit it.
    case animation
    /// The colour step: the input as an ICC profile through lcms2 (parsed,
    /// built into a transform, applied), and as every format's container for
    /// the readers that find a file's colour description.
    case colour
    /// Keys, mouse reports and pastes through the grid's and the viewer's
    /// state machines and their frame plans: the header and status lines fit the window,
    /// the search field stays bounded. An input starting with 0xFF is
    /// repeated 256 times (up to a megabyte), so libFuzzer's timeout catches
    /// work that grows faster than the input (a 1 MB paste once froze the grid).
    case screens

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PXFUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("set PXFUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .decode:
            let options = DecodeOptions(maxPixels: 4_000_000, targetSize: PixelSize(width: 64, height: 64))
            if let decoded = try? decodeImage(bytes, options: options) {
                check(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 4, "pixel count")
            }
            _ = try? decodeImage(bytes, options: DecodeOptions(maxPixels: 1_000_000))
            _ = isCompleteImage(bytes, maxPixels: 1_000_000)
            // The EXIF reader, whether or not the pixels decode.
            _ = PhotoDetails.read(bytes, format: .jpeg)
            _ = PhotoDetails.read(bytes, format: .png)
        case .input:
            var whole = InputDecoder()
            let expected = whole.feed(bytes) + whole.flushPendingEscape()
            let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
            var parts = InputDecoder()
            let events = parts.feed(Array(bytes[..<split])) + parts.feed(Array(bytes[split...])) + parts.flushPendingEscape()
            check(events == expected, "input decoder differs when split at \(split)")
        case .probe:
            var whole = ProbeReplyParser()
            whole.feed(bytes)
            let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
            var parts = ProbeReplyParser()
            parts.feed(Array(bytes[..<split]))
            parts.feed(Array(bytes[split...]))
            check(parts.result == whole.result, "probe result differs when split at \(split)")
            check(parts.leftoverInput == whole.leftoverInput, "probe leftover differs when split at \(split)")
            _ = capabilities(from: whole.result, winsize: WindowSize(cells: CellCount(width: 80, height: 24), pixels: nil))
        case .json:
            if let response = try? PixabayResponse.decode(from: bytes) {
                for hit in response.hits { _ = ResultsListing.searchRow(for: hit) }
            }
        case .cache:
            if let entry = DiskCache.decode(bytes) { _ = CachedResponse(decoding: entry.data) }
            if let response = CachedResponse(decoding: bytes) {
                check(CachedResponse(decoding: response.encoded()) == response, "cached response round trip")
            }
        case .url:
            let text = String(decoding: bytes, as: UTF8.self)
            _ = URLText.split(text)
            _ = URLText.scheme(of: text)
            _ = URLText.authority(of: text)
            // Structural rather than textual: a key's value may also appear
            // in the host or the fragment (found: `key=.0.0.\u{CA}:` beside the
            // host `127.0.0.\u{CA}:8080`), and those are the user's own text.
            // What must hold: only the query changes, and every item named
            // `key` reads REDACTED.
            let redacted = URLText.redacted(text, hiding: ["key"])
            let before = URLText.split(text)
            let after = URLText.split(redacted)
            check(after.base == before.base && after.fragment == before.fragment, "redaction changed more than the query")
            for item in URLText.queryItems(after.query ?? "") where URLText.itemName(item) == "key" {
                check(URLText.itemValue(item) == "REDACTED", "a secret survived redaction")
            }
            _ = cacheKey(for: HTTPRequest(url: text, redactedQueryItems: ["key"]))
        case .readback:
            _ = try? SixelDecoder.decode(bytes)
            _ = try? KittyDecoder.image(bytes)
        case .gif, .webp, .avif, .heic, .jxl:
            guard let format = ImageFormat(rawValue: rawValue) else { return }
            let codec = format.codec
            let options = DecodeOptions(maxPixels: 1_000_000, targetSize: PixelSize(width: 64, height: 64))
            if let decoded = try? codec.decode(bytes, options) {
                for frame in decoded.frames {
                    check(frame.image.size == decoded.image.size, "frames of different sizes")
                    check(frame.image.pixels.count == frame.image.width * frame.image.height * 4, "pixel count")
                }
                check(decoded.frames.count <= decoded.frameCount, "more frames than the file has")
            }
            _ = try? codec.readInfo(bytes)
            _ = codec.isComplete(bytes, 1_000_000)
        case .animation:
            animation(bytes)
        case .colour:
            for format in ImageFormat.allCases { _ = ColourSources.read(bytes, format: format) }
            let entry = ColourTransforms().entry(for: .icc(Array(bytes.prefix(ColourDescription.maxProfileBytes))))
            if let transform = entry.transform {
                var pixels = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 37) }
                pixels.withUnsafeMutableBufferPointer { pxview_colour_apply(transform, $0.baseAddress, $0.count / 4) }
                // A CMYK profile's transform: its samples in, both ways of storing them.
                for inverted: Int32 in [0, 1] where entry.isCMYK {
                    pixels.withUnsafeMutableBufferPointer {
                        pxview_colour_apply_cmyk(transform, $0.baseAddress, $0.count / 4, inverted)
                    }
                }
                check(pixels.count == 1024, "the transform changed the buffer's size")
            }
        case .screens:
            screens(bytes.first == 0xFF ? Array([[UInt8]](repeating: bytes, count: 256).joined()) : bytes)
        }
    }

    private func animation(_ bytes: [UInt8]) {
        var input = bytes.makeIterator()
        func byte() -> Int { Int(input.next() ?? 0) }
        func short() -> Int { byte() << 8 | byte() }
        let kind = byte() % 4
        let width = short()
        let height = short()
        let file: [UInt8]
        switch kind {
        case 0:
            var frames: [HostileImages.Rect] = []
            for _ in 0..<min(byte() + 1, 64) {
                frames.append(HostileImages.Rect(x: short(), y: short(), width: short(), height: short()))
            }
            file = HostileImages.gif(width: width, height: height, frames: frames)
        case 1:
            // VP8X holds sides of 1 to 2^24; up to 300 frames (each composited whole: more only slows the run).
            file = HostileImages.webp(
                width: max(1, width << 8 | byte()), height: max(1, height << 8 | byte()), frames: 1 + short() % 300)
        default:
            let canvas = HostileImages.Rect(width: width << 16 | short(), height: height << 16 | short())
            file = HostileImages.heif(derived: kind == 2 ? "grid" : "iovl", canvas: canvas, wideFields: byte() & 1 == 1)
        }
        let options = DecodeOptions(maxPixels: 1_000_000, targetSize: PixelSize(width: 64, height: 64))
        guard let decoded = try? decodeImage(file, options: options) else { return }
        check(decoded.frames.allSatisfy { $0.image.size == decoded.image.size }, "frames of different sizes")
        check(decoded.frames.map(\.image.size.area).reduce(0, +) <= options.maxPixels, "the frames kept exceed the budget")
    }

    private func screens(_ bytes: [UInt8]) {
        let drawing = DrawingPlan(
            method: .sixel,
            geometry: TerminalGeometry(
                windowCells: CellCount(width: 60, height: 20), cellPixels: PixelSize(width: 10, height: 20))
        )
        let screen = drawing.makeBackend().screen
        let width = screen.windowCells.width
        var decoder = InputDecoder()
        let events = decoder.feed(bytes) + decoder.flushPendingEscape()
        var browser = BrowserState(layout: BrowserLayout(screen: screen), query: "famous quotes", offline: true)
        _ = browser.start()
        let photos = (1...12).map { id in
            Photo(
                hit: PixabayHit(
                    id: id, pageURL: "", type: "photo", tags: "tag\(id)", previewURL: "p", previewWidth: 150, previewHeight: 100,
                    webformatURL: "w", webformatWidth: 640, webformatHeight: 427, largeImageURL: "l", imageWidth: 1920,
                    imageHeight: 1280, imageSize: 1000, views: 1, downloads: 1, collections: 0, likes: id, comments: 0, userID: 7,
                    user: "user", userImageURL: ""))
        }
        _ = browser.handle(
            .searchFinished(
                query: "famous quotes", page: 1, result: .page(photos: photos, totalHits: 12, totalPages: 1, note: nil)))
        var viewer = ViewerState(
            photo: Photo(id: 1, file: LocalFile(name: "storm.jpg", byteCount: 1000)),
            fullSize: PixelSize(width: 1920, height: 1280),
            decodedSize: PixelSize(width: 600, height: 400), layout: ViewerLayout(screen: screen), openedDirectly: true)
        for (index, event) in events.enumerated() {
            _ = browser.handle(.input(event))
            _ = viewer.handle(.input(event, timeMs: index * 7))
            check((browser.editText?.count ?? 0) <= SearchQuery.maxQueryCharacters, "the search field grew past its bound")
        }
        // The lines composed to the window's width (the others are cut when drawn).
        let plan = BrowserPlan(browser) { _ in true }
        let header = plan.rows[browser.layout.searchRow]?.text ?? ""
        check(browser.showHelp || TerminalText.displayWidth(header) <= width, "the grid's header is wider than the window")
        check(TerminalText.displayWidth(ViewerPlan(viewer).status) <= width, "the viewer's status line is wider than the window")
    }

    /// A broken invariant: libFuzzer saves the input.
    private func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { fatalError("pxfuzz \(rawValue): \(what())") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.current.run(bytes)
    return 0
}
