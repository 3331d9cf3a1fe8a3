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

    /// Pictures made of characters (in tmux's grid like any text, so never
    /// passed through to the terminal outside).
    package var isText: Bool { self == .symbols || self == .blocks }

    /// The kitty graphics protocol, placed or through placeholders: pictures
    /// that live apart from the text and go by image id.
    package var isKitty: Bool { self == .kitty || self == .kittyPlaceholders }
}
