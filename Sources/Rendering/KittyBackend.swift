import ControlSequences
import Encoding
import Pixels
import Scaling
import Terminal

/// kitty graphics placed at the cursor. Each slot's picture is uploaded
/// once per `PictureKey` and every zoom or pan only re-places it (same
/// placement id, so the new placement replaces the old), a few dozen bytes.
///
/// kitty scales on the GPU without mipmaps, so a downscaled placement
/// aliases (a fitted 1920x1200 photo scored 22.7 dB against the source
/// where `show`'s own resample scored 52.7). So a view showing the whole
/// image smaller than its pixels gets a second upload: the whole image
/// resampled here to that size, placed 1:1. Zooming back to it, or below,
/// uses it again; zooming in uses the decoded image with a crop.
///
/// A picture drawn at its own size is placed without `c`/`r`, pixel-exact.
/// A scaled one needs both: given only `c`, kitty 0.26 takes the height
/// from the image's own pixels, not the crop's. Given both, kitty fills the
/// box exactly, stretching unless the crop has the box's aspect: so the
/// box is chosen in whole cells first and the crop trimmed to its aspect
/// (less than a cell of output is lost). kitty ends a scaled placement on
/// the box's last cell and starts it `X`/`Y` pixels into the first, which
/// places it to the pixel; other terminals (Konsole) shift the box by the
/// offset instead, so there it starts on a cell.
final class KittyBackend: GraphicsBackend {
    /// Placed pictures outside the text, by id; kitty 0.48.2 left two of
    /// five previews undrawn until more came: a nudge after each.
    static let previewStyle = PreviewStyle(blanksBox: false, goesByImageID: true) { _, _ in KittyEncoder().nudge() }
    static var leavesHandovers: Bool { true }
    static let methods: [DrawingMethod] = [.kitty]
    static var hidesOnTheClient: Bool { true }

    /// Its own name, and `auto` where the terminal answered kitty's query
    /// (inside tmux, after the placeholders' backend, which takes kitty
    /// 0.28 and later).
    static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod? {
        let shows = terminal.passesGraphics && terminal.capabilities?.kittyGraphics == true
        return choice == .kitty || (choice == .auto && shows) ? .kitty : nil
    }

    static func choice(for method: DrawingMethod) -> ProtocolChoice { .kitty }

    static func doctorWords(for method: DrawingMethod) -> DoctorWords {
        DoctorWords(whyChosen: "the terminal answered the kitty graphics query", showsKittyTransfer: true)
    }

    static func summary(of drawing: DrawingPlan) -> String { ", kitty pixels via \(drawing.kittyMedium.rawValue)" }

    convenience init(drawing: DrawingPlan, resampler: Resampler) {
        self.init(drawing: drawing, resampler: resampler, regionMinimumPixels: KittyRegion.minimumPixels)
    }
    let method = DrawingMethod.kitty
    private(set) var drawing: DrawingPlan
    private(set) var screen: BackendGeometry
    let resampler: Resampler
    var slots = SlotTable()
    /// What kitty holds and shows for each slot, one value per slot.
    var images: [Int: SlotImages] = [:]
    let encoder = KittyEncoder()
    /// Slot `n` uses ids `firstImageID + 2n` (decoded) and `+ 1` (fitted).
    static let firstImageID: UInt32 = 1

    /// `KittyRegion.minimumPixels` but for tests, which cannot resample
    /// megapixels in debug builds.
    let regionMinimumPixels: Int

    init(drawing: DrawingPlan, resampler: Resampler = Resampler(), regionMinimumPixels: Int) {
        self.drawing = drawing
        self.resampler = resampler
        self.regionMinimumPixels = regionMinimumPixels
        screen = Self.screen(for: drawing.geometry)
    }

    static func screen(for geometry: TerminalGeometry) -> BackendGeometry {
        BackendGeometry(windowCells: geometry.windowCells, cellPixels: geometry.cellPixels, unitsPerCell: geometry.cellPixels)
    }

    func update(geometry: TerminalGeometry) {
        drawing.geometry = geometry
        screen = Self.screen(for: geometry)
        forgetScreen()
    }

    /// At its own pixel size; the placement keeps the cursor at the
    /// picture's top-left (`C=1`), so newlines step below it.
    ///
    /// Inside tmux the upload and the placement are separate commands:
    /// tmux homes the real cursor after every passthrough sequence, and kitty
    /// places a chunked `a=T` upload when its last chunk arrives, so the
    /// placement must be one command of its own, right after the writer's
    /// fence (seen: chunked `a=T` pictures landed at the top-left).
    func inline(_ pixels: RGBAImage, imageID: UInt32) -> InlinePicture {
        let cells = screen.cellsCovering(pixels.size)
        let down = Self.below(cells)
        guard drawing.multiplexer.wrapsGraphics else {
            let bytes: [UInt8]
            if let (raw, reference) = handOver(pixels, outlivingThisRun: true) {
                // Left for kitty to read and remove: this run may end first
                // (one it never reads is swept by the next run).
                bytes = encoder.transmitAndPlace(raw, from: reference, imageID: imageID, placementID: 1, columns: 0, rows: 0)
            } else {
                bytes = encoder.transmitAndPlace(pixels, imageID: imageID, placementID: 1, columns: 0, rows: 0)
            }
            return InlinePicture(lines: [bytes], cells: cells, cursorAfter: down)
        }
        let bytes =
            encoder.transmit(pixels, imageID: imageID)
            + encoder.place(imageID: imageID, placementID: 1, columns: 0, rows: 0)
        return InlinePicture(lines: [bytes], cells: cells, prefix: InlinePicture.reserving(rows: cells.height), cursorAfter: down)
    }

    /// Through the pty outside a multiplexer the upload goes out as it is
    /// encoded, from rows made as they are encoded.
    var drawsRowsAsMade: Bool { !drawing.multiplexer.wrapsGraphics && drawing.kittyMedium == .direct }

    /// `KittyEncoder.transmitAndPlace(_:imageID:placementID:columns:rows:into:)`:
    /// the picture's top goes out while the rest is being resampled and
    /// encoded, and neither the picture nor its upload is ever whole.
    func drawInline(_ rows: PixelRows, imageID: UInt32, write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard drawsRowsAsMade else { return inline(rows.image(), imageID: imageID).joined().withUnsafeBytes(write) }
        return encoder.transmitAndPlace(rows, imageID: imageID, placementID: 1, columns: 0, rows: 0, into: write)
            && Self.below(screen.cellsCovering(rows.size)).withUnsafeBytes(write)
    }

    /// The cursor to the line below a picture of `cells` placed at it (`C=1` left it at the top-left).
    static func below(_ cells: CellCount) -> [UInt8] {
        Array("\r".utf8) + [UInt8](repeating: UInt8(ascii: "\n"), count: cells.height)
    }

    func imageID(slot: Int) -> UInt32 { Self.firstImageID + 2 * UInt32(truncatingIfNeeded: max(0, slot)) }
    func fittedImageID(slot: Int) -> UInt32 { imageID(slot: slot) + 1 }

    func draw(_ picture: Picture, slot: Int) -> [UInt8] {
        if picture.reusable { return drawShared(picture, slot: slot) }
        var out: [UInt8] = []
        let image = picture.image
        if let old = images[slot, default: SlotImages()].region, old.key != picture.key,
            !KittyRegion.isWanted(image: image.size, window: windowPixels, minimumPixels: regionMinimumPixels)
        {
            // Another picture, shown whole: the old one's region goes.
            out += encoder.release(imageID: regionImageID(slot: slot, parity: old.parity))
            images[slot, default: SlotImages()].region = nil
        }
        let source = picture.source
        // The width the whole image has at this view's scale.
        let wholeWidth = Double(picture.placement.width) / max(1e-9, source.width) * Double(image.width)
        let showsWhole =
            source.x < 0.5 && source.y < 0.5 && source.width > Double(image.width) - 0.5
            && source.height > Double(image.height) - 0.5
        if showsWhole, wholeWidth < Double(image.width) - 0.5, !picture.isOneToOne,
            images[slot, default: SlotImages()].fitted?.key != picture.key
                || wholeWidth > Double(images[slot, default: SlotImages()].fitted?.size.width ?? 0) + 0.5
        {
            let pixels = resampler.resample(image, from: SourceRect(covering: image.size), to: picture.placement.size)
            if images[slot, default: SlotImages()].fitted != nil {
                out += encoder.deletePlacements(imageID: fittedImageID(slot: slot))
            }
            out += upload(pixels, imageID: fittedImageID(slot: slot))
            images[slot, default: SlotImages()].fitted = (picture.key, pixels.size)
            // Deleting an image deletes its placements: place it again.
            if images[slot, default: SlotImages()].placedImage == fittedImageID(slot: slot) {
                images[slot, default: SlotImages()].placement = nil
            }
        }
        var shownSize = image.size
        var shownSource = source
        let id: UInt32
        if let small = images[slot, default: SlotImages()].fitted, small.key == picture.key,
            wholeWidth <= Double(small.size.width) + 0.5
        {
            id = fittedImageID(slot: slot)
            let sx = Double(small.size.width) / Double(image.width)
            let sy = Double(small.size.height) / Double(image.height)
            shownSize = small.size
            shownSource = SourceRect(x: source.x * sx, y: source.y * sy, width: source.width * sx, height: source.height * sy)
        } else if KittyRegion.isWanted(image: image.size, window: windowPixels, minimumPixels: regionMinimumPixels) {
            let outputScale = Double(picture.placement.width) / max(1e-9, source.width)
            var retired: UInt32?
            if images[slot, default: SlotImages()].region?.key != picture.key
                || images[slot, default: SlotImages()].region?.region.covers(source, outputScale: outputScale) != true
            {
                let region = KittyRegion.around(source, outputScale: outputScale, image: image.size)
                let pixels = resampler.resample(
                    image,
                    from: SourceRect(
                        x: Double(region.source.x), y: Double(region.source.y),
                        width: Double(region.source.width), height: Double(region.source.height)),
                    to: region.size)
                // The other of the slot's two region ids: the old region stays
                // on screen until the new one is placed, then goes.
                let parity = images[slot, default: SlotImages()].region.map { 1 - $0.parity } ?? 0
                retired = images[slot, default: SlotImages()].region.map { regionImageID(slot: slot, parity: $0.parity) }
                out += upload(pixels, imageID: regionImageID(slot: slot, parity: parity))
                images[slot, default: SlotImages()].region = (picture.key, region, parity)
            }
            let current = images[slot, default: SlotImages()].region!
            id = regionImageID(slot: slot, parity: current.parity)
            shownSize = current.region.size
            shownSource = current.region.show(source)
            out += place(picture, imageID: id, source: shownSource, imageSize: shownSize, slot: slot)
            return out + (retired.map { encoder.release(imageID: $0) } ?? [])
        } else {
            id = imageID(slot: slot)
            if images[slot, default: SlotImages()].uploaded != picture.key {
                if images[slot, default: SlotImages()].uploaded != nil { out += encoder.deletePlacements(imageID: id) }
                out += upload(image, imageID: id)
                images[slot, default: SlotImages()].uploaded = picture.key
                if images[slot, default: SlotImages()].placedImage == id { images[slot, default: SlotImages()].placement = nil }
            }
        }
        return out + place(picture, imageID: id, source: shownSource, imageSize: shownSize, slot: slot)
    }

    /// The window in pixels: regions are for images well past it.
    var windowPixels: PixelSize {
        PixelSize(
            width: drawing.geometry.windowCells.width * screen.cellPixels.width,
            height: drawing.geometry.windowCells.height * screen.cellPixels.height)
    }

    /// What kitty holds and shows for one slot.
    struct SlotImages {
        /// The placement command on screen (nil: place again), and the image it places.
        var placement: [UInt8]?
        var placedImage: UInt32?
        /// The decoded pixels uploaded under the slot's own id.
        var uploaded: PictureKey?
        /// The whole image at a view's size, `size` pixels, for picture
        /// `key`, version included: a new version (the full-resolution
        /// decode, a turned picture) is fitted again (once only id and frame
        /// were compared, and a turned picture showed the old one's copy).
        var fitted: (key: PictureKey, size: PixelSize)?
        /// The region of a large picture, and which of the slot's two region ids it is under.
        var region: (key: PictureKey, region: KittyRegion, parity: UInt32)?
    }

    /// Region ids: `0x2000_0000 + 2 * slot + parity`, apart from the slot
    /// ids (1, 2, 3… upwards) and the shared ids (`0x4000_0000` and up).
    func regionImageID(slot: Int, parity: UInt32) -> UInt32 {
        0x2000_0000 + 2 * UInt32(truncatingIfNeeded: max(0, slot)) + parity
    }

    /// Places image `id` (showing `source` of its `imageSize` pixels) for
    /// `picture` in `slot`: nothing when that placement is already on
    /// screen; the slot's previous image loses its placement unless another
    /// slot now shows it (a grid tile that moved).
    func place(_ picture: Picture, imageID id: UInt32, source: SourceRect, imageSize: PixelSize, slot: Int) -> [UInt8] {
        let placement = Self.placement(
            source: source, imageSize: imageSize, area: picture.area, placement: picture.placement, cell: screen.cellPixels,
            offsetsShrink: drawing.traits.scaledOffsetsShrink)
        let command =
            TerminalCommand.moveTo(row: placement.cell.row + 1, column: placement.cell.column + 1)
            + encoder.place(
                imageID: id, placementID: 1, columns: placement.columns, rows: placement.rows, crop: placement.crop,
                offset: placement.offset)
        if images[slot, default: SlotImages()].placement == command, slots[slot]?.onScreen == true { return [] }
        var out: [UInt8] = []
        if let previous = images[slot, default: SlotImages()].placedImage, previous != id, !isPlaced(previous, otherThan: slot) {
            out += encoder.deletePlacements(imageID: previous)
        }
        // The picture left the slot it was in (placement id 1 moves with it).
        for (other, state) in images where other != slot && state.placedImage == id {
            images[other, default: SlotImages()].placedImage = nil
            images[other, default: SlotImages()].placement = nil
            _ = slots.take(other)
        }
        images[slot, default: SlotImages()].placement = command
        images[slot, default: SlotImages()].placedImage = id
        slots[slot] = SlotRecord(
            key: picture.key, source: picture.source, placement: picture.placement, area: picture.area,
            cells: CellRect(column: placement.cell.column, row: placement.cell.row, columns: 1, rows: 1), onScreen: true)
        return out + command
    }

    /// Hides the slot's picture; its data stays for the next `draw`. A
    /// shared picture that moved to another slot this frame stays there.
    func erase(slot: Int) -> [UInt8] {
        guard let id = images[slot, default: SlotImages()].placedImage else { return [] }
        images[slot, default: SlotImages()].placement = nil
        images[slot, default: SlotImages()].placedImage = nil
        _ = slots.take(slot)
        return isPlaced(id, otherThan: slot) ? [] : encoder.deletePlacements(imageID: id)
    }

    /// True when another slot's placement is on image `id`.
    func isPlaced(_ id: UInt32, otherThan slot: Int) -> Bool {
        images.contains { $0.key != slot && $0.value.placedImage == id }
    }

    // MARK: Shared pictures (the grid's tiles)

    /// The grid's tiles kitty holds, by key, least recently placed first.
    var shared = SharedUploads()
    /// kitty keeps 320 MB of images by default and past that evicts the
    /// oldest, placed ones too; tiles keep under 128 MB of it (700 tiles of
    /// 260x173 px), leaving the rest for the viewer's photo.
    static let sharedByteBudget = 128 << 20

    /// Ids of shared pictures: the key's id in the upper half of the id
    /// space, apart from the slot ids (1, 2, 3… upwards).
    static func sharedImageID(_ key: PictureKey) -> UInt32 {
        0x4000_0000 | (UInt32(truncatingIfNeeded: key.id) & 0x3FFF_FFFF)
    }

    /// Uploaded once per key, then only placed: when the grid scrolls, a
    /// tile moving from one slot to another is the same image placed
    /// elsewhere (its placement id 1 moves with it).
    func drawShared(_ picture: Picture, slot: Int) -> [UInt8] {
        var out: [UInt8] = []
        let id = Self.sharedImageID(picture.key)
        if !shared.holds(picture.key) {
            // A new version of a picture replaces the old one's data under the same id.
            shared.removeVersions(of: picture.key.id)
            let bytes = picture.image.width * picture.image.height * 4
            let placed = Set(images.values.compactMap(\.placedImage))
            while shared.bytes + bytes > Self.sharedByteBudget, let evicted = shared.evictOldest(keeping: placed) {
                out += encoder.release(imageID: evicted)
            }
            out += upload(picture.image, imageID: id)
            // New data under an id kitty may still show: place it again.
            for (other, state) in images where state.placedImage == id {
                images[other, default: SlotImages()].placement = nil
            }
            shared.add(picture.key, id: id, bytes: bytes)
        }
        shared.touch(picture.key)
        return out + place(picture, imageID: id, source: picture.source, imageSize: picture.image.size, slot: slot)
    }

    // MARK: Uploads

    /// Objects handed to kitty in this session, removed when kitty has not
    /// read them after a while and at teardown (it removes those it read).
    var handedOver = KittyHandover()

    /// Raw pixels in a shared-memory object or temporary file, when the
    /// probe showed kitty reads them; nil for the pty (or when none could be made).
    /// `outlivingThisRun`: a one-shot drawing's object, which kitty may read
    /// after pxview has exited, is not removed at exit (a slow hop to the
    /// terminal once showed an empty box where the picture was).
    func handOver(_ image: RGBAImage, outlivingThisRun: Bool = false) -> (KittyEncoder.RawPixels, KittyReference)? {
        let medium = drawing.kittyMedium
        guard medium != .direct else { return nil }
        let raw = KittyEncoder.rawPixels(image)
        switch medium {
        case .sharedMemory:
            guard let name = KittyTransfer.sharedMemory(raw.bytes, removedAtExit: !outlivingThisRun) else { return nil }
            return (raw, KittyReference(medium: .sharedMemory, name: name))
        case .file:
            guard let path = KittyTransfer.temporaryFile(raw.bytes, removedAtExit: !outlivingThisRun) else { return nil }
            return (raw, KittyReference(medium: .file, name: path))
        case .direct:
            return nil
        }
    }

    /// Uploads `image` as `imageID` the fastest way the terminal allows.
    func upload(_ image: RGBAImage, imageID: UInt32) -> [UInt8] {
        guard let (raw, reference) = handOver(image) else { return encoder.transmit(image, imageID: imageID) }
        handedOver.add(reference.name, medium: drawing.kittyMedium)
        return encoder.transmit(raw, from: reference, imageID: imageID)
    }

    func teardown() -> [UInt8] {
        handedOver.removeAll()
        let held = images.sorted { $0.key < $1.key }
        var out = held.filter { $0.value.uploaded != nil }.flatMap { encoder.delete(imageID: imageID(slot: $0.key)) }
        out += held.filter { $0.value.fitted != nil }.flatMap { encoder.delete(imageID: fittedImageID(slot: $0.key)) }
        out += held.compactMap { slot, state in state.region.map { (slot, $0.parity) } }.flatMap {
            encoder.delete(imageID: regionImageID(slot: $0.0, parity: $0.1))
        }
        out += shared.removeAll().sorted().flatMap { encoder.delete(imageID: $0) }
        images = [:]
        _ = slots.takeAll()
        return out
    }

    /// kitty's pictures do not live in the text layer: they survive a wipe,
    /// but a full redraw re-places them anyway.
    func forgetScreen() { slots.forgetScreen() }

    /// `KittyEncoder.nudge` 50 ms after a frame, and again at 400 ms for a
    /// slow link or a busy terminal: kitty 0.48.2 left the grid's
    /// thumbnails undrawn after a resize until a key came.
    var followUpDelaysMs: [Int] { [50, 400] }

    func followUp() -> [UInt8] { images.values.contains { $0.placedImage != nil } ? encoder.nudge() : [] }

    /// kitty 0.48.2 showed no picture `show --once` handed over by shared
    /// memory (0 of 3 runs, a prompt after it or not) until a key came;
    /// through the pty it did. A nudge 25 ms after showed it (5 of 5);
    /// 30 ms leaves a margin. kitty 0.26.5 shows it either way.
    static func inlineFollowUp(for drawing: DrawingPlan) -> (delayMs: Int, bytes: [UInt8])? {
        drawing.kittyMedium == .direct ? nil : (30, KittyEncoder().nudge())
    }
}

extension DrawingMethod {
    /// kitty graphics placed at the cursor (directly, or through tmux passthrough).
    package static let kitty = DrawingMethod(named: "kitty")
}

extension ProtocolChoice {
    /// The kitty graphics protocol (placements, or inside tmux on kitty
    /// 0.28+ Unicode placeholders).
    package static let kitty = ProtocolChoice(named: "kitty")
}

extension DrawingPlan {
    /// The same plan reasoning in the window's pixels, one unit each as
    /// kitty's placements are: for `show`'s description of what it would
    /// draw when its output is no terminal.
    package func inPixels() -> DrawingPlan {
        var plan = self
        plan.method = .kitty
        return plan
    }
}
