/// Making untrusted text (image tags, user names, file names, anything from
/// the network) safe to print, and measuring it in terminal cells.
package enum TerminalText {
    /// What a dangerous character is replaced with: visible, one cell wide,
    /// and obviously "something was here".
    package static let replacement: Character = "\u{FFFD}"

    /// Returns `text` with every character that could steer the terminal
    /// replaced, so it can be printed verbatim inside a UI:
    ///
    /// - Tab, LF and CR become a single space: text shown in one UI line must
    ///   stay on that line, and a space keeps words apart.
    /// - All other C0 controls (including ESC, which starts every escape
    ///   sequence, and BEL, which ends OSC strings), DEL, and the C1 controls
    ///   U+0080–U+009F (U+009B is CSI on terminals that honour 8-bit
    ///   controls) become U+FFFD.
    /// - Bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
    ///   U+2066–U+2069) become U+FFFD, so a name cannot reorder the text
    ///   displayed after it ("Trojan Source" style spoofing).
    package static func sanitize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F,
                0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                scalars.append(contentsOf: replacement.unicodeScalars)
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The number of terminal cells `text` occupies, summed per Unicode scalar
    /// as `wcswidth` does: East Asian wide and fullwidth characters and
    /// emoji take 2, combining marks, format characters and zero-width
    /// joiners take 0, everything else 1. Control characters count 0 (they
    /// should have been sanitized away). Terminals disagree about emoji ZWJ
    /// sequences and ambiguous-width characters; this is the common answer.
    package static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `width` cells, ending in "…" (`glyphs`' ellipsis:
    /// "..." in ASCII) when anything was cut. Cuts fall between grapheme
    /// clusters, so a combining accent never loses its base letter, and a
    /// wide character that would straddle the limit is dropped whole.
    package static func truncate(_ text: String, toWidth width: Int, glyphs: Glyphs = .unicode) -> String {
        guard width > 0 else { return "" }
        if displayWidth(text) <= width { return text }
        let ellipsis = glyphs.ellipsis
        guard width > ellipsis.count else { return String(ellipsis.prefix(width)) }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = character.unicodeScalars.reduce(0) { $0 + Self.width(of: $1) }
            if used + characterWidth > width - ellipsis.count { break }
            result.append(character)
            used += characterWidth
        }
        return result + ellipsis
    }

    /// The end of `text` that fits in `width` cells, starting with "…" (or
    /// `glyphs`' ellipsis) when anything was cut: what an edit line shows,
    /// so the cursor end stays in sight. One pass from the end, whatever the
    /// length (trimming one character at a time from the front took 25 s
    /// for a 120 KB paste).
    package static func tail(_ text: String, toWidth width: Int, glyphs: Glyphs = .unicode) -> String {
        guard width > 0 else { return "" }
        if displayWidth(text) <= width { return text }
        let ellipsis = glyphs.ellipsis
        guard width > ellipsis.count else { return String(ellipsis.prefix(width)) }
        var used = 0
        var start = text.endIndex
        for index in text.indices.reversed() {
            let characterWidth = text[index].unicodeScalars.reduce(0) { $0 + Self.width(of: $1) }
            if used + characterWidth > width - ellipsis.count { break }
            used += characterWidth
            start = index
        }
        return ellipsis + text[start...]
    }

    /// `text` cut in the middle to at most `width` cells, its start and end
    /// kept (`IMG_2024…0412.jpg`): what a file name under a tile shows, so
    /// the numbers and the extension that tell photos apart stay in sight.
    package static func middle(_ text: String, toWidth width: Int, glyphs: Glyphs = .unicode) -> String {
        guard displayWidth(text) > width else { return text }
        let ellipsis = glyphs.ellipsis
        guard width > ellipsis.count + 1 else { return truncate(text, toWidth: width, glyphs: glyphs) }
        let room = width - ellipsis.count
        let end = String(tail(text, toWidth: room / 2 + ellipsis.count, glyphs: glyphs).dropFirst(ellipsis.count))
        return truncate(text, toWidth: room - displayWidth(end) + ellipsis.count, glyphs: glyphs) + end
    }

    /// Cell width of one scalar (see `displayWidth`).
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        // Latin-1 (soft hyphen included) is all single width: skip the lookup.
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        // Hangul Jamo medial vowels and final consonants join the syllable.
        if (0x1160...0x11FF).contains(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges plus emoji with default
    /// emoji presentation, after Unicode 15 `EastAsianWidth.txt`, merged into
    /// coarse ranges (a few narrow symbols inside the emoji blocks count as
    /// wide; that error is accepted for the sake of a short table).
    private static func isWide(_ value: UInt32) -> Bool {
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC,
        0x23F0...0x23F0, 0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615,
        0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE,
        0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755,
        0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0, 0x27BF...0x27BF,
        0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
        0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
