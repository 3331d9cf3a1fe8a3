/// The graphics protocols a user can ask for (`--protocol`).
public enum GraphicsProtocol: String, CaseIterable, Sendable {
    /// kitty's graphics protocol: lossless, uploaded once, re-placed to zoom and pan.
    case kitty
    /// DEC sixel: up to 256 palette colours, re-encoded per frame.
    case sixel
    /// `▀` half-blocks in 24-bit colour: two pixels per cell, works anywhere.
    case blocks
}

/// What the user asked for with `--protocol` or `PXVIEW_PROTOCOL`.
public enum ProtocolChoice: String, CaseIterable, Sendable {
    case auto, sixel, kitty, blocks
}

/// How pixels reach the screen: one `GraphicsBackend` each.
public enum DrawingMethod: String, CaseIterable, Sendable {
    case sixel
    /// kitty graphics placed at the cursor (directly, or through tmux passthrough).
    case kitty
    /// kitty graphics shown through Unicode placeholder text (kitty 0.28+
    /// inside tmux): the picture lives in tmux's grid and moves with it.
    case kittyPlaceholders = "kitty-placeholders"
    case blocks

    /// The protocol the method speaks.
    public var graphicsProtocol: GraphicsProtocol {
        switch self {
        case .sixel: return .sixel
        case .kitty, .kittyPlaceholders: return .kitty
        case .blocks: return .blocks
        }
    }
}
