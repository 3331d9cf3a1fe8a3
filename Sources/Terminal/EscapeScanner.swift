import ControlSequences

/// Byte-level recognition of the escape sequences terminals send us, shared by
/// the keyboard/mouse decoder and the capability-probe reply parser so both
/// agree on where a sequence ends, however the stream was split into reads.
///
/// Only 7-bit introducers are recognised: terminals answer with `ESC [` and
/// `ESC _` by default, and treating 8-bit C1 bytes (0x9B...) as introducers
/// would misread UTF-8 continuation bytes of ordinary typed text.
enum EscapeScanner {
    static let escape = TerminalCommand.escape
    static let bell: UInt8 = 0x07

    /// A complete control sequence `ESC [ <prefix> <params> <intermediates> <final>`.
    struct CSI: Equatable {
        /// `<`, `=`, `>` or `?` when the parameter string starts with one
        /// (SGR mouse reports, DEC private replies, DA2 replies).
        var prefix: UInt8?
        /// `;`-separated numbers; an empty or overlong field is nil. Only the
        /// first `:` sub-parameter of a field is kept.
        var params: [Int?]
        var intermediates: [UInt8]
        var final: UInt8

        /// The parameter at `index`, or nil when absent or empty.
        func param(_ index: Int) -> Int? {
            index < params.count ? params[index] : nil
        }
    }

    enum CSIScan: Equatable {
        /// A whole sequence of `length` bytes starting at the ESC.
        case complete(CSI, length: Int)
        /// The bytes so far are a valid prefix; wait for more.
        case incomplete
        /// Not a valid sequence: the first `length` bytes should be dropped
        /// (reported as garbage) and scanning resumed after them.
        case malformed(length: Int)
        /// `maxLength` bytes without a final byte: garbage, and the bytes
        /// after it up to a final byte belong to the same garbage.
        case tooLong(length: Int)
    }

    /// Scans a CSI whose `ESC [` starts at `start`. A sequence that reaches
    /// `maxLength` bytes without a final byte is malformed, which bounds how
    /// much garbage can ever sit pending.
    static func scanCSI(_ bytes: [UInt8], from start: Int, maxLength: Int) -> CSIScan {
        var index = start + 2
        var sawIntermediate = false
        while index < bytes.count {
            if index - start >= maxLength { return .tooLong(length: maxLength) }
            let byte = bytes[index]
            switch byte {
            case 0x30...0x3F where !sawIntermediate:
                index += 1
            case 0x20...0x2F:
                sawIntermediate = true
                index += 1
            case 0x40...0x7E:
                let parsed = parseCSI(parameterBytes: bytes[(start + 2)..<index], final: byte)
                return .complete(parsed, length: index - start + 1)
            default:
                return .malformed(length: index - start)
            }
        }
        return bytes.count - start >= maxLength ? .tooLong(length: maxLength) : .incomplete
    }

    /// True for bytes that may continue a CSI (parameters, intermediates).
    static func continuesCSI(_ byte: UInt8) -> Bool {
        (0x20...0x3F).contains(byte)
    }

    /// True for bytes that end a CSI.
    static func endsCSI(_ byte: UInt8) -> Bool {
        (0x40...0x7E).contains(byte)
    }

    private static func parseCSI(parameterBytes: ArraySlice<UInt8>, final: UInt8) -> CSI {
        var body = parameterBytes
        var prefix: UInt8?
        if let first = body.first, (0x3C...0x3F).contains(first) {
            prefix = first
            body = body.dropFirst()
        }
        var params: [Int?] = []
        var intermediates: [UInt8] = []
        var current: Int? = nil
        var fieldHasDigits = false
        var fieldOverflowed = false
        var inSubParameter = false
        func closeField() {
            params.append(fieldHasDigits && !fieldOverflowed ? current : nil)
            current = nil
            fieldHasDigits = false
            fieldOverflowed = false
            inSubParameter = false
        }
        for byte in body {
            switch byte {
            case 0x30...0x39 where !inSubParameter:
                fieldHasDigits = true
                let value = (current ?? 0) * 10 + Int(byte - 0x30)
                // Nine digits is far beyond any real reply; larger is garbage.
                if value > 999_999_999 { fieldOverflowed = true } else { current = value }
            case 0x3B:
                closeField()
            case 0x3A:
                inSubParameter = true
            case 0x20...0x2F:
                intermediates.append(byte)
            default:
                break
            }
        }
        if fieldHasDigits || !params.isEmpty || inSubParameter { closeField() }
        return CSI(prefix: prefix, params: params, intermediates: intermediates, final: final)
    }

    enum StringScan: Equatable {
        /// A terminated string of `length` bytes; `payload` is the range
        /// between the two-byte introducer and the terminator.
        case complete(length: Int, payload: Range<Int>)
        case incomplete
        /// Not a string after all (an ESC inside it that is not ST, or no
        /// terminator within the length bound): the introducer was most
        /// likely an Alt-key press such as Alt-P or Alt-_.
        case notAString
    }

    /// Scans an APC (`ESC _`), DCS (`ESC P`) or OSC (`ESC ]`) string starting
    /// at `start`, ended by ST (`ESC \`) or, for OSC, BEL.
    static func scanString(_ bytes: [UInt8], from start: Int, maxLength: Int) -> StringScan {
        let allowsBell = bytes[start + 1] == UInt8(ascii: "]")
        var index = start + 2
        while index < bytes.count {
            if index - start >= maxLength { return .notAString }
            let byte = bytes[index]
            if allowsBell && byte == bell {
                return .complete(length: index - start + 1, payload: (start + 2)..<index)
            }
            if byte == escape {
                guard index + 1 < bytes.count else { return .incomplete }
                if bytes[index + 1] == UInt8(ascii: "\\") {
                    return .complete(length: index - start + 2, payload: (start + 2)..<index)
                }
                return .notAString
            }
            index += 1
        }
        return bytes.count - start >= maxLength ? .notAString : .incomplete
    }

    /// True for the second byte of an APC, DCS or OSC introducer.
    static func isStringIntroducer(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "P") || byte == UInt8(ascii: "]")
    }
}
