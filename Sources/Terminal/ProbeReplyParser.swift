import Pixels

/// What the terminal said in answer to `ProbeQuery.bytes`. Every field is nil
/// until its reply arrives; a failed or malformed reply leaves it nil.
package struct ProbeReplies: Sendable, Equatable {
    /// The message part of the kitty graphics reply for our query id: "OK"
    /// when the protocol works, an error code such as "EINVAL:..." otherwise.
    package var kittyGraphicsMessage: String?
    /// Replies to the transfer-medium queries (ids `KittyTransfer.sharedMemoryQueryID`
    /// and `fileQueryID`), by id: "OK" when kitty could read that object.
    package var kittyMediumMessages: [Int: String] = [:]
    /// XTSMGRAPHICS colour registers (`CSI ? 1 ; 0 ; n S`).
    package var colorRegisters: Int?
    /// XTSMGRAPHICS maximum sixel geometry (`CSI ? 2 ; 0 ; w ; h S`).
    package var sixelMaxGeometry: PixelSize?
    /// XTWINOPS cell size (`CSI 6 ; h ; w t`).
    package var cellPixels: PixelSize?
    /// XTWINOPS text area size (`CSI 4 ; h ; w t`).
    package var textAreaPixels: PixelSize?
    /// DECRQM status for mode 2026: 0 unknown mode, 1 set, 2 reset,
    /// 3 permanently set, 4 permanently reset.
    package var synchronizedOutputStatus: Int?
    /// DA1 attributes after the `?`, e.g. [63, 1, 2, 4, ...]; nil until the
    /// DA1 reply arrives, which marks the end of the replies. When several
    /// came (tmux's own and, through passthrough, the outer terminal's),
    /// the last: the outer terminal's.
    package var deviceAttributes: [Int]?
    /// How many DA1 replies arrived.
    package var deviceAttributeReplies = 0
    /// XTVERSION (`DCS > | text ST`), e.g. "kitty(0.26.5)", "XTerm(379)",
    /// "Konsole 22.12.3"; sanitized, at most 64 characters. The last one
    /// that is not tmux's own.
    package var terminalVersion: String?
    /// tmux's own XTVERSION answer ("tmux 3.3a"), when tmux answered one
    /// sent to it directly: how a tmux without `$TMUX` (over SSH) is known.
    package var multiplexerVersion: String?
    /// OSC 11 (`OSC 11 ; rgb:RRRR/GGGG/BBBB ST`): the default background.
    package var backgroundColor: RGBA?

    package init() {}
}

/// Separates the replies to `ProbeQuery.bytes` from anything else read from
/// the terminal while waiting for them (the user may already be typing).
///
/// Replies can come in any order and split across reads anywhere. Bytes
/// that are not a reply are kept, in order, in `leftoverInput` for the input
/// decoder; nothing is ever echoed.
package struct ProbeReplyParser: Sendable {
    /// What tmux answers to DA1 itself (`input.c`: a VT100 with AVO).
    static let tmuxDeviceAttributes = [1, 2]

    /// Replies are short; an escape string longer than this is not a reply.
    static let maxReplyLength = 4096

    package private(set) var result = ProbeReplies()
    private var committedLeftover: [UInt8] = []
    private var pending: [UInt8] = []

    package init() {}

    /// True once the DA1 reply has been seen: nothing more will answer.
    package var isComplete: Bool { result.deviceAttributes != nil }

    /// True once `count` DA1 replies have been seen.
    package func hasDeviceAttributes(count: Int) -> Bool { result.deviceAttributeReplies >= count }

    /// Input that was not a reply, followed by any incomplete tail still held
    /// back (so that after the probe ends, the input decoder sees every byte).
    package var leftoverInput: [UInt8] { committedLeftover + pending }

    package mutating func feed(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        var index = 0
        scanning: while index < pending.count {
            guard pending[index] == EscapeScanner.escape else {
                committedLeftover.append(pending[index])
                index += 1
                continue
            }
            guard index + 1 < pending.count else { break scanning }
            let introducer = pending[index + 1]
            if introducer == UInt8(ascii: "[") {
                switch EscapeScanner.scanCSI(pending, from: index, maxLength: Self.maxReplyLength) {
                case .incomplete:
                    break scanning
                case .malformed(let length), .tooLong(let length):
                    committedLeftover.append(contentsOf: pending[index..<(index + length)])
                    index += length
                case .complete(let csi, let length):
                    if !absorbReply(csi) {
                        committedLeftover.append(contentsOf: pending[index..<(index + length)])
                    }
                    index += length
                }
            } else if EscapeScanner.isStringIntroducer(introducer) {
                switch EscapeScanner.scanString(pending, from: index, maxLength: Self.maxReplyLength) {
                case .incomplete:
                    break scanning
                case .notAString:
                    // An Alt-key press such as Alt-P: user input.
                    committedLeftover.append(contentsOf: pending[index..<(index + 2)])
                    index += 2
                case .complete(let length, let payload):
                    switch introducer {
                    case UInt8(ascii: "_"): absorbKittyReply(pending[payload])
                    case UInt8(ascii: "P"): absorbVersion(pending[payload])
                    case UInt8(ascii: "]"): absorbColor(pending[payload])
                    default: break
                    }
                    index += length
                }
            } else {
                // ESC before an ordinary byte: Escape or an Alt-key, user input.
                committedLeftover.append(EscapeScanner.escape)
                index += 1
            }
        }
        pending.removeFirst(index)
    }

    /// Records `csi` if it is a reply to one of our queries. Returns false for
    /// sequences that can be user input (keys, mouse reports), which belong
    /// to the input decoder. Private-mode (`?`, `>`) reports and window
    /// reports (`t`) are never user input, so unexpected ones are dropped.
    private mutating func absorbReply(_ csi: EscapeScanner.CSI) -> Bool {
        let question = UInt8(ascii: "?")
        switch (csi.prefix, csi.intermediates, csi.final) {
        case (question, [], UInt8(ascii: "S")):
            absorbGraphicsAttribute(csi)
        case (question, [UInt8(ascii: "$")], UInt8(ascii: "y")):
            if csi.param(0) == 2026, let status = csi.param(1) { result.synchronizedOutputStatus = status }
        case (question, [], UInt8(ascii: "c")):
            let attributes = csi.params.compactMap { $0 }
            // tmux's own answer (`?1;2c`, once it named itself) never hides
            // the outer terminal's, whichever came first.
            let tmuxsOwn = result.multiplexerVersion != nil && attributes == Self.tmuxDeviceAttributes
            if !tmuxsOwn || result.deviceAttributes == nil { result.deviceAttributes = attributes }
            result.deviceAttributeReplies += 1
        case (nil, [], UInt8(ascii: "t")):
            guard let height = csi.param(1), let width = csi.param(2), height > 0, width > 0 else { return true }
            if csi.param(0) == 6 { result.cellPixels = PixelSize(width: width, height: height) }
            if csi.param(0) == 4 { result.textAreaPixels = PixelSize(width: width, height: height) }
        case (question, _, _), (UInt8(ascii: ">"), _, _):
            break
        default:
            return false
        }
        return true
    }

    /// XTSMGRAPHICS reply `CSI ? item ; status ; values S`. Status 0 is
    /// success; anything else (3 = failure, as stock xterm answers without
    /// sixel support) is ignored, as are malformed replies such as mlterm's
    /// `CSI ? 1 ; 3 ; 0 S` answer to the geometry query.
    private mutating func absorbGraphicsAttribute(_ csi: EscapeScanner.CSI) {
        guard csi.param(1) == 0 else { return }
        switch csi.param(0) {
        case 1:
            if let registers = csi.param(2), registers > 0 { result.colorRegisters = registers }
        case 2:
            if let width = csi.param(2), let height = csi.param(3), width > 0, height > 0 {
                result.sixelMaxGeometry = PixelSize(width: width, height: height)
            }
        default:
            break
        }
    }

    /// XTVERSION reply: the DCS payload `> | name`.
    private mutating func absorbVersion(_ payload: ArraySlice<UInt8>) {
        guard payload.starts(with: [UInt8(ascii: ">"), UInt8(ascii: "|")]) else { return }
        let text = String(decoding: payload.dropFirst(2).prefix(64), as: UTF8.self)
        let printable = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0.value < 0x80 })
        guard !printable.isEmpty else { return }
        // tmux answers first, for itself, when asked directly; the outer
        // terminal's answer comes through passthrough after it.
        if TerminalIdentity(naming: printable)?.kind == .tmux, result.multiplexerVersion == nil,
            result.terminalVersion == nil
        {
            result.multiplexerVersion = printable
        } else {
            result.terminalVersion = printable
        }
    }

    /// OSC 11 reply: `11 ; rgb:R/G/B` with 1 to 4 hex digits per channel
    /// (scaled to 8 bits as XParseColor does).
    private mutating func absorbColor(_ payload: ArraySlice<UInt8>) {
        let text = String(decoding: payload.prefix(64), as: UTF8.self)
        guard text.hasPrefix("11;rgb:") else { return }
        let channels = text.dropFirst(7).split(separator: "/", omittingEmptySubsequences: false)
        guard channels.count == 3 else { return }
        var values: [UInt8] = []
        for channel in channels {
            // Hex digits only: `Int(_:radix:)` also takes a sign, and a
            // reply of `rgb:-615/…` (the fuzzer's) trapped on a negative.
            guard (1...4).contains(channel.count), channel.allSatisfy(\.isHexDigit),
                let value = Int(channel, radix: 16)
            else { return }
            let maximum = (1 << (4 * channel.count)) - 1
            values.append(UInt8((value * 255 + maximum / 2) / maximum))
        }
        result.backgroundColor = RGBA(r: values[0], g: values[1], b: values[2])
    }

    /// kitty graphics reply `G i=31 ; message` (payload of the APC string).
    private mutating func absorbKittyReply(_ payload: ArraySlice<UInt8>) {
        guard payload.first == UInt8(ascii: "G") else { return }
        let text = String(decoding: payload.dropFirst(), as: UTF8.self)
        guard let separator = text.firstIndex(of: ";") else { return }
        let controls = text[..<separator].split(separator: ",")
        let message = String(text[text.index(after: separator)...])
        if controls.contains(where: { $0 == "i=\(ProbeQuery.kittyQueryImageID)" }) {
            result.kittyGraphicsMessage = message
        }
        for id in [KittyTransfer.sharedMemoryQueryID, KittyTransfer.fileQueryID] where controls.contains("i=\(id)") {
            result.kittyMediumMessages[id] = String(message.prefix(64))
        }
    }
}
