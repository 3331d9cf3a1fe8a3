import Encoding
import Foundation
import Testing

/// The one Base64 encoder (kitty payloads, the clipboard's sequences).
@Suite struct Base64Tests {
    /// RFC 4648's test vectors (section 10): every padding case.
    @Test func encodesTheRFCVectors() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy",
        ]
        for (text, expected) in vectors {
            #expect(String(decoding: Base64.encode(Array(text.utf8)), as: UTF8.self) == expected, "\(text)")
        }
    }

    /// Every byte value, and a slice that starts inside its buffer: the
    /// same text as Foundation's (the slice's own bytes, not its buffer's start).
    @Test func aSliceEncodesItsOwnBytes() {
        let bytes = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(Base64.encode(bytes) == Array(Data(bytes).base64EncodedString().utf8))
        for start in [1, 2, 3, 97] {
            let slice = bytes[start..<(start + 100)]
            #expect(Base64.encode(slice) == Array(Data(slice).base64EncodedString().utf8), "\(start)")
        }
        #expect(Base64.encode(bytes[5..<5]).isEmpty)
    }
}
