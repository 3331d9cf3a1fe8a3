import Testing

@testable import HTTP

@Suite struct SHA256Tests {
    /// FIPS 180-2 appendix B vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message.utf8) == digest)
    }

    /// Lengths around the 55/56/64-byte padding boundaries, digests from
    /// Python's hashlib for bytes (i * 7 + 3) % 256.
    @Test(arguments: [
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
        (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
        (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
    ])
    func paddingBoundaries(length: Int, digest: String) {
        let message = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
        #expect(SHA256.hexDigest(message) == digest)
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let message = (0..<1000).map { UInt8(($0 * 7 + 3) % 256) }
        var hasher = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 200, 7] + [Int](repeating: 100, count: 6) {
            hasher.update(message[offset..<offset + size])
            offset += size
        }
        #expect(offset == message.count)
        #expect(hasher.finalize() == SHA256.hash(message))
    }
}
