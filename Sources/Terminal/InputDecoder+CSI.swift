import ControlSequences

/// What a complete CSI sequence means: a named key (xterm's letters, the
/// VT220 tilde keys, kitty's keyboard protocol) or an SGR mouse report.
extension InputDecoder {
    /// xterm sends modifiers as `1 + bits` with shift 1, alt 2, ctrl 4; the
    /// meta bit (8) and above are dropped.
    static func modifiers(fromParameter parameter: Int?) -> Modifiers {
        guard let parameter, parameter > 1 else { return [] }
        return Modifiers(rawValue: UInt8((parameter - 1) & 0x07))
    }

    static func interpret(_ csi: EscapeScanner.CSI) -> InputEvent? {
        guard csi.intermediates.isEmpty else { return nil }
        if csi.prefix == UInt8(ascii: "<") {
            return sgrMouse(csi).map(InputEvent.mouse)
        }
        guard csi.prefix == nil else { return nil }
        let modifiers = modifiers(fromParameter: csi.param(1))
        let code: KeyCode
        if let letter = letterKey(csi.final) { return .key(Key(letter, modifiers)) }
        switch csi.final {
        case UInt8(ascii: "E"): return nil  // keypad 5 without NumLock: nothing to do
        case UInt8(ascii: "Z"):
            // Shift is implied by the key itself.
            return .key(Key(.backTab, modifiers.subtracting(.shift)))
        case UInt8(ascii: "~"):
            guard let tilde = tildeKey(csi.param(0)) else { return nil }
            code = tilde
        case UInt8(ascii: "u"):
            return kittyKey(csi)
        default:
            return nil
        }
        return .key(Key(code, modifiers))
    }

    /// The keys SS3 (`ESC O x`) and CSI (`CSI x`, `CSI 1 ; mods x`) both end
    /// with the same letter: arrows, Home, End, F1-F4.
    static func letterKey(_ final: UInt8) -> KeyCode? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    static func tildeKey(_ parameter: Int?) -> KeyCode? {
        guard let number = parameter else { return nil }
        switch number {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 11, 12, 13, 14, 15: return .function(number - 10)
        case 17, 18, 19, 20, 21: return .function(number - 11)
        case 23, 24, 25, 26: return .function(number - 12)
        case 28, 29: return .function(number - 13)
        case 31, 32, 33, 34: return .function(number - 14)
        default: return nil
        }
    }

    /// `CSI codepoint ; modifiers u` (kitty keyboard protocol, also xterm's
    /// modifyOtherKeys=2 form `CSI 27 ; m ; code ~` is not handled).
    static func kittyKey(_ csi: EscapeScanner.CSI) -> InputEvent? {
        guard let codepoint = csi.param(0) else { return nil }
        let modifiers = modifiers(fromParameter: csi.param(1))
        switch codepoint {
        case 13: return .key(Key(.enter, modifiers))
        case 9: return .key(Key(.tab, modifiers))
        case 27: return .key(Key(.escape, modifiers))
        case 127, 8: return .key(Key(.backspace, modifiers))
        default:
            guard codepoint >= 0x20, !(0x7F...0x9F).contains(codepoint),
                let scalar = Unicode.Scalar(UInt32(codepoint))
            else { return nil }
            return .key(Key(.char(Character(scalar)), modifiers))
        }
    }

    /// `CSI < b ; x ; y M` (press/motion) or `m` (release), SGR encoding 1006.
    static func sgrMouse(_ csi: EscapeScanner.CSI) -> MouseEvent? {
        guard csi.params.count == 3,
            let code = csi.param(0), let x = csi.param(1), let y = csi.param(2),
            csi.final == UInt8(ascii: "M") || csi.final == UInt8(ascii: "m")
        else { return nil }
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let low = code & 3
        let kind: MouseEvent.Kind
        if code & 64 != 0 && code & 128 == 0 {
            switch low {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            case 2: kind = .wheelLeft
            default: kind = .wheelRight
            }
        } else {
            let button: MouseButton?
            if code & 128 != 0 {
                button = .extra(8 + low)
            } else {
                button = [MouseButton.left, .middle, .right][safe: low]
            }
            if code & 32 != 0 {
                kind = button.map(MouseEvent.Kind.drag) ?? .move
            } else {
                guard let button else { return nil }
                kind = csi.final == UInt8(ascii: "M") ? .press(button) : .release(button)
            }
        }
        return MouseEvent(kind: kind, x: x, y: y, modifiers: modifiers)
    }
}
