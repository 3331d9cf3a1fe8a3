/// What a file says of its colours, as its format's spec gives it: an ICC
/// profile (JPEG's APP2 chunks, PNG's `iCCP`, WebP's `ICCP`, HEIF's `colr`
/// `prof`/`rICC`), or primaries and a transfer curve (HEIF's `colr` `nclx`
/// code points, ITU-T H.273; PNG's `cHRM` and `gAMA`). sRGB, untagged
/// files and the descriptions that amount to sRGB have none: the colour
/// step leaves them exactly as decoded.
package enum ColourDescription: Hashable, Sendable {
    case icc([UInt8])
    /// Red, green, blue and white as CIE xy (x then y each), and a curve.
    case primaries(name: String, xy: [Double], transfer: Transfer)
    /// HDR in 8 bits (PQ or HLG: ITU-T H.273 transfer 16 or 18), tone-mapped
    /// as the AVIF and HEIF shims do from more bits (`pxview_hdr_to_srgb8`).
    case hdr(name: String, primaries: Int, transfer: Int)

    /// The decoding curve: sRGB's piecewise one, or a pure power.
    package enum Transfer: Hashable, Sendable {
        case sRGB
        case gamma(Double)
    }

    /// The longest profile read: the largest camera and printer profiles
    /// are a few hundred KB; a bigger one is untrusted weight, not colour.
    package static let maxProfileBytes = 4 << 20

    /// BT.709's (and sRGB's) primaries and D65 white.
    static let bt709: [Double] = [0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290]

    /// An `nclx` box's or a CICP's code points (ITU-T H.273): nil when they
    /// amount to sRGB (BT.709 primaries and the sRGB or BT.709 curves, which
    /// every viewer shows as sRGB, or "unspecified"), or when pxview does
    /// not convert them (`unsupported` says why).
    package static func cicp(primaries: Int, transfer: Int) -> (description: ColourDescription?, unsupported: String?) {
        let named: (String, [Double])?
        switch primaries {
        case 1, 2: named = nil
        case 5: named = ("BT.601 625", [0.64, 0.33, 0.29, 0.60, 0.15, 0.06, 0.3127, 0.3290])
        case 6, 7: named = ("BT.601 525", [0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290])
        case 9: named = ("BT.2020", [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290])
        case 11: named = ("DCI-P3", [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351])
        case 12: named = ("Display P3", [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290])
        default: return (nil, "colour primaries \(primaries) (ITU-T H.273) are not converted")
        }
        let curve: Transfer
        let curveName: String?
        switch transfer {
        case 1, 2, 6, 13, 14, 15:
            curve = .sRGB
            curveName = nil
        case 4:
            curve = .gamma(2.2)
            curveName = "gamma 2.2"
        case 5:
            curve = .gamma(2.8)
            curveName = "gamma 2.8"
        case 8:
            curve = .gamma(1)
            curveName = "linear"
        // Above 8 bits the AVIF and HEIC shims tone-map these themselves, from their full depth.
        case 16, 18:
            // The tone mapper knows BT.709, BT.2020 and Display P3; HDR with
            // unspecified primaries is BT.2020's, as the shims take it.
            let curve = transfer == 16 ? "PQ" : "HLG"
            let known = [1: "BT.709", 2: "BT.2020", 9: "BT.2020", 12: "Display P3"]
            guard let name = known[primaries] else {
                return (nil, "\(curve) (HDR) with colour primaries \(primaries) (ITU-T H.273) is not converted")
            }
            return (.hdr(name: "\(name) \(curve)", primaries: primaries == 2 ? 9 : primaries, transfer: transfer), nil)
        default: return (nil, "transfer characteristics \(transfer) (ITU-T H.273) are not converted")
        }
        guard named != nil || curveName != nil else { return (nil, nil) }
        let name = [named?.0 ?? "BT.709", curveName].compactMap { $0 }.joined(separator: " ")
        return (.primaries(name: name, xy: named?.1 ?? bt709, transfer: curve), nil)
    }

    /// PNG's `cHRM` (white, red, green, blue, x then y each, as read) and
    /// `gAMA` (the encoding exponent): nil when they are within a hair of
    /// sRGB (what most PNG writers put there), so such files stay as decoded.
    package static func png(chromaticities: [Double]?, gamma encoding: Double?) -> ColourDescription? {
        var xy = bt709
        if let c = chromaticities, c.count == 8 {
            xy = [c[2], c[3], c[4], c[5], c[6], c[7], c[0], c[1]]
        }
        let exponent = encoding.map { 1 / $0 }
        let nearSRGB = zip(xy, bt709).allSatisfy { abs($0 - $1) < 0.01 } && abs((exponent ?? 2.2) - 2.2) < 0.05
        guard !nearSRGB, xy.allSatisfy({ $0 > 0 && $0 < 1 }), (exponent ?? 2.2) > 0.1, (exponent ?? 2.2) < 10 else {
            return nil
        }
        let name =
            chromaticities == nil
            ? "gamma \(formatted(exponent ?? 2.2))" : "PNG cHRM primaries, gamma \(formatted(exponent ?? 2.2))"
        return .primaries(name: name, xy: xy, transfer: .gamma(exponent ?? 2.2))
    }

    private static func formatted(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
