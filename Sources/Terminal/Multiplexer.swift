import ControlSequences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal multiplexer between pxview and the terminal that draws.
///
/// tmux parses everything pxview writes and keeps its own grid of text, so
/// graphics reach the real terminal only inside passthrough (`ESC P tmux;`
/// … `ESC \`, tmux 3.3+ with `set -g allow-passthrough on`), and replies
/// to queries come back only for queries sent the same way.
package enum Multiplexer: Equatable, Sendable, CustomStringConvertible {
    case none
    /// tmux on this machine (`$TMUX`); `passthrough` is its
    /// `allow-passthrough` for this pane. tmux can be asked where the pane
    /// is and whether it is shown (`Tmux`).
    case tmux(passthrough: Bool)
    /// tmux on the far side of a remote shell: `$TMUX` is not set there and
    /// no tmux can be asked. Known from `TERM` (`tmux*`, `screen*`) and
    /// tmux's own XTVERSION answer to the probe; `passthrough` is whether
    /// the outer terminal answered through it.
    case remoteTmux(passthrough: Bool)

    /// The multiplexer `tmux` (the one pxview runs in, nil for none) makes:
    /// tmux, asked whether passthrough is allowed for this pane, or none.
    /// A remote tmux (no `$TMUX`) is only known after the probe (`TmuxHint`,
    /// `resolved(by:)`).
    package init(tmux: Tmux?) {
        self = tmux.map { .tmux(passthrough: $0.passthrough().passes) } ?? .none
    }

    /// True when graphics must be wrapped in passthrough.
    package var wrapsGraphics: Bool {
        switch self {
        case .none: return false
        case .tmux, .remoteTmux: return true
        }
    }

    /// True inside tmux with passthrough on.
    package var passthroughOn: Bool {
        self == .tmux(passthrough: true) || self == .remoteTmux(passthrough: true)
    }

    /// True when tmux passes nothing: graphics cannot be drawn.
    package var blocksGraphics: Bool {
        self == .tmux(passthrough: false) || self == .remoteTmux(passthrough: false)
    }

    package var description: String {
        switch self {
        case .none: return "none"
        case .tmux(let passthrough): return "tmux (passthrough \(passthrough ? "on" : "off"))"
        case .remoteTmux(let passthrough): return "tmux over a remote shell (passthrough \(passthrough ? "on" : "off"))"
        }
    }

    /// The one line pxview prints when tmux keeps graphics from the terminal.
    package static let passthroughHint =
        "pxview: tmux passes no graphics: 'set -g allow-passthrough on' (tmux 3.3+) gives sixel or kitty"
}

/// What `TERM` says about a multiplexer pxview cannot otherwise see (no
/// `$TMUX`: a shell over SSH from a tmux pane, or an environment cleared).
package enum TmuxHint: Equatable, Sendable {
    case none
    /// `TERM=tmux*`: tmux's own terminfo entry, so tmux.
    case tmux
    /// `TERM=screen*`: tmux's old default, or GNU screen, which takes an
    /// APC for its status line: asked what it is before any graphics query.
    case screenOrTmux

    package init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        if let socket = environment["TMUX"], !socket.isEmpty {
            self = .none
        } else {
            self = TerminalTable.multiplexerTerms.first { term.hasPrefix($0.prefix) }?.hint ?? .none
        }
    }
}

/// tmux passthrough: wrapping graphics so tmux hands them to the terminal.
package enum Passthrough {
    /// One sequence as `ESC P tmux; <sequence, every ESC doubled> ESC \`.
    package static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(sequence.count + sequence.count / 64 + 16)
        out += TerminalCommand.tmuxPassthroughStart
        for byte in sequence {
            if byte == TerminalCommand.escape { out.append(TerminalCommand.escape) }
            out.append(byte)
        }
        out += TerminalCommand.stringTerminator
        return out
    }

    /// A piece of a frame: text and cursor motion for tmux to interpret, or
    /// one graphics command (sixel DCS, kitty APC) for the real terminal.
    package enum Segment: Equatable, Sendable {
        case text([UInt8])
        /// `placesAtCursor`: the terminal draws it where its cursor is (a
        /// sixel image, a kitty placement that is not virtual), so tmux's
        /// idea of the cursor must have reached the terminal first.
        case graphic([UInt8], placesAtCursor: Bool)
    }

    /// Splits `frame` into text and graphics commands. Graphics commands are
    /// the DCS (`ESC P`) and APC (`ESC _`) strings pxview's encoders write,
    /// each ended by ST; text never holds an ESC inside such a string.
    package static func segments(_ frame: [UInt8]) -> [Segment] {
        var result: [Segment] = []
        var textStart = 0
        var index = 0
        while index + 1 < frame.count {
            guard frame[index] == TerminalCommand.escape,
                frame[index + 1] == UInt8(ascii: "P") || frame[index + 1] == UInt8(ascii: "_")
            else {
                index += 1
                continue
            }
            // Already a passthrough (the clipboard's OSC 52 and 5522, wrapped
            // by whoever sent them): text, passed on as it is. Its inner ESCs
            // are doubled, so its end is the first ESC \\ not inside a pair.
            if frame[index...].starts(with: TerminalCommand.tmuxPassthroughStart) {
                var end = index + TerminalCommand.tmuxPassthroughStart.count
                while end + 1 < frame.count {
                    if frame[end] == TerminalCommand.escape, frame[end + 1] == TerminalCommand.escape {
                        end += 2
                    } else if frame[end] == TerminalCommand.escape, frame[end + 1] == UInt8(ascii: "\\") {
                        break
                    } else {
                        end += 1
                    }
                }
                guard end + 1 < frame.count else { break }
                index = end + 2
                continue
            }
            var end = index + 2
            while end + 1 < frame.count, !(frame[end] == TerminalCommand.escape && frame[end + 1] == UInt8(ascii: "\\")) {
                end += 1
            }
            guard end + 1 < frame.count else { break }  // unterminated: leave it as text
            if textStart < index { result.append(.text(Array(frame[textStart..<index]))) }
            let sequence = Array(frame[index...(end + 1)])
            result.append(.graphic(sequence, placesAtCursor: placesAtCursor(sequence)))
            index = end + 2
            textStart = index
        }
        if textStart < frame.count { result.append(.text(Array(frame[textStart...]))) }
        return result
    }

    /// Sixel images always draw at the cursor. A kitty command does when it
    /// places (`a=T`, `a=p`) without being virtual (`U=1`); the later chunks
    /// of a transmission (`q=2,m=…` only) continue the first one.
    static func placesAtCursor(_ sequence: [UInt8]) -> Bool {
        if sequence.count > 1, sequence[1] == UInt8(ascii: "P") { return true }
        let body = sequence.dropFirst(3)
        let keysEnd = body.firstIndex(of: UInt8(ascii: ";")) ?? body.firstIndex(of: TerminalCommand.escape) ?? body.endIndex
        let keys = body[body.startIndex..<keysEnd].split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) }
        guard keys.contains("a=T") || keys.contains("a=p") else { return false }
        return !keys.contains("U=1")
    }

    /// Where, in a frame already wrapped (`wrapGraphics`), each passthrough
    /// starts whose first command draws at the cursor: where a fence goes.
    package static func picturesAtCursor(in bytes: [UInt8]) -> [Int] {
        var cuts: [Int] = []
        var index = 0
        while index < bytes.count,
            let start = bytes[index...].firstRange(of: TerminalCommand.tmuxPassthroughStart)?.lowerBound
        {
            // Its first command with its escapes undoubled, as far as the
            // keys that tell (`placesAtCursor` reads no further).
            var command: [UInt8] = []
            var end = start + TerminalCommand.tmuxPassthroughStart.count
            while end + 1 < bytes.count, !(bytes[end] == TerminalCommand.escape && bytes[end + 1] == UInt8(ascii: "\\")) {
                let doubled = bytes[end] == TerminalCommand.escape && bytes[end + 1] == TerminalCommand.escape
                if command.count < 256 { command.append(bytes[end]) }
                end += doubled ? 2 : 1
            }
            if placesAtCursor(command) { cuts.append(start) }
            index = end + 2
        }
        return cuts
    }

    /// The most graphics bytes one passthrough carries: tmux 3.3a collects
    /// a DCS into a buffer of at most 1 MB (`INPUT_BUF_LIMIT`) and drops it
    /// past that; escapes are doubled inside, so half of it.
    static let maximumRunBytes = 512 * 1024

    /// `frame` with every graphics command wrapped, text left for tmux.
    /// Commands that follow one another with no text between (the chunks of
    /// one kitty upload; a picture drawn at the cursor starts anew) go in
    /// one passthrough: tmux writes its own
    /// bookkeeping (modes, cursor, a synchronized-update start for a pane
    /// that is not the active one) after each passthrough, and kitty 0.26.5
    /// lost uploads whose chunks came between those (seen under tmux 3.3a
    /// after a split: two of four tiles never appeared, though every byte
    /// reached kitty).
    package static func wrapGraphics(_ frame: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { out += wrap(run) }
            run = []
        }
        for segment in segments(frame) {
            switch segment {
            case .text(let bytes):
                flush()
                out += bytes
            case .graphic(let bytes, let placesAtCursor):
                // A picture drawn at the cursor starts its own passthrough,
                // as `FrameWriter` sends it after a fence.
                if placesAtCursor || run.count + bytes.count > maximumRunBytes { flush() }
                run += bytes
            }
        }
        flush()
        return out
    }

    /// `frame` with every graphics command wrapped, and each one that draws
    /// at the cursor moved, inside its passthrough, to where the frame put
    /// the cursor in the pane plus the pane's `origin` on the outer screen
    /// (the outer cursor hidden and the scroll margins reset first). A
    /// picture whose cell the frame did
    /// not set just before it (no `CUP` ends the text before it) is wrapped
    /// as it is. As in `wrapGraphics(_:)`, commands with no text between go
    /// in one passthrough; a text piece that only sets the cursor for the
    /// picture after it is not sent to tmux at all (the picture's position
    /// travels inside the passthrough), so an upload, its placement and the
    /// next picture's travel together.
    package static func wrapGraphics(_ frame: [UInt8], placingAt origin: CellOffset) -> [UInt8] {
        var out: [UInt8] = []
        var run: [UInt8] = []
        var cursor: CellOffset?
        func flush() {
            if !run.isEmpty { out += wrap(run) }
            run = []
        }
        let pieces = segments(frame)
        for (index, segment) in pieces.enumerated() {
            switch segment {
            case .text(let bytes):
                cursor = endingCursorPosition(bytes)
                let nextPlaces: Bool
                if index + 1 < pieces.count, case .graphic(_, let places) = pieces[index + 1] {
                    nextPlaces = places
                } else {
                    nextPlaces = false
                }
                // Only the cell for the next picture: it travels inside.
                if nextPlaces, let cursor, bytes == TerminalCommand.moveTo(row: cursor.row + 1, column: cursor.column + 1) {
                    continue
                }
                flush()
                out += bytes
            case .graphic(let bytes, let placesAtCursor):
                var command = bytes
                if placesAtCursor, let cell = cursor {
                    // The outer cursor hidden first: it is the active
                    // pane's, shown, and xterm left a cursor block on the
                    // picture's first cell when a sixel was drawn under it
                    // (seen while a GIF played in a pane beside a shell).
                    // tmux shows it again after every passthrough, where
                    // the active pane has it.
                    command =
                        TerminalCommand.hideCursor + TerminalCommand.resetScrollMargins
                        + TerminalCommand.moveTo(row: origin.row + cell.row + 1, column: origin.column + cell.column + 1)
                        + bytes
                }
                if run.count + command.count > maximumRunBytes { flush() }
                run += command
            }
        }
        flush()
        return out
    }

    /// The 0-based cell a text piece leaves the cursor on, when it ends with
    /// a cursor position (`CSI row ; column H`), the way every backend puts
    /// a picture; nil otherwise.
    static func endingCursorPosition(_ text: [UInt8]) -> CellOffset? {
        guard text.last == UInt8(ascii: "H"), let start = text.lastIndex(of: TerminalCommand.escape),
            start + 1 < text.count, text[start + 1] == UInt8(ascii: "[")
        else { return nil }
        let parameters = String(decoding: text[(start + 2)..<(text.count - 1)], as: UTF8.self)
        guard parameters.allSatisfy({ $0.isNumber || $0 == ";" }) else { return nil }
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
        guard fields.count <= 2 else { return nil }
        let row = fields.first ?? 1
        let column = fields.count > 1 ? fields[1] : 1
        return CellOffset(column: max(1, column) - 1, row: max(1, row) - 1)
    }
}
