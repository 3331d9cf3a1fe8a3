import Terminal

/// How pixels reach the screen.
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

/// The protocol to draw with, and whether it must be wrapped for tmux.
public struct ProtocolDecision: Equatable, Sendable {
    public var graphics: GraphicsProtocol
    public var tmuxPassthrough: Bool

    public init(graphics: GraphicsProtocol, tmuxPassthrough: Bool) {
        self.graphics = graphics
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// kitty > sixel > half-blocks when asked to choose. Inside tmux, `auto`
    /// means half-blocks: tmux answers the probe itself and drops graphics
    /// unless `allow-passthrough` is on, which pxview cannot see; an explicit
    /// `sixel` or `kitty` is wrapped in tmux passthrough instead.
    public static func decide(
        choice: ProtocolChoice, capabilities: TerminalCapabilities?, insideTmux: Bool
    ) -> ProtocolDecision {
        switch choice {
        case .sixel: return ProtocolDecision(graphics: .sixel, tmuxPassthrough: insideTmux)
        case .kitty: return ProtocolDecision(graphics: .kitty, tmuxPassthrough: insideTmux)
        case .blocks: return ProtocolDecision(graphics: .blocks, tmuxPassthrough: false)
        case .auto:
            if insideTmux { return ProtocolDecision(graphics: .blocks, tmuxPassthrough: false) }
            if capabilities?.kittyGraphics == true { return ProtocolDecision(graphics: .kitty, tmuxPassthrough: false) }
            if capabilities?.sixel == true { return ProtocolDecision(graphics: .sixel, tmuxPassthrough: false) }
            return ProtocolDecision(graphics: .blocks, tmuxPassthrough: false)
        }
    }
}
