/// The escape-sequence vocabulary: every control sequence pxview sends (and
/// the few it recognises by their exact bytes), in one table, as chafa keeps
/// its sequences in one file. Encoders, the terminal layer, the renderers
/// and the progress line take their bytes from here; nothing is written
/// here. In a module of its own with no dependencies, below Encoding and
/// HTTP, which both emit sequences but import neither Terminal nor each other.
///
/// Notation in the docs: ESC is 0x1B, `CSI` is `ESC [`, `DCS` `ESC P`, `APC`
/// `ESC _`, `OSC` `ESC ]`, `ST` `ESC \`. Counts are written as given (a
/// count of 0 is the terminal's business): callers pass what they mean.
package enum TerminalCommand {
    // MARK: Bytes

    /// ESC, which starts every sequence.
    package static let escape: UInt8 = 0x1B
    /// `ST` (`ESC \`): String Terminator, ending DCS (sixel, tmux
    /// passthrough), APC (kitty graphics) and OSC.
    package static let stringTerminator: [UInt8] = [escape, UInt8(ascii: "\\")]

    // MARK: Cursor

    /// Moves the cursor to a 1-based row and column (`CSI row ; col H`).
    package static func moveTo(row: Int, column: Int) -> [UInt8] {
        csi("\(max(1, row));\(max(1, column))H")
    }

    /// `count` rows up, same column (`CSI n A`).
    package static func cursorUp(_ count: Int) -> [UInt8] { csi("\(count)A") }
    /// `count` rows down, same column (`CSI n B`).
    package static func cursorDown(_ count: Int) -> [UInt8] { csi("\(count)B") }
    /// To 1-based `column` of the cursor's row (`CSI n G`).
    package static func cursorToColumn(_ column: Int) -> [UInt8] { csi("\(column)G") }
    /// DECSC (`ESC 7`): saves the cursor position (and attributes).
    package static let saveCursor: [UInt8] = [escape, UInt8(ascii: "7")]
    /// DECRC (`ESC 8`): back to the position `saveCursor` saved.
    package static let restoreCursor: [UInt8] = [escape, UInt8(ascii: "8")]
    /// DECSTBM with no margins (`CSI r`): the whole screen scrolls again, and
    /// the cursor goes home. Sent to the outer terminal before a picture
    /// placed through tmux, which may have left a pane's margins set.
    package static let resetScrollMargins: [UInt8] = csi("r")
    package static let hideCursor: [UInt8] = csi("?25l")
    package static let showCursor: [UInt8] = csi("?25h")

    // MARK: Erasing

    /// Erases from the cursor to the end of its line (`CSI K`).
    package static let clearToEndOfLine: [UInt8] = csi("K")
    /// ECH (`CSI n X`): erases `count` cells from the cursor without moving
    /// it; also removes sixel pixels under them.
    package static func eraseCharacters(_ count: Int) -> [UInt8] { csi("\(count)X") }

    // MARK: Colours and attributes (SGR)

    /// Back to default colours and attributes (`CSI 0 m`).
    package static let resetAttributes: [UInt8] = csi("0m")
    package static let bold: [UInt8] = csi("1m")
    package static let dim: [UInt8] = csi("2m")
    package static let inverse: [UInt8] = csi("7m")
    /// The terminal's own foreground colour (`CSI 39 m`).
    package static let defaultForeground: [UInt8] = csi("39m")
    /// The terminal's own background colour (`CSI 49 m`).
    package static let defaultBackground: [UInt8] = csi("49m")
    /// `CSI 38 ; 2 ;`: a 24-bit foreground colour follows as `r ; g ; b m`.
    /// For encoders that write the numbers themselves.
    package static let foregroundRGBPrefix: [UInt8] = csi("38;2;")
    /// `CSI 48 ; 2 ;`: a 24-bit background colour follows as `r ; g ; b m`.
    package static let backgroundRGBPrefix: [UInt8] = csi("48;2;")

    /// Select Graphic Rendition's pieces, for an encoder that composes one
    /// `CSI p ; p ... m` per cell from several (the text picture: reverse
    /// video and both colours at once): `introducer`, the parameters joined
    /// by `separator`, then `final`.
    package enum SGR {
        package static let introducer: StaticString = "\u{1B}["
        package static let separator: StaticString = ";"
        package static let final: StaticString = "m"
        package static let inverseOn: StaticString = "7"
        package static let inverseOff: StaticString = "27"
        package static let defaultForeground: StaticString = "39"
        package static let defaultBackground: StaticString = "49"
        /// `r ; g ; b` follows.
        package static let foregroundRGB: StaticString = "38;2;"
        package static let backgroundRGB: StaticString = "48;2;"
    }

    /// One of the 256 indexed foreground colours (`CSI 38 ; 5 ; n m`); kitty's
    /// placeholders name their image with it.
    package static func foreground(palette index: UInt8) -> [UInt8] {
        csi("38;5;\(index)m")
    }

    // MARK: Modes (DEC private, `CSI ? n h` on, `CSI ? n l` off)

    /// 1049: the alternate screen, saving the cursor on entry.
    package static let enterAlternateScreen: [UInt8] = csi("?1049h")
    /// 1049 off: back to the main screen (xterm restores the saved cursor
    /// even when the alternate screen was never entered).
    package static let leaveAlternateScreen: [UInt8] = csi("?1049l")
    /// 1000, 1002, 1006: clicks, drags and wheel reported, in SGR form.
    package static let mouseReportingOn: [UInt8] = csi("?1000h") + csi("?1002h") + csi("?1006h")
    /// The same three off, in reverse order.
    package static let mouseReportingOff: [UInt8] = csi("?1006l") + csi("?1002l") + csi("?1000l")
    /// 2004: pastes arrive between `CSI 200 ~` and `bracketedPasteEnd`.
    package static let bracketedPasteOn: [UInt8] = csi("?2004h")
    package static let bracketedPasteOff: [UInt8] = csi("?2004l")
    /// 1004: focus reports (`focusIn` on gaining focus).
    package static let focusEventsOn: [UInt8] = csi("?1004h")
    package static let focusEventsOff: [UInt8] = csi("?1004l")
    /// DECCKM (1): arrow keys as `ESC O A` rather than `CSI A`.
    package static let applicationCursorKeys: [UInt8] = csi("?1h")
    package static let normalCursorKeys: [UInt8] = csi("?1l")
    /// 2026: the terminal holds what follows and shows it at once at
    /// `endSynchronizedUpdate`, so a frame never appears half drawn.
    package static let beginSynchronizedUpdate: [UInt8] = csi("?2026h")
    package static let endSynchronizedUpdate: [UInt8] = csi("?2026l")

    // MARK: Graphics

    /// Starts a sixel image: `DCS 0 ; 1 ; 0 q` (P2 = 1: pixels not drawn keep
    /// the background, so transparent pixels stay transparent). Sixel data
    /// and `stringTerminator` follow.
    package static let sixelStart: [UInt8] = [escape] + Array("P0;1;0q".utf8)
    /// Starts a kitty graphics command: `APC G`. Keys, an optional
    /// `; payload` and `stringTerminator` follow.
    package static let kittyGraphicsStart: [UInt8] = [escape] + Array("_G".utf8)
    /// Starts a tmux passthrough: `DCS tmux ;`. The wrapped sequence (every
    /// ESC doubled) and `stringTerminator` follow.
    package static let tmuxPassthroughStart: [UInt8] = [escape] + Array("Ptmux;".utf8)

    // MARK: Queries (the replies are parsed by ProbeReplyParser)

    /// kitty graphics protocol: query (`a=q`) a 1x1 RGB image sent directly
    /// (`t=d`). kitty answers `ESC _ G i=<imageID> ; OK ESC \`; others ignore APC.
    package static func kittyGraphicsQuery(imageID: Int) -> [UInt8] {
        kittyGraphicsStart + Array("i=\(imageID),s=1,v=1,a=q,t=d,f=24;AAAA".utf8) + stringTerminator
    }

    /// XTSMGRAPHICS read number of colour registers (item 1, action 1).
    package static let colorRegistersQuery: [UInt8] = csi("?1;1;0S")
    /// XTSMGRAPHICS read the *maximum* sixel geometry (item 2, action 4).
    /// The maximum, not the current value, is what matters: xterm silently
    /// drops a sixel image larger than it (1000x1000 by default), whereas the
    /// current value merely follows the window size.
    package static let sixelGeometryQuery: [UInt8] = csi("?2;4;0S")
    /// XTWINOPS report cell size in pixels: `CSI 6 ; height ; width t`.
    package static let cellSizeQuery: [UInt8] = csi("16t")
    /// XTWINOPS report text area size in pixels: `CSI 4 ; height ; width t`.
    package static let textAreaQuery: [UInt8] = csi("14t")
    /// DECRQM for mode 2026 (synchronized output): `CSI ? 2026 ; status $ y`.
    package static let synchronizedOutputQuery: [UInt8] = csi("?2026$p")
    /// DA1, primary device attributes (`CSI c`): every terminal and tmux
    /// answer it (`CSI ? … c`; attribute 4 means sixel), so it also serves
    /// as a fence: its answer comes after everything sent before it.
    package static let primaryDeviceAttributesQuery: [UInt8] = csi("c")
    /// XTVERSION: `DCS > | name(version) ST`. Tells kitty 0.26 (no Unicode
    /// placeholders) from 0.28+, and names Konsole, whose text never removes
    /// a sixel picture.
    package static let terminalVersionQuery: [UInt8] = csi(">q")
    /// OSC 11: the background colour, `OSC 11 ; rgb:RRRR/GGGG/BBBB ST`, so
    /// transparent pictures can be composited over what is really behind them.
    package static let backgroundColorQuery: [UInt8] = [escape] + Array("]11;?".utf8) + stringTerminator

    /// OSC 52: puts `base64` (the text, Base64-encoded) on the clipboard
    /// (`c`). It works over SSH; kitty, WezTerm, foot and iTerm2 allow it,
    /// xterm only with `allowWindowOps` (its `SetSelection` is disallowed by default).
    package static func copyToClipboard(base64: [UInt8]) -> [UInt8] {
        [escape] + Array("]52;c;".utf8) + base64 + stringTerminator
    }

    /// OSC 5522, kitty's clipboard protocol (kitty 0.27 and later): a
    /// write begins; `clipboardData` packets follow, `clipboardWriteEnd`
    /// ends it.
    package static let clipboardWriteStart: [UInt8] = [escape] + Array("]5522;type=write".utf8) + stringTerminator

    /// One packet of a write: a chunk of at most 4096 bytes of data of the
    /// media type, both Base64-encoded.
    package static func clipboardData(mimeBase64: [UInt8], chunkBase64: [UInt8]) -> [UInt8] {
        [escape] + Array("]5522;type=wdata:mime=".utf8) + mimeBase64 + [UInt8(ascii: ";")] + chunkBase64 + stringTerminator
    }

    /// The end of a write (no type, no data).
    package static let clipboardWriteEnd: [UInt8] = [escape] + Array("]5522;type=wdata".utf8) + stringTerminator

    /// kitty's answer to a write, as terminal input: `DONE`, or the error
    /// (`EPERM`: refused, `EIO`, `EINVAL`, `EBUSY`); nil for other bytes.
    package static func clipboardWriteStatus(_ reply: [UInt8]) -> String? {
        let prefix = [escape] + Array("]5522;type=write:status=".utf8)
        guard reply.count > prefix.count, reply.starts(with: prefix) else { return nil }
        let status = reply[prefix.count...].prefix { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        return status.isEmpty ? nil : String(decoding: status, as: UTF8.self)
    }

    /// OSC 8: `text` as a link to `url` (kitty, WezTerm, foot, GNOME
    /// Terminal, iTerm2 and Konsole underline it and open it on a click;
    /// others show the text alone). `url` must be printable ASCII.
    package static func hyperlink(_ url: String, text: String) -> String {
        "\u{1B}]8;;\(url)\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
    }

    // MARK: Input (recognised in what the terminal sends, never sent)

    /// Focus reports, with `focusEventsOn`: the window (or pane) gained focus.
    package static let focusIn: [UInt8] = csi("I")
    /// With `bracketedPasteOn`: the end of pasted text (`CSI 201 ~`).
    package static let bracketedPasteEnd: [UInt8] = csi("201~")

    /// `CSI` (`ESC [`) followed by `body`.
    package static func csi(_ body: String) -> [UInt8] {
        [escape, UInt8(ascii: "[")] + Array(body.utf8)
    }
}
