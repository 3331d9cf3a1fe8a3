import CShims
import Pixels
import Plumbing

/// What the colour step did to a decoded image: the space it came from,
/// converted to sRGB (descriptions and the viewer's info line say it).
package struct ColourConversion: Sendable, Equatable, CustomStringConvertible {
    /// "Adobe RGB (1998)", "Display P3", "BT.2020 gamma 2.2"…
    package var source: String
    /// HDR light rolled off into SDR (BT.2408's white at 203 cd/m²).
    package var toneMapped: Bool

    package init(source: String, toneMapped: Bool = false) {
        self.source = source
        self.toneMapped = toneMapped
    }

    package var description: String { "\(source) → sRGB" + (toneMapped ? " (tone-mapped)" : "") }
}

/// lcms2 transforms to sRGB, built once per colour description and kept
/// (a handful: every photo of a phone shares one profile). Whoever decodes
/// many images (the explorer, previews' folder walks, pxbench) holds one
/// and hands it in `DecodeOptions`; without one, each decode builds its own.
package final class ColourTransforms: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`; lcms2 transforms
    // made with cmsFLAGS_NOCACHE may be used from several threads at once.
    private let lock = Lock()
    private var entries: [ColourDescription: Entry] = [:]
    private var buildCount = 0
    /// How many transforms were built (tests: the cache is used).
    package var built: Int { lock.withLock { buildCount } }

    /// Descriptions kept at most; past that the cache starts again.
    static let capacity = 16

    final class Entry: @unchecked Sendable {
        let transform: UnsafeMutableRawPointer?
        let name: String
        let problem: String?
        /// The transform changes no colour by more than one level: an sRGB
        /// profile (most cameras' and phones' JPEGs carry one). Such images
        /// are left exactly as decoded, at no cost.
        let isIdentity: Bool
        /// A CMYK profile's: CMYK samples in (`pxview_colour_apply_cmyk`),
        /// used by the JPEG decoder, never on RGBA.
        let isCMYK: Bool

        init(_ description: ColourDescription) {
            var info = pxview_colour_info()
            switch description {
            case .icc(let profile):
                transform = profile.withUnsafeBufferPointer { pxview_colour_from_icc($0.baseAddress, $0.count, &info) }
            case .primaries(_, let xy, let transfer):
                let (curve, gamma): (Int32, Double) =
                    switch transfer {
                    case .sRGB: (1, 0)
                    case .gamma(let value): (0, value)
                    }
                transform = xy.withUnsafeBufferPointer { pxview_colour_from_primaries($0.baseAddress, curve, gamma, &info) }
            case .hdr:
                // Tone-mapped by `ColourStep`, not through a transform.
                transform = nil
            }
            let profileName = withUnsafeBytes(of: info.name) { ColourTransforms.text($0) }
            switch description {
            case .icc: name = profileName.isEmpty ? "an ICC profile" : profileName
            case .primaries(let named, _, _), .hdr(let named, _, _): name = named
            }
            let message = withUnsafeBytes(of: info.message) { ColourTransforms.text($0) }
            problem = transform == nil ? (message.isEmpty ? "no transform" : message) : nil
            isCMYK = info.cmyk != 0
            isIdentity = isCMYK ? false : transform.map(Self.changesNothing) ?? false
        }

        /// Every 15th level of each channel (18³ colours) through the transform.
        private static func changesNothing(_ transform: UnsafeMutableRawPointer) -> Bool {
            let levels = stride(from: 0, through: 255, by: 15).map { UInt8($0) }
            var samples: [UInt8] = []
            for r in levels { for g in levels { for b in levels { samples += [r, g, b, 255] } } }
            var converted = samples
            converted.withUnsafeMutableBufferPointer { pxview_colour_apply(transform, $0.baseAddress, $0.count / 4) }
            return zip(samples, converted).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }

        deinit { pxview_colour_free(transform) }
    }

    package init() {}

    func entry(for description: ColourDescription) -> Entry {
        lock.withLock {
            if let entry = entries[description] { return entry }
            if entries.count >= Self.capacity { entries.removeAll() }
            let entry = Entry(description)
            entries[description] = entry
            buildCount += 1
            return entry
        }
    }

    /// A C string in a fixed buffer, printable characters only (a profile's
    /// description is the file's text).
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix { $0 != 0 }.map { $0 < 0x20 || $0 == 0x7F ? 0x3F : $0 }, as: UTF8.self)
    }
}

/// The decode pipeline's colour step, for every format: the description
/// the file carries (`ColourSources`, or the library's word for JPEG XL's
/// pixels) to sRGB through lcms2, on every frame,
/// after decoding (and DCT scaling) and before any resampling, in parallel
/// rows. An sRGB, untagged or sRGB-equivalent image is not touched.
enum ColourStep {
    /// The HDR tone curve (`pxview_tone_map`), relative to SDR white.
    static func toneMap(_ x: Double, peak: Double) -> Double { pxview_tone_map(x, peak) }

    /// 8-bit HDR (an 8-bit PQ or HLG AVIF or HEIC) through the shims' own
    /// conversion, each row widened to 16 bits first; 1000 cd/m² peak.
    static func toneMap(_ decoded: inout DecodedImage, primaries: Int, transfer: Int) {
        eachRows(of: &decoded) { start, width, rows in
            var wide = [UInt16](repeating: 0, count: width * 4)
            for y in rows {
                let row = start + y * width * 4
                for x in 0..<(width * 4) { wide[x] = UInt16(row[x]) * 257 }
                pxview_hdr_to_srgb8(wide, row, width, Int32(transfer), Int32(primaries), 1000)
            }
        }
    }

    /// `body` on every frame's RGBA rows in place, the rows split across
    /// cores (`ParallelRows`): the first pixel, the width and the rows.
    private static func eachRows(
        of decoded: inout DecodedImage, _ body: (UnsafeMutablePointer<UInt8>, Int, Range<Int>) -> Void
    ) {
        for index in decoded.frames.indices {
            let width = decoded.frames[index].image.width
            let height = decoded.frames[index].image.height
            decoded.frames[index].image.pixels.withUnsafeMutableBufferPointer { pixels in
                guard let start = pixels.baseAddress else { return }
                ParallelRows.run(parts: ParallelRows.parts(pixels: width * height, rows: height), rows: height) { rows in
                    body(start, width, rows)
                }
            }
        }
    }

    /// A tagged JPEG's transform when it changes colours: the JPEG decoder
    /// then runs this step itself, an RGB profile's beside the decoding
    /// (`decodeJPEGWithLibjpeg`), a CMYK one's on the CMYK samples.
    static func jpegTransform(_ bytes: [UInt8], markers: JPEGMarkerInfo, options: DecodeOptions) -> ColourTransforms.Entry? {
        let transforms = options.colourTransforms
        guard options.convertsColour, let description = ColourSources.jpeg(bytes, markers: markers).description
        else { return nil }
        let entry = (transforms ?? ColourTransforms()).entry(for: description)
        return entry.transform != nil && !entry.isIdentity ? entry : nil
    }

    static func apply(_ decoded: inout DecodedImage, bytes: [UInt8], transforms: ColourTransforms?) {
        // Converted already: by the codec's shim (AVIF's HDR, from 16 bits)
        // or beside the decoder (a JPEG's profile).
        if decoded.colour != nil { return }
        var (description, problem) = ColourSources.read(bytes, format: decoded.format)
        if let profile = decoded.libraryProfile { description = .icc(profile) }
        if let problem { decoded.colourProblem = problem }
        guard let description else { return }
        if case .hdr(let name, let primaries, let transfer) = description {
            toneMap(&decoded, primaries: primaries, transfer: transfer)
            decoded.colour = ColourConversion(source: name, toneMapped: true)
            return
        }
        let transforms = transforms ?? ColourTransforms()
        let entry = transforms.entry(for: description)
        guard let transform = entry.transform else {
            decoded.colourProblem = "\(entry.name): \(entry.problem ?? "unusable"); shown untagged"
            return
        }
        // A CMYK profile is for a JPEG decoder's CMYK samples, gone by now;
        // on any other image it describes samples the file does not have.
        if entry.isCMYK {
            if decoded.format != .jpeg { decoded.colourProblem = "\(entry.name): a CMYK profile on an RGB image; shown untagged" }
            return
        }
        if entry.isIdentity {
            // Converted by the library itself (JPEG XL asked for sRGB): named from the file's own profile.
            if let original = decoded.libraryConvertedFrom {
                let own = transforms.entry(for: .icc(original))
                if own.transform != nil, !own.isIdentity { decoded.colour = ColourConversion(source: own.name) }
            }
            return
        }
        eachRows(of: &decoded) { start, width, rows in
            pxview_colour_apply(transform, start + rows.lowerBound * width * 4, rows.count * width)
        }
        decoded.colour = ColourConversion(source: entry.name)
    }
}
