import ControlSequences

/// Turns the raw bytes read from a terminal in raw mode into key, mouse and
/// paste events.
///
/// Reads may split a sequence anywhere, so `feed` keeps an incomplete tail
/// pending and finishes it when the next bytes arrive: feeding a stream in
/// any chunking yields the same events as feeding it whole.
///
/// A lone ESC is ambiguous — it may be the Escape key or the start of a
/// sequence still in flight — and only time can tell. The I/O loop therefore
/// calls `flushPendingEscape()` once `hasPendingEscape` is true and no input
/// has arrived for `escapeTimeoutMilliseconds`; the pending bytes are then resolved as
/// the keys a person would have typed (ESC alone is Escape, `ESC [` is Alt-[).
///
/// Handles xterm-style keys (CSI with modifier parameters, SS3 in application
/// cursor mode, `CSI n ~`), Linux console F1–F5 (`ESC [ [ A`), kitty-style
/// `CSI codepoint ; mods u`, SGR (1006) mouse reports, bracketed paste, Alt as
/// an ESC prefix, Ctrl-letters and UTF-8 text.
package struct InputDecoder: Sendable {
    /// How long to wait after a lone ESC (or other incomplete sequence)
    /// before calling `flushPendingEscape()`. Terminals write a sequence in
    /// one go, so over a local or LAN connection its bytes arrive together;
    /// 40 ms is long enough to absorb scheduling and ssh jitter, short enough
    /// that Escape still feels instant.
    package static let escapeTimeoutMilliseconds: Int32 = 40

    /// No key or mouse sequence is this long; a longer unterminated one is
    /// garbage and is reported as `.unknown` instead of pending forever.
    package static let maxSequenceLength = 64
    /// Bound for APC/DCS/OSC strings (late terminal replies) before the
    /// introducer is taken to be an Alt-key press instead.
    package static let maxStringLength = 512
    /// Pasted text beyond this many bytes is dropped, so a runaway paste
    /// cannot exhaust memory.
    package static let maxPasteBytes = 1 << 20

    var pending: [UInt8] = []
    /// Non-nil between `CSI 200 ~` and `CSI 201 ~`.
    var pasteBuffer: [UInt8]?
    /// True after an overlong CSI was cut off: its remaining parameter bytes,
    /// up to and including its final byte, are dropped rather than decoded
    /// as typed digits.
    var discardingOverlongSequence = false

    static let pasteEnd = TerminalCommand.bracketedPasteEnd

    package init() {}

    /// True when bytes are held back waiting to see whether more belong to
    /// them: an ESC or unfinished escape sequence, or (rarely) a UTF-8
    /// character cut by a read. Inside a bracketed paste it is false: a paste
    /// is never timed out.
    package var hasPendingEscape: Bool {
        pasteBuffer == nil && !pending.isEmpty
    }

    /// Decodes as many complete events as the bytes so far allow.
    package mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return drain(final: false)
    }

    /// Resolves whatever is pending as if no more input will follow it. Call
    /// after `escapeTimeoutMilliseconds` without input while `hasPendingEscape` is true.
    package mutating func flushPendingEscape() -> [InputEvent] {
        guard pasteBuffer == nil else { return [] }
        return drain(final: true)
    }

    mutating func drain(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        decoding: while index < pending.count {
            if pasteBuffer != nil {
                index = consumePaste(from: index, into: &events)
                if pasteBuffer != nil { break decoding }
                continue
            }
            if discardingOverlongSequence {
                let byte = pending[index]
                if EscapeScanner.continuesCSI(byte) {
                    index += 1
                    continue
                }
                discardingOverlongSequence = false
                if EscapeScanner.endsCSI(byte) {
                    index += 1
                    continue
                }
            }
            switch decodeOne(at: index, final: final) {
            case .garbage(let length):
                events.append(.unknown(Array(pending[index..<(index + length)])))
                discardingOverlongSequence = true
                index += length
            case .event(let event, let length):
                events.append(event)
                index += length
            case .pasteStart(let length):
                pasteBuffer = []
                index += length
            case .incomplete:
                break decoding
            }
        }
        pending.removeFirst(index)
        return events
    }

    /// Moves paste content from `pending` into the paste buffer, emitting the
    /// paste once its terminator is seen. Returns the new read position; a
    /// tail that could be the start of the terminator stays pending.
    mutating func consumePaste(from start: Int, into events: inout [InputEvent]) -> Int {
        let end = Self.pasteEnd
        var index = start
        while index + end.count <= pending.count {
            if pending[index] == end[0] && pending[index..<(index + end.count)].elementsEqual(end) {
                appendToPaste(pending[start..<index])
                events.append(.paste(String(decoding: pasteBuffer ?? [], as: UTF8.self)))
                pasteBuffer = nil
                return index + end.count
            }
            index += 1
        }
        // Keep the longest tail that is a prefix of the terminator.
        var keep = min(end.count - 1, pending.count - start)
        while keep > 0 && !pending[(pending.count - keep)...].elementsEqual(end[0..<keep]) {
            keep -= 1
        }
        appendToPaste(pending[start..<(pending.count - keep)])
        return pending.count - keep
    }

    mutating func appendToPaste(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maxPasteBytes - (pasteBuffer?.count ?? 0)
        if room > 0 { pasteBuffer?.append(contentsOf: bytes.prefix(room)) }
    }

    enum Step {
        case event(InputEvent, length: Int)
        case pasteStart(length: Int)
        /// The start of an overlong sequence; the rest of it is discarded.
        case garbage(length: Int)
        case incomplete
    }

    func decodeOne(at index: Int, final: Bool) -> Step {
        let byte = pending[index]
        switch byte {
        case EscapeScanner.escape:
            return decodeEscape(at: index, final: final)
        case 0x0D, 0x0A:
            // Raw mode turns off CR→NL mapping, so Enter is CR; LF (Ctrl-J,
            // or input piped from a file) is treated as Enter too.
            return .event(.key(Key(.enter)), length: 1)
        case 0x09:
            return .event(.key(Key(.tab)), length: 1)
        case 0x7F, 0x08:
            return .event(.key(Key(.backspace)), length: 1)
        case 0x00:
            return .event(.key(Key(.char(" "), .control)), length: 1)
        case 0x01...0x1A:
            let letter = Character(Unicode.Scalar(byte + 0x60))
            return .event(.key(Key(.char(letter), .control)), length: 1)
        case 0x1C...0x1F:
            // Ctrl-\ Ctrl-] Ctrl-^ Ctrl-_
            return .event(.key(Key(.char(Character(Unicode.Scalar(byte + 0x40))), .control)), length: 1)
        case 0x20...0x7E:
            return .event(.key(Key(.char(Character(Unicode.Scalar(byte))))), length: 1)
        default:
            return decodeUTF8(at: index, final: final)
        }
    }

    func decodeUTF8(at index: Int, final: Bool) -> Step {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .event(.unknown([lead]), length: 1)
        }
        var end = index + 1
        while end < index + length {
            guard end < pending.count else {
                return final ? .event(.unknown(Array(pending[index..<end])), length: end - index) : .incomplete
            }
            guard (0x80...0xBF).contains(pending[end]) else {
                return .event(.unknown(Array(pending[index..<end])), length: end - index)
            }
            end += 1
        }
        var iterator = pending[index..<end].makeIterator()
        var utf8 = Unicode.UTF8()
        guard case .scalarValue(let scalar) = utf8.decode(&iterator),
            !(0x80...0x9F).contains(scalar.value)  // C1 controls are not typed text
        else {
            return .event(.unknown(Array(pending[index..<end])), length: length)
        }
        return .event(.key(Key(.char(Character(scalar)))), length: length)
    }

    func decodeEscape(at index: Int, final: Bool) -> Step {
        guard index + 1 < pending.count else {
            return final ? .event(.key(Key(.escape)), length: 1) : .incomplete
        }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return decodeCSI(at: index, final: final)
        case UInt8(ascii: "O"):
            return decodeSS3(at: index, final: final)
        case EscapeScanner.escape:
            return decodeDoubleEscape(at: index, final: final)
        case _ where EscapeScanner.isStringIntroducer(next):
            switch EscapeScanner.scanString(pending, from: index, maxLength: Self.maxStringLength) {
            case .complete(let length, _):
                return .event(.unknown(Array(pending[index..<(index + length)])), length: length)
            case .incomplete where !final:
                return .incomplete
            case .incomplete, .notAString:
                return altKey(at: index, final: final)
            }
        default:
            return altKey(at: index, final: final)
        }
    }

    /// ESC followed by a key: that key with Alt held.
    func altKey(at index: Int, final: Bool) -> Step {
        switch decodeOne(at: index + 1, final: final) {
        case .event(.key(var key), let length):
            key.modifiers.insert(.alt)
            return .event(.key(key), length: length + 1)
        case .incomplete:
            return .incomplete
        case .event, .pasteStart, .garbage:
            // ESC before something that is not a key: a lone Escape press.
            return .event(.key(Key(.escape)), length: 1)
        }
    }

    /// `ESC ESC [ ...` / `ESC ESC O ...` is how some terminals send Alt with
    /// a special key; any other ESC ESC is two Escape presses.
    func decodeDoubleEscape(at index: Int, final: Bool) -> Step {
        guard index + 2 < pending.count else {
            return final ? .event(.key(Key(.escape)), length: 1) : .incomplete
        }
        let third = pending[index + 2]
        guard third == UInt8(ascii: "[") || third == UInt8(ascii: "O") else {
            return .event(.key(Key(.escape)), length: 1)
        }
        switch decodeEscape(at: index + 1, final: final) {
        case .event(.key(var key), let length) where key.code != .char("[") && key.code != .char("O"):
            key.modifiers.insert(.alt)
            return .event(.key(key), length: length + 1)
        case .incomplete:
            return .incomplete
        default:
            return .event(.key(Key(.escape)), length: 1)
        }
    }

    func decodeSS3(at index: Int, final: Bool) -> Step {
        // ESC O [modifier digit] final
        var position = index + 2
        var modifiers: Modifiers = []
        if position < pending.count, (0x32...0x39).contains(pending[position]) {
            modifiers = Self.modifiers(fromParameter: Int(pending[position] - 0x30))
            position += 1
        }
        guard position < pending.count else {
            if !final { return .incomplete }
            // ESC O alone after the timeout is Alt-O (Alt-Shift-o).
            return position == index + 2
                ? .event(.key(Key(.char("O"), .alt)), length: 2)
                : .event(.unknown(Array(pending[index..<position])), length: position - index)
        }
        let length = position - index + 1
        // M: keypad Enter in application keypad mode.
        let code: KeyCode? = pending[position] == UInt8(ascii: "M") ? .enter : Self.letterKey(pending[position])
        guard let code else {
            if position == index + 2 {
                // ESC O followed by an ordinary key: Alt-O, then that key.
                return .event(.key(Key(.char("O"), .alt)), length: 2)
            }
            return .event(.unknown(Array(pending[index..<(index + length)])), length: length)
        }
        return .event(.key(Key(code, modifiers)), length: length)
    }

    func decodeCSI(at index: Int, final: Bool) -> Step {
        if index + 2 < pending.count, pending[index + 2] == UInt8(ascii: "[") {
            return decodeLinuxConsoleFunctionKey(at: index, final: final)
        }
        switch EscapeScanner.scanCSI(pending, from: index, maxLength: Self.maxSequenceLength) {
        case .complete(let csi, let length):
            if csi.prefix == nil && csi.final == UInt8(ascii: "~") && csi.param(0) == 200 {
                return .pasteStart(length: length)
            }
            let bytes = Array(pending[index..<(index + length)])
            return .event(Self.interpret(csi) ?? .unknown(bytes), length: length)
        case .malformed(let length):
            return .event(.unknown(Array(pending[index..<(index + length)])), length: length)
        case .tooLong(let length):
            return .garbage(length: length)
        case .incomplete:
            if !final { return .incomplete }
            let available = pending.count - index
            // `ESC [` alone after the timeout is Alt-[.
            return available == 2
                ? .event(.key(Key(.char("["), .alt)), length: 2)
                : .event(.unknown(Array(pending[index...])), length: available)
        }
    }

    /// The Linux console sends F1–F5 as `ESC [ [ A` … `ESC [ [ E`.
    func decodeLinuxConsoleFunctionKey(at index: Int, final: Bool) -> Step {
        guard index + 3 < pending.count else {
            return final ? .event(.unknown(Array(pending[index...])), length: pending.count - index) : .incomplete
        }
        let letter = pending[index + 3]
        if (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(letter) {
            return .event(.key(Key(.function(Int(letter - UInt8(ascii: "A")) + 1))), length: 4)
        }
        return .event(.unknown(Array(pending[index..<(index + 3)])), length: 3)
    }

}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
