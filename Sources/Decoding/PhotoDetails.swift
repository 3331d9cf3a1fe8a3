import Pixels

/// What a camera wrote about a photo (EXIF), for the viewer's `i` line:
/// when it was taken, the camera and lens, and the exposure. Read from a
/// JPEG's APP1 `Exif` segment or a PNG's `eXIf` chunk; every read bounded
/// (the bytes are untrusted), every text kept printable and short.
package struct PhotoDetails: Equatable, Sendable, CustomStringConvertible {
    /// DateTimeOriginal (else IFD0's DateTime) as `2024-05-01 18:42`.
    package var taken: String?
    /// Model, with Make before it when the model does not say it ("Canon EOS R5").
    package var camera: String?
    package var lens: String?
    /// `1/250 s f/2.8 ISO 400 50 mm`, what of it the file has.
    package var exposure: String?

    /// `2024-05-01 18:42 · Canon EOS R5 · RF50mm F1.8 STM · 1/250 s f/2.8 ISO 400 50 mm`.
    package var description: String { [taken, camera, lens, exposure].compactMap { $0 }.joined(separator: " · ") }

    /// The details `bytes` (of `format`) carry; nil when there are none.
    package static func read(_ bytes: [UInt8], format: ImageFormat) -> PhotoDetails? {
        let found: PhotoDetails?
        switch format {
        case .jpeg:
            let markers = JPEGMarkerInfo(scanning: bytes)
            guard let exif = markers.exif else { return nil }
            found = bytes.withUnsafeBufferPointer { read(tiff: UnsafeBufferPointer(rebasing: $0[exif])) }
        case .png:
            var details: PhotoDetails?
            walkPNGChunks(bytes) { chunk in
                guard chunk.type == "eXIf" else { return chunk.type != "IDAT" && chunk.type != "IEND" }
                details = bytes.withUnsafeBufferPointer { data in
                    var payload = UnsafeBufferPointer(rebasing: data[chunk.data])
                    if payload.starts(with: exifHeader) { payload = UnsafeBufferPointer(rebasing: payload[exifHeader.count...]) }
                    return read(tiff: payload)
                }
                return false
            }
            found = details
        case .gif, .webp, .avif, .heic, .jxl: found = nil
        }
        return found.flatMap { $0.description.isEmpty ? nil : $0 }
    }

    /// The fields of a TIFF stream's IFD0 and its Exif IFD.
    static func read(tiff: UnsafeBufferPointer<UInt8>) -> PhotoDetails? {
        guard let reader = TIFFReader(tiff), let ifd0 = reader.entries(atOffset: reader.firstIFD) else { return nil }
        let exif = ifd0[0x8769].flatMap { reader.number($0) }.flatMap { reader.entries(atOffset: Int($0)) } ?? [:]
        var details = PhotoDetails()
        let date = exif[0x9003].flatMap(reader.text) ?? ifd0[0x0132].flatMap(reader.text)
        details.taken = date.flatMap(Self.date)
        let make = ifd0[0x010F].flatMap(reader.text)
        let model = ifd0[0x0110].flatMap(reader.text)
        if let model, let make, !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first ?? "") {
            details.camera = make + " " + model
        } else {
            details.camera = model ?? make
        }
        details.lens = exif[0xA434].flatMap(reader.text)
        var exposure: [String] = []
        if let time = exif[0x829A].flatMap(reader.rational), time > 0 {
            exposure.append(time < 1 ? "1/\(Int((1 / time).rounded())) s" : "\(Self.short(time)) s")
        }
        if let f = exif[0x829D].flatMap(reader.rational), f > 0 { exposure.append("f/\(Self.short(f))") }
        if let iso = exif[0x8827].flatMap(reader.number), iso > 0 { exposure.append("ISO \(iso)") }
        if let focal = exif[0x920A].flatMap(reader.rational), focal > 0 { exposure.append("\(Self.short(focal)) mm") }
        details.exposure = exposure.isEmpty ? nil : exposure.joined(separator: " ")
        return details
    }

    /// `2024:05:01 18:42:07` as `2024-05-01 18:42`; nil for the blanks some cameras write.
    static func date(_ text: String) -> String? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0].count == 10, parts[1].count >= 5, parts[0] != "0000:00:00" else { return nil }
        return String(parts[0].map { $0 == ":" ? "-" : $0 }) + " " + parts[1].prefix(5)
    }

    /// 2.8 as "2.8", 50.0 as "50".
    static func short(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\((value * 10).rounded() / 10)"
    }
}

private let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

/// A TIFF stream's IFD entries, read with bounds checked at every step.
struct TIFFReader {
    struct Entry {
        var type: Int
        var count: Int
        /// Where the value is: in the entry itself when it fits in 4 bytes.
        var valueOffset: Int
    }

    let data: UnsafeBufferPointer<UInt8>
    let bigEndian: Bool
    let firstIFD: Int

    init?(_ tiff: UnsafeBufferPointer<UInt8>) {
        guard tiff.count >= 8 else { return nil }
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        data = tiff
        guard readUInt16(tiff, at: 2, bigEndian: bigEndian) == 42, let first = readUInt32(tiff, at: 4, bigEndian: bigEndian)
        else { return nil }
        firstIFD = Int(first)
    }

    /// An IFD's entries by tag (at most 512 read: no real IFD has more).
    func entries(atOffset offset: Int) -> [Int: Entry]? {
        guard let count = readUInt16(data, at: offset, bigEndian: bigEndian) else { return nil }
        var entries: [Int: Entry] = [:]
        for index in 0..<min(Int(count), 512) {
            let at = offset + 2 + index * 12
            guard let tag = readUInt16(data, at: at, bigEndian: bigEndian),
                let type = readUInt16(data, at: at + 2, bigEndian: bigEndian),
                let count = readUInt32(data, at: at + 4, bigEndian: bigEndian)
            else { break }
            let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8][Int(type)] ?? 0
            let total = Int(count) * size
            let valueOffset = total <= 4 ? at + 8 : readUInt32(data, at: at + 8, bigEndian: bigEndian).map { Int($0) } ?? -1
            guard size > 0, valueOffset >= 0, total <= data.count, valueOffset <= data.count - total else { continue }
            entries[Int(tag)] = Entry(type: Int(type), count: Int(count), valueOffset: valueOffset)
        }
        return entries
    }

    /// An ASCII value, printable characters only, trimmed, at most 64 characters; nil when empty.
    func text(_ entry: Entry) -> String? {
        guard entry.type == 2 else { return nil }
        let bytes = data[entry.valueOffset..<(entry.valueOffset + entry.count)].prefix { $0 != 0 }
        let printable = bytes.filter { $0 >= 0x20 && $0 < 0x7F }
        let trimmed = printable.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        return trimmed.isEmpty ? nil : String(decoding: trimmed.prefix(64), as: UTF8.self)
    }

    /// A SHORT or LONG value.
    func number(_ entry: Entry) -> Int? {
        switch entry.type {
        case 3: readUInt16(data, at: entry.valueOffset, bigEndian: bigEndian).map(Int.init)
        case 4: readUInt32(data, at: entry.valueOffset, bigEndian: bigEndian).map(Int.init)
        default: nil
        }
    }

    /// A RATIONAL (or SRATIONAL) value; nil when its denominator is 0.
    func rational(_ entry: Entry) -> Double? {
        guard entry.type == 5 || entry.type == 10,
            let numerator = readUInt32(data, at: entry.valueOffset, bigEndian: bigEndian),
            let denominator = readUInt32(data, at: entry.valueOffset + 4, bigEndian: bigEndian), denominator != 0
        else { return nil }
        return entry.type == 5
            ? Double(numerator) / Double(denominator)
            : Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
    }
}
