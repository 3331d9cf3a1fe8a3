/// The first bytes of the image files pxview reads and writes, in one place:
/// the decoders' sniffing, the PNG writer and the check on downloaded bodies
/// take them from here.
package enum ImageSignature {
    /// The eight bytes every PNG file starts with.
    package static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// JPEG: the SOI marker (FF D8) and the first byte of the next marker.
    package static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
}
