import Pixels

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
    if bytes.starts(with: ImageSignature.jpeg) { return .jpeg }
    if bytes.starts(with: ImageSignature.png) { return .png }
    return nil
}
