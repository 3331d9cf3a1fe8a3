import ControlSequences
import Pixels

/// Where kitty reads pixels that do not travel through the pty: a POSIX
/// shared-memory object (`t=s`) or a temporary file (`t=t`), by name.
package struct KittyReference: Sendable, Equatable {
    package enum Medium: String, Sendable {
        case sharedMemory = "s"
        case file = "t"
    }

    package var medium: Medium
    package var name: String

    package init(medium: Medium, name: String) {
        self.medium = medium
        self.name = name
    }
}

/// Writes kitty graphics protocol commands (APC `ESC _G <keys>;<payload> ESC \`).
///
/// Every command carries `q=2` so the terminal never answers on the input
/// stream, and placements carry `C=1` so drawing never moves the cursor
/// (the caller positions it before each placement). Pixels sent through
/// the pty travel as PNG (`f=100`, `PNGWriter`): Sub-filtered rows,
/// Huffman-only deflate, 2-3x smaller than the raw pixels deflated for
/// `o=z` (storm at 800x533: 394 KB against 1.4 MB base64) in less time,
/// because filtering removes what string matching could not find. Opaque
/// images go as RGB, a quarter fewer bytes than RGBA, in the PNG and in
/// `rawPixels`.
///
/// Payloads longer than `chunkSize` base64 bytes are split: the first
/// command has all the keys and `m=1`, the following ones only `q=2,m=1`,
/// the last `q=2,m=0`. A payload that fits one command has no `m` key.
/// `q=2` is repeated on every chunk because kitty takes it from the chunk
/// that completes the transmission (kovidgoyal/kitty#3375).
///
/// Image ids must be non-zero (kitty treats 0 as "no id"); a placement id
/// of 0 leaves `p` out, letting the image have a single placement.
package struct KittyEncoder: Sendable {
    /// The protocol's limit for base64 bytes per chunk.
    package static let maxChunkSize = 4096

    /// Base64 bytes per chunk: a multiple of 4, at most `maxChunkSize`.
    package let chunkSize: Int

    package init(chunkSize: Int = KittyEncoder.maxChunkSize) {
        self.chunkSize = max(4, min(Self.maxChunkSize, chunkSize) / 4 * 4)
    }

    // MARK: Pixels kitty reads itself

    /// Raw pixels for kitty to read from shared memory or a file: RGB
    /// (`f=24`) when opaque, a quarter fewer bytes, else RGBA (`f=32`).
    package struct RawPixels: Sendable {
        package var bytes: [UInt8]
        package var size: PixelSize
        /// 24 or 32.
        package var format: Int
    }

    package static func rawPixels(_ image: RGBAImage) -> RawPixels {
        let opaque = !image.hasTransparency
        return RawPixels(bytes: opaque ? rgbBytes(image) : image.pixels, size: image.size, format: opaque ? 24 : 32)
    }

    /// Asks (`a=q`, answered, unlike every other command here) whether
    /// kitty can read a 1x1 RGB pixel from `reference`: `OK` when it runs on
    /// this machine and may, an error otherwise (over SSH: ENOENT).
    package func query(id: Int, reading reference: KittyReference) -> [UInt8] {
        command(
            keys: "i=\(id),s=1,v=1,a=q,t=\(reference.medium.rawValue),f=24",
            payload: Base64.encode(Array(reference.name.utf8)))
    }

    /// Uploads (`a=t`) pixels kitty reads from `reference`, which holds
    /// `pixels.bytes`; kitty removes the object once read. A few dozen bytes
    /// through the pty, whatever the image's size.
    package func transmit(_ pixels: RawPixels, from reference: KittyReference, imageID: UInt32) -> [UInt8] {
        guard pixels.size.width > 0, pixels.size.height > 0 else { return [] }
        return command(
            keys: referenceKeys(pixels, reference, action: "t", imageID: imageID) + ",q=2",
            payload: Base64.encode(Array(reference.name.utf8)))
    }

    /// The same, shown at once (`a=T`) as `transmitAndPlace` shows.
    package func transmitAndPlace(
        _ pixels: RawPixels, from reference: KittyReference, imageID: UInt32, placementID: UInt32, columns: Int, rows: Int
    ) -> [UInt8] {
        guard pixels.size.width > 0, pixels.size.height > 0 else { return [] }
        let placement = placementKeys(
            placementID: placementID, columns: columns, rows: rows, crop: nil, offset: nil, zIndex: nil)
        return command(
            keys: referenceKeys(pixels, reference, action: "T", imageID: imageID) + "," + placement + ",q=2",
            payload: Base64.encode(Array(reference.name.utf8)))
    }

    private func referenceKeys(_ pixels: RawPixels, _ reference: KittyReference, action: String, imageID: UInt32) -> String {
        "a=\(action),f=\(pixels.format),s=\(pixels.size.width),v=\(pixels.size.height),"
            + "t=\(reference.medium.rawValue),S=\(pixels.bytes.count),i=\(imageID)"
    }

    /// Uploads `image` as `imageID` without showing it (`a=t`). An empty
    /// image yields no bytes: kitty rejects zero-sized images.
    package func transmit(_ image: RGBAImage, imageID: UInt32) -> [UInt8] {
        transmission(image, action: "t", imageID: imageID, keys: "q=2")
    }

    /// Shows an uploaded image (`a=p`) over `columns` x `rows` cells from
    /// the cursor. `crop` picks the source rectangle in image pixels;
    /// `offset` (`X`, `Y`) starts the picture that many pixels into the
    /// first cell; `zIndex` stacks placements (negative: below text).
    package func place(
        imageID: UInt32, placementID: UInt32, columns: Int, rows: Int,
        crop: PixelRect? = nil, offset: PixelPoint? = nil, zIndex: Int? = nil
    ) -> [UInt8] {
        let keys =
            "a=p,i=\(imageID),"
            + placementKeys(
                placementID: placementID, columns: columns, rows: rows, crop: crop, offset: offset, zIndex: zIndex) + ",q=2"
        return command(keys: keys, payload: [])
    }

    /// Uploads and shows in one command sequence (`a=T`).
    package func transmitAndPlace(
        _ image: RGBAImage, imageID: UInt32, placementID: UInt32, columns: Int, rows: Int,
        crop: PixelRect? = nil, offset: PixelPoint? = nil, zIndex: Int? = nil
    ) -> [UInt8] {
        let placement = placementKeys(
            placementID: placementID, columns: columns, rows: rows, crop: crop, offset: offset, zIndex: zIndex)
        return transmission(image, action: "T", imageID: imageID, keys: placement + ",q=2")
    }

    /// The same commands (without crop, offset or z-index) handed to
    /// `write` as they are made, whole commands at a time: the top of the
    /// picture goes out while the rest is still being encoded, no buffer of
    /// the whole transmission is made, and the pixels are rows made as they
    /// are encoded (`PixelRows`: a resample's), so the picture never exists
    /// whole either. `write` returns false to stop; false when it did or
    /// memory ran out (the transmission then ends short, with an empty last
    /// command).
    package func transmitAndPlace(
        _ rows: PixelRows, imageID: UInt32, placementID: UInt32, columns: Int, rows cellRows: Int,
        into write: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        guard rows.size.width > 0, rows.size.height > 0 else { return true }
        let placement = placementKeys(
            placementID: placementID, columns: columns, rows: cellRows, crop: nil, offset: nil, zIndex: nil)
        return PNGWriter.write(
            rows, firstKeys: "a=T,f=100,i=\(imageID)," + placement + ",q=2", chunkBytes: chunkSize / 4 * 3, to: write)
    }

    /// Uploads `image` with a virtual placement (`U=1`) of `columns` x
    /// `rows` cells: nothing shows until Unicode placeholder cells for the
    /// image are printed (`KittyPlaceholders`), which is how a picture lives
    /// inside tmux's text grid. kitty fits the image into the cells keeping
    /// its aspect ratio.
    ///
    /// The upload (`a=t`, chunked) and the virtual placement (`a=p,U=1`,
    /// one command) go separately: kitty (0.28 to 0.48, `screen.c`) makes
    /// the pictures of placeholder cells only when their line is redrawn,
    /// and redraws every placeholder line after a command that itself
    /// carries `U=1`. In a chunked `a=T` only the first chunk does, when
    /// the new data has not arrived yet (and the old image under the same
    /// id is already gone), so the cells stayed black until their text
    /// changed (seen in kitty 0.48.2 inside tmux: black after every zoom).
    package func transmitVirtual(_ image: RGBAImage, imageID: UInt32, columns: Int, rows: Int) -> [UInt8] {
        let upload = transmission(image, action: "t", imageID: imageID, keys: "q=2")
        guard !upload.isEmpty else { return [] }
        return upload + placeVirtual(imageID: imageID, columns: columns, rows: rows)
    }

    /// The virtual placement of an uploaded image over `columns` x `rows`
    /// placeholder cells (`a=p,U=1`). Always placement 1, so placing it
    /// again replaces it instead of adding another.
    package func placeVirtual(imageID: UInt32, columns: Int, rows: Int) -> [UInt8] {
        command(keys: "a=p,U=1,i=\(imageID),p=1,c=\(max(1, columns)),r=\(max(1, rows)),q=2", payload: [])
    }

    /// Deletes the image's placements but keeps its data (`d=i`), so it can
    /// be placed again without re-sending pixels.
    package func deletePlacements(imageID: UInt32) -> [UInt8] {
        command(keys: "a=d,d=i,i=\(imageID),q=2", payload: [])
    }

    /// Deletes every placement over the 1-based cell (`d=p`). Konsole applies
    /// it to sixel pictures too, which text never removes there.
    package func deletePlacements(atColumn column: Int, row: Int) -> [UInt8] {
        command(keys: "a=d,d=p,x=\(max(1, column)),y=\(max(1, row)),q=2", payload: [])
    }

    /// Deletes the image's placements and swaps its data for one pixel:
    /// frees the memory of this image only. `d=I` cannot: kitty (0.26
    /// and later, `filter_refs` in graphics.c) then frees every image left
    /// without a placement, so the grid's tiles hidden under the viewer
    /// and the viewer's fitted copy went with it (seen: zooming back to fit
    /// a large photo showed black).
    package func release(imageID: UInt32) -> [UInt8] {
        deletePlacements(imageID: imageID)
            + command(keys: "a=t,f=24,s=1,v=1,i=\(imageID),q=2", payload: Base64.encode([0, 0, 0]))
    }

    /// Deletes the image and its placements and frees its data (`d=I`),
    /// and with it every other image without a placement: for leaving.
    package func delete(imageID: UInt32) -> [UInt8] {
        command(keys: "a=d,d=I,i=\(imageID),q=2", payload: [])
    }

    /// A command that changes nothing but has kitty draw its window again:
    /// deletes the placements (`d=i`, lower case: no data is freed, not
    /// even of other images) of an id nobody uses. kitty 0.48.2 sometimes
    /// left a picture undrawn when its placement was the last thing it
    /// read, until anything else came (seen: the grid after a resize, two
    /// of five previews): sent 20 ms or more later, this shows it (10 of
    /// 10 previews), sent at once it did not (2 of 10).
    package func nudge() -> [UInt8] {
        command(keys: "a=d,d=i,i=\(Self.nudgeImageID),q=2", payload: [])
    }

    /// The id `nudge` names: the last one, which pxview never uploads.
    package static let nudgeImageID: UInt32 = 0xFFFF_FFFF

    /// The same for every image whose id is in `imageIDs` (`d=R`, kitty
    /// 0.33 and later; older ones ignore it).
    package func delete(imageIDs: ClosedRange<UInt32>) -> [UInt8] {
        command(keys: "a=d,d=R,x=\(imageIDs.lowerBound),y=\(imageIDs.upperBound),q=2", payload: [])
    }

    // MARK: Building commands

    /// The commands of one upload, the action and image id first and `keys`
    /// after them; nothing for an empty image. A PNG, or the raw pixels if
    /// the encoder's memory ran out.
    private func transmission(_ image: RGBAImage, action: String, imageID: UInt32, keys: String) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { return [] }
        if let commands = PNGWriter.commands(
            image, firstKeys: "a=\(action),f=100,i=\(imageID)," + keys, chunkBytes: chunkSize / 4 * 3)
        {
            return commands
        }
        let raw = Self.rawPixels(image)
        return chunked(
            keys: "a=\(action),f=\(raw.format),s=\(image.width),v=\(image.height),i=\(imageID)," + keys,
            payload: Base64.encode(raw.bytes))
    }

    private func placementKeys(
        placementID: UInt32, columns: Int, rows: Int, crop: PixelRect?, offset: PixelPoint?, zIndex: Int?
    ) -> String {
        var keys: [String] = []
        if placementID != 0 { keys.append("p=\(placementID)") }
        // Zero (or negative) cells leave the key out: kitty then sizes from the image.
        if columns > 0 { keys.append("c=\(columns)") }
        if rows > 0 { keys.append("r=\(rows)") }
        if let crop {
            keys += ["x=\(max(0, crop.x))", "y=\(max(0, crop.y))", "w=\(crop.width)", "h=\(crop.height)"]
        }
        if let offset, offset.x > 0 || offset.y > 0 { keys += ["X=\(max(0, offset.x))", "Y=\(max(0, offset.y))"] }
        if let zIndex { keys.append("z=\(zIndex)") }
        keys.append("C=1")
        return keys.joined(separator: ",")
    }

    private func chunked(keys: String, payload: [UInt8]) -> [UInt8] {
        guard payload.count > chunkSize else { return command(keys: keys, payload: payload) }
        var out: [UInt8] = []
        let chunkCount = (payload.count + chunkSize - 1) / chunkSize
        out.reserveCapacity(payload.count + chunkCount * 16 + keys.utf8.count)
        var start = 0
        while start < payload.count {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? "m=1" : "m=0"
            let chunkKeys = start == 0 ? keys + "," + more : "q=2," + more
            appendCommand(keys: chunkKeys, payload: payload[start..<end], to: &out)
            start = end
        }
        return out
    }

    private func command(keys: String, payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendCommand(keys: keys, payload: payload[...], to: &out)
        return out
    }

    private func appendCommand(keys: String, payload: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: TerminalCommand.kittyGraphicsStart)
        out.append(contentsOf: keys.utf8)
        if !payload.isEmpty {
            out.append(UInt8(ascii: ";"))
            out.append(contentsOf: payload)
        }
        out.append(contentsOf: TerminalCommand.stringTerminator)
    }

    /// RGBA to packed RGB, for opaque images.
    static func rgbBytes(_ image: RGBAImage) -> [UInt8] {
        let count = image.width * image.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            image.pixels.withUnsafeBufferPointer { p in
                var s = 0
                var d = 0
                for _ in 0..<count {
                    out[d] = p[s]
                    out[d &+ 1] = p[s &+ 1]
                    out[d &+ 2] = p[s &+ 2]
                    s &+= 4
                    d &+= 3
                }
            }
            initialized = count * 3
        }
    }
}
