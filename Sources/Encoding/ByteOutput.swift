/// Appending escape-sequence pieces to a byte buffer without going through
/// `String`: encoders build megabytes of output per frame, and formatting
/// numbers through `String(describing:)` per colour or run would dominate.
extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of an ASCII literal.
    @inline(__always)
    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}

/// A growable output buffer written through a raw pointer.
///
/// `[UInt8].append` checks uniqueness and capacity on every byte, which
/// showed up as a fifth of sixel encoding time. Hot loops instead reserve
/// a worst-case amount once (`ensureSpare`) and then store bytes unchecked.
struct ByteWriter: ~Copyable {
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit { buffer.deallocate() }

    /// Makes room for at least `extra` more bytes; the `append` calls that
    /// follow must not write more than that without calling this again.
    mutating func ensureSpare(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBuffer.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        // Checked in debug builds (tests), free in release: a missed
        // `ensureSpare` would write past the buffer.
        assert(count < capacity, "ByteWriter: append without ensureSpare")
        buffer[count] = byte
        count &+= 1
    }

    mutating func append(_ bytes: [UInt8]) {
        ensureSpare(bytes.count)
        bytes.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }
            (buffer + count).update(from: start, count: source.count)
        }
        count += bytes.count
    }

    /// Appends the UTF-8 bytes of an ASCII literal (within the spare room).
    @inline(__always)
    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { source in
            assert(count + source.count <= capacity, "ByteWriter: append without ensureSpare")
            guard let start = source.baseAddress else { return }
            (buffer + count).update(from: start, count: source.count)
            count &+= source.count
        }
    }

    /// Appends a non-negative decimal number of at most 20 digits (negative
    /// numbers are written as 0: no terminal parameter here is signed). The
    /// one decimal writer: sixel registers and runs, text pictures' colours.
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        assert(count + Self.decimalDigits(value) <= capacity, "ByteWriter: append without ensureSpare")
        count &+= Self.writeDecimal(value, to: buffer + count)
    }

    /// Lets `body` write straight into the spare room (no more than the
    /// last `ensureSpare` made) and counts the bytes it says it wrote: a
    /// hot loop keeps its output position in a register.
    @inline(__always)
    mutating func appendDirectly(_ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let written = body(buffer + count)
        assert(count + written <= capacity, "ByteWriter: append without ensureSpare")
        count &+= written
    }

    /// Writes `value` (negative as 0) in decimal at `destination`; returns the digits written.
    @inline(__always)
    static func writeDecimal(_ value: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var value = max(0, value)
        if value < 10 {
            destination[0] = UInt8(truncatingIfNeeded: 48 &+ value)
            return 1
        }
        let digits = decimalDigits(value)
        var position = digits &- 1
        while value > 0 {
            destination[position] = UInt8(truncatingIfNeeded: 48 &+ value % 10)
            value /= 10
            position &-= 1
        }
        return digits
    }

    /// How many digits `writeDecimal` writes for `value`.
    @inline(__always)
    static func decimalDigits(_ value: Int) -> Int {
        var digits = 1
        var rest = max(0, value) / 10
        while rest > 0 {
            digits &+= 1
            rest /= 10
        }
        return digits
    }

    /// Appends `a;b;c`: a colour's three numbers (sixel registers, SGR colours).
    @inline(__always)
    mutating func appendDecimals(_ a: Int, _ b: Int, _ c: Int) {
        appendDecimal(a)
        append(UInt8(ascii: ";"))
        appendDecimal(b)
        append(UInt8(ascii: ";"))
        appendDecimal(c)
    }

    /// The bytes written so far, copied out; the writer is consumed.
    consuming func finish() -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: buffer, count: count))
    }
}
