import Pixels
import Plumbing

/// Maps RGBA pixels to palette indices: the stage between quantizer and encoder.
///
/// Each pixel goes through a 32x32x32 RGB cube of nearest palette indices
/// (`InverseColormap`): a shift, an add and one table read per pixel, never
/// a search over the palette. The cube is filled lazily per `map` call, for
/// the cells the image actually touches (see `InverseColormap` for why that
/// beats filling it once per palette). Exact palette colours always map to
/// themselves, so few-colour images round-trip losslessly.
///
/// Pixels with alpha < 128 become transparent; others are treated as opaque
/// (their alpha is ignored: sixel and the palette have no partial alpha).
package struct PaletteMapper: Sendable {
    package let palette: Palette
    package let dither: Dither
    /// Peak-to-peak size of the dither offset added to each channel.
    package let ditherAmplitude: Int
    /// For `.diffusion`: sixteenths of each pixel's error passed on.
    package let diffusionWeight: Int

    private let colormap: InverseColormap
    private let ditherOffsets: [Int32]
    /// Side of the (square, power-of-two) threshold tile.
    private let ditherSide: Int
    /// Per threshold-tile position, 256 entries: a channel value plus that
    /// position's offset, clamped, as its lookup-cube coordinate. The
    /// ordered mapping then costs three table reads and one cube read a
    /// pixel (measured with callgrind over twelve 1200x800 viewer frames:
    /// 33 instructions a pixel, from 52 adding, clamping and shifting each
    /// channel).
    private let ditherCells: [UInt8]

    /// - Parameter ditherAmplitude: override for the dither strength;
    ///   by default it is the mean per-channel step from each palette colour
    ///   to its nearest neighbour (`meanNeighbourStep`), which is what a
    ///   threshold dither needs to turn a flat gradient into a mix of the two
    ///   neighbouring colours rather than bands.
    package init(palette: Palette, dither: Dither, ditherAmplitude: Int? = nil, diffusionWeight: Int = 16) {
        self.palette = palette
        self.diffusionWeight = min(16, max(0, diffusionWeight))
        self.dither = dither
        // Diffusion needs no threshold amplitude (nor the O(n²) search for it).
        self.ditherAmplitude =
            dither == .none || dither == .diffusion ? 0 : max(0, ditherAmplitude ?? Self.meanNeighbourStep(palette))
        let matrix = ThresholdMatrix.bayer8
        ditherSide = matrix.side
        ditherOffsets = matrix.offsets(amplitude: self.ditherAmplitude)
        ditherCells = ditherOffsets.flatMap { offset in
            (0..<256).map { UInt8(min(255, max(0, Int32($0) + offset)) >> Int32(8 - InverseColormap.cellBits)) }
        }
        colormap = InverseColormap(palette: palette)
    }

    /// The index `map` gives an undithered pixel of this colour; 0 for an empty palette.
    package func index(of color: RGB) -> UInt8 {
        guard !palette.isEmpty else { return 0 }
        return colormap.withLookup { $0.index(r: Int32(color.r), g: Int32(color.g), b: Int32(color.b)) }
    }

    /// Maps every pixel. The dither pattern cell of pixel (x, y) is
    /// ((x + ditherOriginX) mod 8, (y + ditherOriginY) mod 8) of the Bayer
    /// matrix (`.diffusion` has no pattern). Leave the origin at 0 to key the
    /// pattern to output positions, or pass the crop's offset inside the
    /// full image to key it to image content, so a panned view keeps every
    /// pixel's index. An empty palette maps every
    /// pixel to transparent, since there is no colour to paint with.
    package func map(_ image: RGBAImage, ditherOriginX: Int = 0, ditherOriginY: Int = 0) -> IndexedImage {
        map(
            image, ditherOriginX: ditherOriginX, ditherOriginY: ditherOriginY,
            parts: ParallelRows.parts(pixels: image.width * image.height, rows: image.height))
    }

    /// Maps rows `rows` of `image` (clamped to it) as an image of their own,
    /// with no copy of them: a sixel viewer frame's band of a canvas kept
    /// whole. The dither origin is the band's, as for `map` of a crop.
    package func map(_ image: RGBAImage, rows: Range<Int>, ditherOriginX: Int = 0, ditherOriginY: Int = 0) -> IndexedImage {
        let first = max(0, min(image.height, rows.lowerBound))
        let height = max(first, min(image.height, rows.upperBound)) - first
        return image.pixels.withUnsafeBytes { bytes in
            map(
                RowView(bytes: bytes, width: image.width, firstRow: first, height: height), ditherOriginX: ditherOriginX,
                ditherOriginY: ditherOriginY, parts: ParallelRows.parts(pixels: image.width * height, rows: height))
        }
    }

    /// `map` with the number of parallel row parts chosen by the caller.
    func map(_ image: RGBAImage, ditherOriginX: Int, ditherOriginY: Int, parts: Int) -> IndexedImage {
        image.pixels.withUnsafeBytes { bytes in
            map(
                RowView(bytes: bytes, width: image.width, firstRow: 0, height: image.height), ditherOriginX: ditherOriginX,
                ditherOriginY: ditherOriginY, parts: parts)
        }
    }

    /// Rows of RGBA pixels in memory that outlives the mapping.
    struct RowView {
        let start: UnsafePointer<UInt8>
        let width: Int
        let height: Int

        init(bytes: UnsafeRawBufferPointer, width: Int, firstRow: Int, height: Int) {
            // An empty image's buffer may have no address: any pointer does, nothing is read.
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 16)!
            start = base + firstRow * width * 4
            self.width = width
            self.height = height
        }

        var hasTransparency: Bool {
            RGBAImage.hasTransparency(UnsafeRawBufferPointer(start: start, count: width * height * 4))
        }
    }

    private func map(_ image: RowView, ditherOriginX: Int, ditherOriginY: Int, parts: Int) -> IndexedImage {
        let width = image.width
        let height = image.height
        let count = width * height
        guard !palette.isEmpty else {
            return IndexedImage(
                checkedWidth: width, height: height,
                indices: [UInt8](repeating: 0, count: count),
                transparent: [Bool](repeating: true, count: count))
        }
        var indices = [UInt8](repeating: 0, count: count)
        let hasAlpha = image.hasTransparency
        var transparent = hasAlpha ? [Bool](repeating: false, count: count) : []
        if dither == .diffusion {
            diffuse(image, into: &indices, transparent: &transparent, hasAlpha: hasAlpha)
        } else {
            threshold(
                image, into: &indices, transparent: &transparent, hasAlpha: hasAlpha, ditherOriginX: ditherOriginX,
                ditherOriginY: ditherOriginY, parts: max(1, min(parts, height)))
        }
        return IndexedImage(
            checkedWidth: width, height: height, indices: indices,
            transparent: hasAlpha ? transparent : nil)
    }

    /// The Bayer threshold (or no dither): each pixel on its own, so row
    /// bands run in parallel, each with its own lazily filled lookup cube
    /// (a cube is not shared: it fills as it is read). A pixel whose cube
    /// cell is filled with one answer takes it straight from the cell
    /// coordinates of `ditherCells`; an unfilled or shared cell goes
    /// through the full lookup with the offset channels.
    private func threshold(
        _ image: RowView, into indices: inout [UInt8], transparent: inout [Bool], hasAlpha: Bool,
        ditherOriginX: Int, ditherOriginY: Int, parts: Int
    ) {
        let width = image.width
        let dithering = dither != .none && ditherAmplitude > 0
        let side = ditherSide
        let tileMask = dithering ? ditherSide - 1 : 0
        precondition(InverseColormap.cellBits == 5, "the cell coordinates below are 5 bits")
        do {
            ditherOffsets.withUnsafeBufferPointer { offsets in
                ditherCells.withUnsafeBufferPointer { cells in
                    indices.withUnsafeMutableBufferPointer { out in
                        transparent.withUnsafeMutableBufferPointer { mask in
                            ParallelRows.run(parts: parts, rows: image.height) { rows in
                                colormap.withLookup { lookup in
                                    // Raw pointers: a buffer pointer's subscript is range-checked in -O builds.
                                    let pixels = UnsafeRawPointer(image.start)
                                    let cells = cells.baseAddress!
                                    let offsets = offsets.baseAddress!
                                    let out = out.baseAddress!
                                    withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: side) { rowCells in
                                        let rowCells = rowCells.baseAddress!
                                        for y in rows {
                                            let patternRow = ((y &+ ditherOriginY) & tileMask) &* side
                                            // This row's tables, by x mod side.
                                            for k in 0..<side {
                                                rowCells[k] = UnsafePointer(
                                                    cells + ((patternRow &+ ((k &+ ditherOriginX) & tileMask)) &<< 8))
                                            }
                                            let first = y &* width
                                            var source = pixels + (first &<< 2)
                                            var target = out + first
                                            for x in 0..<width {
                                                let pixel = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
                                                source += 4
                                                if hasAlpha && pixel >> 24 < 128 {
                                                    mask[first &+ x] = true
                                                    target += 1
                                                    continue
                                                }
                                                let r = Int(pixel & 0xFF)
                                                let g = Int((pixel &>> 8) & 0xFF)
                                                let b = Int((pixel &>> 16) & 0xFF)
                                                let q = rowCells[x & (side &- 1)]
                                                let entry = lookup.entry(Int(q[r]) &<< 10 | Int(q[g]) &<< 5 | Int(q[b]))
                                                if entry < InverseColormap.exactFlag {
                                                    target.pointee = UInt8(truncatingIfNeeded: entry)
                                                } else {
                                                    let d = offsets[patternRow &+ ((x &+ ditherOriginX) & tileMask)]
                                                    target.pointee = lookup.index(
                                                        r: min(255, max(0, Int32(r) &+ d)), g: min(255, max(0, Int32(g) &+ d)),
                                                        b: min(255, max(0, Int32(b) &+ d)))
                                                }
                                                target += 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Floyd–Steinberg error diffusion, serpentine, in row parts of
    /// `diffusionRows` run in parallel. Each part starts with no carried
    /// error (not visible: the first row of a part is dithered afresh), and
    /// the parts depend on the height alone, so the output is the same on
    /// any number of cores. The error diffused
    /// is the wanted colour minus the colour actually picked, so the
    /// lookup cube's 8-level cells cost nothing in accuracy: what one pixel
    /// misses, its neighbours make up. `diffusionWeight` sixteenths of it.
    ///
    /// A pixel waits for the one before it (its error), a chain of about 35
    /// cycles, so one thread diffuses two parts at once, a pixel of each in
    /// turn: the two chains overlap. Measured on a 2160x1440 picture: 33.5
    /// ms of CPU one part at a time, 29 two at a time; the same indices.
    private func diffuse(_ image: RowView, into indices: inout [UInt8], transparent: inout [Bool], hasAlpha: Bool) {
        let width = image.width
        let height = image.height
        let parts = ParallelRows.ranges(parts: max(1, height / Self.diffusionRows), rows: height)
        // Parts two by two: the pairs run in parallel.
        let pairs = stride(from: 0, to: parts.count, by: 2).map { Array(parts[$0..<min(parts.count, $0 + 2)]) }
        // The palette as r, g, b triples, read without bounds checks in the loop.
        let channels = palette.colors.flatMap { [Int32($0.r), Int32($0.g), Int32($0.b)] }
        do {
            indices.withUnsafeMutableBufferPointer { out in
                transparent.withUnsafeMutableBufferPointer { mask in
                    channels.withUnsafeBufferPointer { colors in
                        let diffuser = Diffuser(
                            pixels: image.start, indices: out.baseAddress!, mask: mask.baseAddress,
                            colors: colors.baseAddress!, width: width, weight: Int32(diffusionWeight), hasAlpha: hasAlpha)
                        ParallelRows.run(parts: pairs.count, rows: pairs.count) { chosen in
                            colormap.withLookup { lookup in
                                for pair in chosen { diffuser.run(pairs[pair], lookup: lookup) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Rows per diffusion part: an 800x600 picture is 4 parts, enough for
    /// 2–4 cores.
    static let diffusionRows = 150

    /// Mean over the palette of the distance to the nearest other colour,
    /// measured as the largest per-channel difference; 0 for palettes of
    /// fewer than two colours (nothing to dither between). Per-channel,
    /// because the dither offset moves all three channels together: for
    /// black and white the step is 255, not the 441 of the diagonal, and
    /// with 441 a 25 % grey would come out 35 % white.
    static func meanNeighbourStep(_ palette: Palette) -> Int {
        let colors = palette.colors
        guard colors.count > 1 else { return 0 }
        var total = 0
        for (i, a) in colors.enumerated() {
            var best = Int.max
            for (j, b) in colors.enumerated() where j != i {
                let step = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                best = min(best, step)
            }
            total += best
        }
        return (total + colors.count / 2) / colors.count
    }
}

/// Floyd–Steinberg error diffusion over raw pointers, one or two row parts
/// at a time (`PaletteMapper.diffuse`).
private struct Diffuser {
    let pixels: UnsafePointer<UInt8>
    let indices: UnsafeMutablePointer<UInt8>
    let mask: UnsafeMutablePointer<Bool>?
    /// The palette as r, g, b triples.
    let colors: UnsafePointer<Int32>
    let width: Int
    let weight: Int32
    let hasAlpha: Bool

    /// Where one part's row stands: its next pixel, index and error entries.
    struct Cursor {
        var source: UnsafePointer<UInt8>
        var target: UnsafeMutablePointer<UInt8>
        /// This row's errors (read, and passed on along the row).
        var here: UnsafeMutablePointer<Int32>
        /// The next row's errors (passed down).
        var below: UnsafeMutablePointer<Int32>
    }

    /// One part's two rows of errors, in 1/256 units (x16 for the FS
    /// weights, x16 for `weight`), one pixel of padding either side.
    struct Errors {
        var current: UnsafeMutablePointer<Int32>
        var next: UnsafeMutablePointer<Int32>
        let length: Int

        /// The next row's errors become this row's; the next row's start at 0.
        mutating func advance() {
            swap(&current, &next)
            next.update(repeating: 0, count: length)
        }
    }

    /// Diffuses `parts` (one or two), row by row in step, each part's rows
    /// serpentine from its own first row.
    func run(_ parts: [Range<Int>], lookup: InverseColormap.Lookup) {
        let length = (width + 2) * 3
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * length) { buffer in
            let base = buffer.baseAddress!
            base.initialize(repeating: 0, count: 4 * length)
            var a = Errors(current: base, next: base + length, length: length)
            var b = Errors(current: base + 2 * length, next: base + 3 * length, length: length)
            let first = parts[0]
            let second = parts.count > 1 ? parts[1] : 0..<0
            for offset in 0..<max(first.count, second.count) {
                // Row `offset` of each part runs the same way: both serpentines start forward.
                let forward = offset & 1 == 0
                let rowA = offset < first.count ? first.lowerBound + offset : nil
                let rowB = offset < second.count ? second.lowerBound + offset : nil
                if forward {
                    rows(rowA, a, rowB, b, step: 1, lookup: lookup)
                } else {
                    rows(rowA, a, rowB, b, step: -1, lookup: lookup)
                }
                if rowA != nil { a.advance() }
                if rowB != nil { b.advance() }
            }
        }
    }

    /// Row `rowA` with errors `a` and row `rowB` with errors `b` (either may
    /// be missing), a pixel of each in turn; `step` 1 from the left, -1 from
    /// the right (a constant where this is inlined).
    @inline(__always)
    private func rows(_ rowA: Int?, _ a: Errors, _ rowB: Int?, _ b: Errors, step: Int, lookup: InverseColormap.Lookup) {
        switch (rowA, rowB) {
        case (let rowA?, let rowB?):
            var cursorA = cursor(row: rowA, errors: a, step: step)
            var cursorB = cursor(row: rowB, errors: b, step: step)
            for _ in 0..<width {
                pixel(&cursorA, step: step, lookup: lookup)
                pixel(&cursorB, step: step, lookup: lookup)
            }
        case (let row?, nil), (nil, let row?):
            var only = cursor(row: row, errors: rowA != nil ? a : b, step: step)
            for _ in 0..<width { pixel(&only, step: step, lookup: lookup) }
        case (nil, nil):
            break
        }
    }

    /// The cursor at the first pixel of row `row` going `step`.
    @inline(__always)
    private func cursor(row: Int, errors: Errors, step: Int) -> Cursor {
        let first = step > 0 ? 0 : width &- 1
        let i = row &* width &+ first
        // Entry of pixel x is (x + 1) * 3.
        let entry = (first &+ 1) &* 3
        return Cursor(source: pixels + (i &<< 2), target: indices + i, here: errors.current + entry, below: errors.next + entry)
    }

    /// Maps the cursor's pixel, passes its error on, and steps to the next.
    @inline(__always)
    private func pixel(_ c: inout Cursor, step: Int, lookup: InverseColormap.Lookup) {
        let ahead = step &* 3
        if hasAlpha && c.source[3] < 128 {
            mask?[c.target - indices] = true
        } else {
            let r = min(255, max(0, Int32(c.source[0]) &+ ((c.here[0] &+ 128) &>> 8)))
            let g = min(255, max(0, Int32(c.source[1]) &+ ((c.here[1] &+ 128) &>> 8)))
            let b = min(255, max(0, Int32(c.source[2]) &+ ((c.here[2] &+ 128) &>> 8)))
            let index = lookup.index(r: r, g: g, b: b)
            c.target.pointee = index
            let color = colors + Int(index) &* 3
            let er = (r &- color[0]) &* weight
            let eg = (g &- color[1]) &* weight
            let eb = (b &- color[2]) &* weight
            c.here[ahead] &+= er &* 7
            c.here[ahead &+ 1] &+= eg &* 7
            c.here[ahead &+ 2] &+= eb &* 7
            c.below[-ahead] &+= er &* 3
            c.below[1 &- ahead] &+= eg &* 3
            c.below[2 &- ahead] &+= eb &* 3
            c.below[0] &+= er &* 5
            c.below[1] &+= eg &* 5
            c.below[2] &+= eb &* 5
            c.below[ahead] &+= er
            c.below[ahead &+ 1] &+= eg
            c.below[ahead &+ 2] &+= eb
        }
        c.source += step &<< 2
        c.target += step
        c.here += ahead
        c.below += ahead
    }
}
