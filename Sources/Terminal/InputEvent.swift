/// One thing the user did, decoded from the terminal's input bytes.
package enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text pasted while bracketed paste (`CSI ? 2004 h`) was on. It is the
    /// raw pasted text, decoded as UTF-8 with invalid bytes replaced: pass it
    /// through `TerminalText.sanitize` before ever echoing it.
    case paste(String)
    /// Bytes that form no key or mouse report we understand (an unsupported
    /// sequence, a late terminal reply, invalid UTF-8). Apps ignore them; they
    /// are kept so the decoder never silently swallows input.
    case unknown([UInt8])
}

/// Modifier keys held during a key press or mouse event. The raw values match
/// the xterm modifier encoding (`parameter - 1` in `CSI 1 ; m X`).
package struct Modifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let shift = Modifiers(rawValue: 1)
    package static let alt = Modifiers(rawValue: 2)
    package static let control = Modifiers(rawValue: 4)

    package var description: String {
        var names: [String] = []
        if contains(.control) { names.append("ctrl") }
        if contains(.alt) { names.append("alt") }
        if contains(.shift) { names.append("shift") }
        return names.joined(separator: "+")
    }
}

/// Which key, independent of modifiers.
///
/// Printable keys arrive as `.char` carrying the character the terminal
/// produced, so Shift-a is `.char("A")` with no `.shift` flag: terminals do
/// not report Shift for printable keys.
package enum KeyCode: Hashable, Sendable {
    case char(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    case enter, escape, tab, backTab, backspace
    /// F1 is `.function(1)`.
    case function(Int)
}

package struct Key: Hashable, Sendable, CustomStringConvertible {
    package var code: KeyCode
    package var modifiers: Modifiers

    package init(_ code: KeyCode, _ modifiers: Modifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }

    package var description: String {
        let name: String
        switch code {
        case .char(let character): name = "\"\(character)\""
        case .function(let number): name = "F\(number)"
        default: name = "\(code)"
        }
        return modifiers.isEmpty ? name : "\(modifiers)+\(name)"
    }
}

package enum MouseButton: Hashable, Sendable {
    case left, middle, right
    /// Buttons 8–11 (back/forward on many mice), reported with bit 128.
    case extra(Int)
}

package struct MouseEvent: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case press(MouseButton)
        case release(MouseButton)
        /// Motion with a button held (needs `CSI ? 1002 h`).
        case drag(MouseButton)
        /// Motion with no button held (needs `CSI ? 1003 h`).
        case move
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }

    package var kind: Kind
    /// 1-based cell column.
    package var x: Int
    /// 1-based cell row.
    package var y: Int
    package var modifiers: Modifiers

    package init(kind: Kind, x: Int, y: Int, modifiers: Modifiers = []) {
        self.kind = kind
        self.x = x
        self.y = y
        self.modifiers = modifiers
    }
}
