/// Nearest-palette-index lookup through a 32x32x32 RGB cube (5 bits per
/// channel), filled lazily during one pass over an image.
///
/// Filling all 32768 cells up front costs 5-9 ms for a 256-colour photo
/// palette, because cells far from every colour (most of the cube for a
/// photo) must weigh most of the palette. An image touches only a few
/// thousand cells, nearly all close to palette colours, so each pass fills
/// just those: well under a millisecond.
///
/// A cell is filled from its box (8x8x8 boxes of 4x4x4 cells, as in
/// libjpeg's inverse colormap): a colour can be nearest to some point of a
/// box only if its distance to the box is at most the smallest
/// farthest-corner distance of any colour. The surviving candidates are
/// sorted by distance to the box, and a cell scans them in that order until
/// that distance alone reaches the best found. Ties go to the lowest index.
///
/// The nearest colour to a cell centre is not always the nearest to every
/// colour in the cell; in particular two palette colours can share a cell.
/// A cell holding a palette colour other than the one its centre maps to is
/// therefore flagged, and pixels landing in it are first checked for an
/// exact palette match, so exact colours always map to themselves, then
/// searched exactly. Only such conflicted cells pay for the probe and search.
struct InverseColormap: Sendable {
    static let cellBits = 5
    static let cellsPerSide = 1 << cellBits
    static let cellCount = cellsPerSide * cellsPerSide * cellsPerSide
    private static let cellsPerBoxSide = 4
    private static let boxesPerSide = cellsPerSide / cellsPerBoxSide
    static let exactFlag: UInt16 = 0x100
    static let unfilled: UInt16 = 0xFFFF

    let reds: [Int32]
    let greens: [Int32]
    let blues: [Int32]
    /// True for cells containing at least one palette colour.
    let exactCells: [Bool]
    let exactColors: ExactColorTable

    init(palette: Palette) {
        reds = palette.colors.map { Int32($0.r) }
        greens = palette.colors.map { Int32($0.g) }
        blues = palette.colors.map { Int32($0.b) }
        var exactCells = [Bool](repeating: false, count: Self.cellCount)
        for color in palette.colors {
            exactCells[Self.cell(r: Int32(color.r), g: Int32(color.g), b: Int32(color.b))] = true
        }
        self.exactCells = exactCells
        exactColors = ExactColorTable(palette: palette)
    }

    @inline(__always)
    static func cell(r: Int32, g: Int32, b: Int32) -> Int {
        let shift = Int32(8 - cellBits)
        let bits = Int32(cellBits)
        return Int((r >> shift) << (2 * bits) | (g >> shift) << bits | (b >> shift))
    }

    /// Runs `body` with a fresh lookup whose cube fills as it is queried.
    /// The lookup must not escape `body`. Requires a non-empty palette.
    func withLookup<Result>(_ body: (Lookup) -> Result) -> Result {
        let boxCount = Self.boxesPerSide * Self.boxesPerSide * Self.boxesPerSide
        let cube = UnsafeMutablePointer<UInt16>.allocate(capacity: Self.cellCount)
        cube.initialize(repeating: Self.unfilled, count: Self.cellCount)
        let candidates = UnsafeMutablePointer<UInt32>.allocate(capacity: boxCount * 256)
        let candidateCounts = UnsafeMutablePointer<Int>.allocate(capacity: boxCount)
        candidateCounts.initialize(repeating: -1, count: boxCount)
        defer {
            cube.deallocate()
            candidates.deallocate()
            candidateCounts.deallocate()
        }
        return reds.withUnsafeBufferPointer { reds in
            greens.withUnsafeBufferPointer { greens in
                blues.withUnsafeBufferPointer { blues in
                    exactCells.withUnsafeBufferPointer { exactCells in
                        body(
                            Lookup(
                                cube: cube, candidates: candidates, candidateCounts: candidateCounts,
                                reds: reds, greens: greens, blues: blues, exactCells: exactCells,
                                exactColors: exactColors))
                    }
                }
            }
        }
    }

    /// Pointers into one `withLookup` call's scratch memory and palette.
    struct Lookup {
        let cube: UnsafeMutablePointer<UInt16>
        /// Per box, up to 256 entries of (squared distance to box) << 8 | index.
        let candidates: UnsafeMutablePointer<UInt32>
        /// Per box, candidates filled so far; -1 until the box is first used.
        let candidateCounts: UnsafeMutablePointer<Int>
        let reds: UnsafeBufferPointer<Int32>
        let greens: UnsafeBufferPointer<Int32>
        let blues: UnsafeBufferPointer<Int32>
        let exactCells: UnsafeBufferPointer<Bool>
        let exactColors: ExactColorTable

        /// The cube's entry for `cell` as it stands: below `exactFlag` it is
        /// the answer for every colour in the cell; otherwise (unfilled, or
        /// a cell holding several palette colours) ask `index(r:g:b:)`.
        @inline(__always)
        func entry(_ cell: Int) -> UInt16 { cube[cell] }

        /// Nearest palette index to (r, g, b), each 0...255.
        @inline(__always)
        func index(r: Int32, g: Int32, b: Int32) -> UInt8 {
            let cell = InverseColormap.cell(r: r, g: g, b: b)
            var entry = cube[cell]
            if entry == InverseColormap.unfilled { entry = fill(cell) }
            if entry & InverseColormap.exactFlag != 0 {
                if let exact = exactColors.index(
                    of: RGB(
                        r: UInt8(truncatingIfNeeded: r), g: UInt8(truncatingIfNeeded: g),
                        b: UInt8(truncatingIfNeeded: b)))
                {
                    return exact
                }
                return nearest(r: r, g: g, b: b, cell: cell)
            }
            return UInt8(truncatingIfNeeded: entry)
        }

        /// The true nearest colour for a pixel in a cell holding several
        /// palette colours, where the cell centre's answer can be a
        /// neighbour's: colours a sixel percent apart (2.55 levels) share
        /// 8-level cells, and a smooth sky then lost its finest steps.
        /// Searches the box's candidates, nearest box first (the cell was
        /// filled, so they are collected).
        @inline(never)
        private func nearest(r: Int32, g: Int32, b: Int32, cell: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: search(r: r, g: g, b: b, box: Self.box(of: cell)))
        }

        /// The nearest of `box`'s candidates to (r, g, b), a point in the
        /// box: they are sorted by distance to the box, a lower bound of
        /// their distance to the point, so the scan stops at the first one
        /// that cannot beat the best. Ties go to the lowest index.
        @inline(__always)
        private func search(r: Int32, g: Int32, b: Int32, box: Int) -> Int {
            let boxCandidates = candidates + box * 256
            var best = Int32.max
            var bestIndex = 0
            for k in 0..<candidateCounts[box] {
                let candidate = boxCandidates[k]
                if Int32(truncatingIfNeeded: candidate >> 8) > best { break }
                let i = Int(candidate & 0xFF)
                let er = reds[i] &- r
                let eg = greens[i] &- g
                let eb = blues[i] &- b
                let d = er &* er &+ eg &* eg &+ eb &* eb
                if d < best || (d == best && i < bestIndex) {
                    best = d
                    bestIndex = i
                }
            }
            return bestIndex
        }

        @inline(__always)
        private static func box(of cell: Int) -> Int {
            let bits = InverseColormap.cellBits
            let perBox = InverseColormap.cellsPerBoxSide
            let cellR = cell >> (2 * bits)
            let cellG = (cell >> bits) & (cellsPerSide - 1)
            let cellB = cell & (cellsPerSide - 1)
            return ((cellR / perBox) * InverseColormap.boxesPerSide + cellG / perBox) * InverseColormap.boxesPerSide + cellB
                / perBox
        }

        @inline(never)
        private func fill(_ cell: Int) -> UInt16 {
            let bits = InverseColormap.cellBits
            let cellR = cell >> (2 * bits)
            let cellG = (cell >> bits) & (cellsPerSide - 1)
            let cellB = cell & (cellsPerSide - 1)
            let perBox = InverseColormap.cellsPerBoxSide
            let boxesPerSide = InverseColormap.boxesPerSide
            let box = ((cellR / perBox) * boxesPerSide + cellG / perBox) * boxesPerSide + cellB / perBox
            let boxCandidates = candidates + box * 256
            if candidateCounts[box] < 0 {
                candidateCounts[box] = collectCandidates(
                    boxR: cellR / perBox, boxG: cellG / perBox, boxB: cellB / perBox, into: boxCandidates)
            }
            let cellSize = Int32(256 / cellsPerSide)
            let r = Int32(cellR) * cellSize + cellSize / 2
            let g = Int32(cellG) * cellSize + cellSize / 2
            let b = Int32(cellB) * cellSize + cellSize / 2
            let bestIndex = search(r: r, g: g, b: b, box: box)
            let entry = UInt16(bestIndex) | (holdsOtherPaletteColor(cell, than: bestIndex) ? InverseColormap.exactFlag : 0)
            cube[cell] = entry
            return entry
        }

        /// True when a palette colour other than `index` lies inside `cell`.
        private func holdsOtherPaletteColor(_ cell: Int, than index: Int) -> Bool {
            guard exactCells[cell] else { return false }
            for i in 0..<reds.count
            where i != index
                && InverseColormap.cell(r: reds[i], g: greens[i], b: blues[i]) == cell
            {
                return true
            }
            return false
        }

        /// Fills `output` with the box's candidates sorted by distance to the box; returns their count.
        private func collectCandidates(boxR: Int, boxG: Int, boxB: Int, into output: UnsafeMutablePointer<UInt32>) -> Int {
            let cellSize = Int32(256 / cellsPerSide)
            let span = Int32(InverseColormap.cellsPerBoxSide) * cellSize
            // The box's cell centres span [low, low + extent] on each axis.
            let lowR = Int32(boxR) * span + cellSize / 2
            let lowG = Int32(boxG) * span + cellSize / 2
            let lowB = Int32(boxB) * span + cellSize / 2
            let extent = span - cellSize
            var bestFarthest = Int32.max
            for i in 0..<reds.count {
                let far =
                    Self.farthest(reds[i], lowR, extent) &+ Self.farthest(greens[i], lowG, extent)
                    &+ Self.farthest(blues[i], lowB, extent)
                bestFarthest = min(bestFarthest, far)
            }
            var count = 0
            for i in 0..<reds.count {
                let near =
                    Self.nearest(reds[i], lowR, extent) &+ Self.nearest(greens[i], lowG, extent)
                    &+ Self.nearest(blues[i], lowB, extent)
                if near <= bestFarthest {
                    output[count] = UInt32(near) << 8 | UInt32(i)
                    count += 1
                }
            }
            var sortable = UnsafeMutableBufferPointer(start: output, count: count)
            sortable.sort()
            return count
        }

        /// Squared distance along one axis from `value` to the interval [low, low + extent].
        @inline(__always)
        private static func nearest(_ value: Int32, _ low: Int32, _ extent: Int32) -> Int32 {
            let d = value < low ? low - value : value > low + extent ? value - low - extent : 0
            return d &* d
        }

        /// Squared distance along one axis from `value` to the farther end of the interval.
        @inline(__always)
        private static func farthest(_ value: Int32, _ low: Int32, _ extent: Int32) -> Int32 {
            let d = max(abs(value - low), abs(value - low - extent))
            return d &* d
        }
    }
}

/// Palette colour -> index by open addressing, for the exact-match check.
/// 1024 slots for at most 256 colours keeps probes short.
struct ExactColorTable: Sendable {
    private static let capacity = 1024
    /// rgb + 1 per slot (0 = empty), paired with the palette index.
    private var keys = [UInt32](repeating: 0, count: capacity)
    private var values = [UInt8](repeating: 0, count: capacity)

    init(palette: Palette) {
        for (index, color) in palette.colors.enumerated() {
            // The first of duplicate palette entries wins, as in the nearest search.
            _ = insert(color, index: UInt8(truncatingIfNeeded: index))
        }
    }

    /// An empty table, for collecting distinct colours.
    init() {}

    @inline(__always)
    private static func key(_ color: RGB) -> UInt32 {
        (UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)) &+ 1
    }

    @inline(__always)
    private static func slot(_ key: UInt32) -> Int {
        Int((key &* 2_654_435_761) >> 22) & (capacity - 1)
    }

    /// Adds `color` unless present; returns false when it was already there.
    mutating func insert(_ color: RGB, index: UInt8) -> Bool {
        let key = Self.key(color)
        var slot = Self.slot(key)
        while keys[slot] != 0 {
            if keys[slot] == key { return false }
            slot = (slot + 1) & (Self.capacity - 1)
        }
        keys[slot] = key
        values[slot] = index
        return true
    }

    @inline(__always)
    func index(of color: RGB) -> UInt8? {
        let key = Self.key(color)
        var slot = Self.slot(key)
        while true {
            let existing = keys[slot]
            if existing == key { return values[slot] }
            if existing == 0 { return nil }
            slot = (slot + 1) & (Self.capacity - 1)
        }
    }
}
