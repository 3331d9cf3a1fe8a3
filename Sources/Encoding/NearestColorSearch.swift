/// Nearest palette colour (squared RGB distance) without trying every entry.
///
/// The palette is sorted by green, the channel that carries most of the
/// luminance and therefore spreads photo palettes furthest. A query starts at
/// its green position and walks outwards in both directions, stopping once
/// the green gap alone exceeds the best distance found. For 256-colour photo
/// palettes that visits a few dozen entries instead of 256.
struct NearestColorSearch: Sendable {
    private let greens: [Int32]
    private let reds: [Int32]
    private let blues: [Int32]
    private let originalIndex: [UInt8]

    init(palette: Palette) {
        let order = palette.colors.indices.sorted {
            let a = palette.colors[$0]
            let b = palette.colors[$1]
            return (a.g, a.r, a.b, $0) < (b.g, b.r, b.b, $1)
        }
        greens = order.map { Int32(palette.colors[$0].g) }
        reds = order.map { Int32(palette.colors[$0].r) }
        blues = order.map { Int32(palette.colors[$0].b) }
        originalIndex = order.map { UInt8(truncatingIfNeeded: $0) }
    }

    var isEmpty: Bool { greens.isEmpty }

    /// The palette index nearest to (r, g, b); ties go to the lower sorted
    /// position, so answers are deterministic. Returns 0 for an empty palette.
    func nearest(r: Int32, g: Int32, b: Int32) -> UInt8 {
        let count = greens.count
        guard count > 0 else { return 0 }
        return greens.withUnsafeBufferPointer { gs in
            reds.withUnsafeBufferPointer { rs in
                blues.withUnsafeBufferPointer { bs in
                    // First position whose green is >= g.
                    var low = 0
                    var high = count
                    while low < high {
                        let mid = (low + high) >> 1
                        if gs[mid] < g { low = mid + 1 } else { high = mid }
                    }
                    var best = Int32.max
                    var bestPosition = 0
                    var up = low
                    var down = low - 1
                    var upOpen = up < count
                    var downOpen = down >= 0
                    while upOpen || downOpen {
                        if upOpen {
                            let dg = gs[up] - g
                            let dg2 = dg * dg
                            if dg2 >= best {
                                upOpen = false
                            } else {
                                let dr = rs[up] - r
                                let db = bs[up] - b
                                let d = dg2 + dr * dr + db * db
                                if d < best || (d == best && up < bestPosition) {
                                    best = d
                                    bestPosition = up
                                }
                                up += 1
                                upOpen = up < count
                            }
                        }
                        if downOpen {
                            let dg = g - gs[down]
                            let dg2 = dg * dg
                            if dg2 > best {
                                downOpen = false
                            } else {
                                let dr = rs[down] - r
                                let db = bs[down] - b
                                let d = dg2 + dr * dr + db * db
                                if d <= best {
                                    best = d
                                    bestPosition = down
                                }
                                down -= 1
                                downOpen = down >= 0
                            }
                        }
                    }
                    return originalIndex[bestPosition]
                }
            }
        }
    }
}
