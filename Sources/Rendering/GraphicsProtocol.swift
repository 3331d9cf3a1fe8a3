/// What the user asked for with `--protocol` or `PXVIEW_PROTOCOL`: the
/// kitty graphics protocol, DEC sixel, block symbols chosen per cell, `▄`
/// half-blocks, or the probe's choice.
package enum ProtocolChoice: String, CaseIterable, Sendable {
    case auto, sixel, kitty, symbols, blocks
}

/// How pixels reach the screen: one `GraphicsBackend` each.
package enum DrawingMethod: String, CaseIterable, Sendable {
    case sixel
    /// kitty graphics placed at the cursor (directly, or through tmux passthrough).
    case kitty
    /// kitty graphics shown through Unicode placeholder text (kitty 0.28+
    /// inside tmux): the picture lives in tmux's grid and moves with it.
    case kittyPlaceholders = "kitty-placeholders"
    /// Text: per cell the block character (eighths, halves, quadrants,
    /// sextants where drawn) and two colours that match its pixels best.
    case symbols
    /// Text: `▄` half-blocks, two pixels per cell.
    case blocks
}
