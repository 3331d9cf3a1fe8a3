import ControlSequences

/// The capability queries pxview sends at startup, all in one write.
///
/// Every query is one that terminals lacking the feature ignore silently, and
/// DA1 (`CSI c`) goes last: every terminal answers it, and terminals answer
/// in order, so its reply marks the end of all replies that will ever come.
package struct ProbeQuery: Sendable {
    /// Image id the kitty graphics query uses; the reply echoes it.
    package static let kittyQueryImageID = 31

    /// The kitty graphics query (`TerminalCommand.kittyGraphicsQuery`) with that id.
    static let kittyGraphicsQuery = TerminalCommand.kittyGraphicsQuery(imageID: kittyQueryImageID)

    /// All queries (`TerminalCommand`'s), DA1 last.
    package static let bytes: [UInt8] =
        kittyGraphicsQuery + TerminalCommand.terminalVersionQuery + TerminalCommand.backgroundColorQuery
        + TerminalCommand.colorRegistersQuery + TerminalCommand.sixelGeometryQuery + TerminalCommand.cellSizeQuery
        + TerminalCommand.textAreaQuery + TerminalCommand.synchronizedOutputQuery
        + TerminalCommand.primaryDeviceAttributesQuery

    /// The queries as they must be sent through `multiplexer`.
    ///
    /// Inside tmux an APC it does not pass through becomes the pane title,
    /// and tmux answers DA1 itself, so: with passthrough on, every query is
    /// wrapped for the outer terminal (whose DA1, wrapped too, still comes
    /// last; seen with tmux 3.3a in xterm, kitty, mlterm and Konsole: the
    /// outer replies reach the pane); with passthrough off, only what tmux
    /// itself may answer goes out raw, and never the kitty query.
    package static func bytes(for multiplexer: Multiplexer) -> [UInt8] {
        switch multiplexer {
        case .none:
            return bytes
        case .tmux(passthrough: true), .remoteTmux(passthrough: true):
            return passthroughQueries.flatMap(Passthrough.wrap)
        case .tmux(passthrough: false), .remoteTmux(passthrough: false):
            return tmuxAnswerable
        }
    }

    /// What tmux answers itself, raw: never the kitty query, which tmux
    /// would take for a pane title.
    static let tmuxAnswerable =
        TerminalCommand.backgroundColorQuery + TerminalCommand.cellSizeQuery + TerminalCommand.primaryDeviceAttributesQuery

    /// The outer terminal's queries, each to be wrapped in passthrough, DA1 last.
    static let passthroughQueries = [
        kittyGraphicsQuery, TerminalCommand.terminalVersionQuery, TerminalCommand.backgroundColorQuery,
        TerminalCommand.colorRegistersQuery, TerminalCommand.sixelGeometryQuery, TerminalCommand.cellSizeQuery,
        TerminalCommand.primaryDeviceAttributesQuery,
    ]

    /// For a tmux that cannot be asked (`TmuxHint.tmux`): tmux's own
    /// XTVERSION first, then every query wrapped for the outer terminal,
    /// then a raw DA1. tmux answers the two raw ones at once, for itself;
    /// the outer terminal's answers follow through passthrough only when it
    /// is on. Expect two DA1 answers (`probeTerminal(expectedAnswers: 2)`).
    /// With passthrough off the wrapped queries are dropped, so nothing can
    /// become the pane title.
    package static let remoteTmux =
        TerminalCommand.terminalVersionQuery + passthroughQueries.flatMap(Passthrough.wrap)
        + TerminalCommand.primaryDeviceAttributesQuery

    /// For `TmuxHint.screenOrTmux`: what answers, asked before any graphics
    /// query (GNU screen takes an APC for its status line and passes a DCS on).
    package static let whoIsThere = TerminalCommand.terminalVersionQuery + TerminalCommand.primaryDeviceAttributesQuery
}
