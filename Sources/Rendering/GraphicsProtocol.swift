/// What the user asked for with `--protocol` or `PXVIEW_PROTOCOL`: the
/// kitty graphics protocol, DEC sixel, `▀` half-blocks, or the probe's choice.
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
}
