import Testing

@testable import Plumbing

/// Faulting pages in beside a writer never changes what it wrote, at any
/// size, wherever the writer is when the helper gets there.
@Suite struct PrefaultTests {
    @Test(arguments: [0, 4096, Prefault.minimumBytes, 5 * Prefault.minimumBytes + 123])
    func whatTheBodyWritesStays(count: Int) {
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let returned = Prefault.whileFilling(UnsafeMutableRawBufferPointer(buffer)) { () -> Int in
                // Top to bottom, as a decoder writes.
                for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 12) }
                return count
            }
            #expect(returned == count)
            initialized = count
        }
        #expect(bytes.indices.allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) })
    }
}
