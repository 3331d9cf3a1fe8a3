import Rendering

/// A way a picture can be drawn in a terminal: one of pxview's backends,
/// by the name its `--protocol` takes.
public struct PictureProtocol: RawRepresentable, Hashable, CaseIterable, Sendable, CustomStringConvertible {
    /// Its name: "kitty", "sixel", "symbols", "blocks".
    public let rawValue: String

    /// The protocol of that name; nil for a name no backend has.
    public init?(rawValue: String) {
        guard rawValue != ProtocolChoice.auto.rawValue, ProtocolChoice(rawValue: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    init(_ choice: ProtocolChoice) {
        rawValue = choice.rawValue
    }

    /// Every protocol, in the order a probe prefers them.
    public static let allCases: [PictureProtocol] = ProtocolChoice.allCases.filter { $0 != .auto }.map(PictureProtocol.init)

    /// kitty's graphics protocol (kitty, WezTerm, Konsole).
    public static let kitty = PictureProtocol(ProtocolChoice.kitty)
    /// DEC sixel (xterm `-ti vt340`, foot, mlterm, WezTerm, Konsole).
    public static let sixel = PictureProtocol(ProtocolChoice.sixel)
    /// Text: per cell the block character and two 24-bit colours that
    /// match it best (any terminal with true colour).
    public static let symbols = PictureProtocol(ProtocolChoice.symbols)
    /// Text of `▄` half-blocks (the Linux console).
    public static let blocks = PictureProtocol(ProtocolChoice.blocks)

    /// The name.
    public var description: String { rawValue }

    /// pxview's name for it.
    var choice: ProtocolChoice { ProtocolChoice(named: rawValue) }
}
