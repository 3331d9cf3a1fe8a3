/// The still-image formats pxview decodes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png

    /// The name used in messages: "JPEG", "PNG".
    public var displayName: String { rawValue.uppercased() }
}

/// The format of `bytes`, judged only by their first bytes (magic numbers).
///
/// File names and URLs lie (a PNG saved as `photo.jpg` is common), so the
/// content is the only thing trusted. Returns nil for anything else.
public func sniffImageFormat(_ bytes: some Collection<UInt8>) -> ImageFormat? {
    let head = Array(bytes.prefix(8))
    if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
    if head == pngSignature { return .png }
    return nil
}

/// The eight bytes every PNG file starts with.
let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
