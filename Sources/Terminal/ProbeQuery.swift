/// The capability queries pxview sends at startup, all in one write.
///
/// Every query is one that terminals lacking the feature ignore silently, and
/// DA1 (`CSI c`) goes last: every terminal answers it, and terminals answer
/// in order, so its reply marks the end of all replies that will ever come.
public struct ProbeQuery: Sendable {
    /// Image id the kitty graphics query uses; the reply echoes it.
    public static let kittyQueryImageID = 31

    /// kitty graphics protocol: query (`a=q`) a 1x1 RGB image sent directly
    /// (`t=d`). kitty answers `ESC _ G i=31 ; OK ESC \`; others ignore APC.
    public static let kittyGraphicsQuery: [UInt8] =
        Array("\u{1B}_Gi=\(kittyQueryImageID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
    /// XTSMGRAPHICS read number of colour registers (item 1, action 1).
    public static let colorRegistersQuery: [UInt8] = Array("\u{1B}[?1;1;0S".utf8)
    /// XTSMGRAPHICS read the *maximum* sixel geometry (item 2, action 4).
    /// The maximum, not the current value, is what matters: xterm silently
    /// drops a sixel image larger than it (1000x1000 by default), whereas the
    /// current value merely follows the window size.
    public static let sixelGeometryQuery: [UInt8] = Array("\u{1B}[?2;4;0S".utf8)
    /// XTWINOPS report cell size in pixels: `CSI 6 ; height ; width t`.
    public static let cellSizeQuery: [UInt8] = Array("\u{1B}[16t".utf8)
    /// XTWINOPS report text area size in pixels: `CSI 4 ; height ; width t`.
    public static let textAreaQuery: [UInt8] = Array("\u{1B}[14t".utf8)
    /// DECRQM for mode 2026 (synchronized output): `CSI ? 2026 ; status $ y`.
    public static let synchronizedOutputQuery: [UInt8] = Array("\u{1B}[?2026$p".utf8)
    /// Primary device attributes; attribute 4 in the reply means sixel.
    public static let primaryDeviceAttributesQuery: [UInt8] = Array("\u{1B}[c".utf8)
    /// XTVERSION: `DCS > | name(version) ST`. Tells kitty 0.26 (no Unicode
    /// placeholders) from 0.28+, and names Konsole, whose text never removes
    /// a sixel picture.
    public static let terminalVersionQuery: [UInt8] = Array("\u{1B}[>q".utf8)
    /// OSC 11: the background colour, `OSC 11 ; rgb:RRRR/GGGG/BBBB ST`, so
    /// transparent pictures can be composited over what is really behind them.
    public static let backgroundColorQuery: [UInt8] = Array("\u{1B}]11;?\u{1B}\\".utf8)

    /// All queries, DA1 last.
    public static let bytes: [UInt8] =
        kittyGraphicsQuery + terminalVersionQuery + backgroundColorQuery + colorRegistersQuery + sixelGeometryQuery
        + cellSizeQuery + textAreaQuery + synchronizedOutputQuery
        + primaryDeviceAttributesQuery

    /// The queries as they must be sent through `multiplexer`.
    ///
    /// Inside tmux an APC it does not pass through becomes the pane title,
    /// and tmux answers DA1 itself, so: with passthrough on, every query is
    /// wrapped for the outer terminal (whose DA1, wrapped too, still comes
    /// last; seen with tmux 3.3a in xterm, kitty, mlterm and Konsole: the
    /// outer replies reach the pane); with passthrough off, only what tmux
    /// itself may answer goes out raw, and never the kitty query.
    public static func bytes(for multiplexer: Multiplexer) -> [UInt8] {
        switch multiplexer {
        case .none:
            return bytes
        case .tmux(passthrough: true):
            let queries = [
                kittyGraphicsQuery, terminalVersionQuery, backgroundColorQuery, colorRegistersQuery, sixelGeometryQuery,
                cellSizeQuery, primaryDeviceAttributesQuery,
            ]
            return queries.flatMap(Passthrough.wrap)
        case .tmux(passthrough: false):
            return backgroundColorQuery + cellSizeQuery + primaryDeviceAttributesQuery
        }
    }
}
