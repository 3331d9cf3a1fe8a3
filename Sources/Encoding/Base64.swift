/// Standard base64 (RFC 4648, with `=` padding), straight to bytes: kitty
/// payloads are megabytes per frame, so this avoids Foundation's `Data`
/// round trip and encodes three bytes per step through a 64-entry table.
/// The clipboard's sequences (OSC 52, OSC 5522) use it too: one encoder.
package enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    package static func encode(_ input: [UInt8]) -> [UInt8] {
        encode(input[...])
    }

    /// A part of a larger buffer (a clipboard packet's 4096-byte chunk),
    /// encoded without copying it out first.
    package static func encode(_ input: ArraySlice<UInt8>) -> [UInt8] {
        let outputCount = encodedCount(input.count)
        return [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            input.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { table in
                    let whole = input.count / 3 * 3
                    var i = 0
                    var o = 0
                    while i < whole {
                        let chunk = UInt32(input[i]) << 16 | UInt32(input[i &+ 1]) << 8 | UInt32(input[i &+ 2])
                        output[o] = table[Int(chunk >> 18)]
                        output[o &+ 1] = table[Int((chunk >> 12) & 63)]
                        output[o &+ 2] = table[Int((chunk >> 6) & 63)]
                        output[o &+ 3] = table[Int(chunk & 63)]
                        i &+= 3
                        o &+= 4
                    }
                    let remaining = input.count - whole
                    if remaining > 0 {
                        let second = remaining == 2 ? UInt32(input[i + 1]) : 0
                        let chunk = UInt32(input[i]) << 16 | second << 8
                        output[o] = table[Int(chunk >> 18)]
                        output[o + 1] = table[Int((chunk >> 12) & 63)]
                        output[o + 2] = remaining == 2 ? table[Int((chunk >> 6) & 63)] : UInt8(ascii: "=")
                        output[o + 3] = UInt8(ascii: "=")
                    }
                }
            }
            initialized = outputCount
        }
    }
}
