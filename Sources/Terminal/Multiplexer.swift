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
public enum Multiplexer: Equatable, Sendable, CustomStringConvertible {
    case none
    /// Inside tmux; `passthrough` is its `allow-passthrough` option.
    case tmux(passthrough: Bool)

    /// `$TMUX` names the server pxview runs under; tmux itself is asked
    /// whether passthrough is allowed for this pane.
    public static func detect(
        environment: [String: String], askTmux: () -> String? = { runCommand(["tmux", "show", "-Apv", "allow-passthrough"]) }
    ) -> Multiplexer {
        guard let socket = environment["TMUX"], !socket.isEmpty else { return .none }
        return .tmux(passthrough: passthroughAllowed(askTmux()))
    }

    /// tmux 3.3 answers `on` or `off`; 3.4 adds `all` (on for invisible panes too).
    static func passthroughAllowed(_ answer: String?) -> Bool {
        guard let answer else { return false }
        let value = answer.split(whereSeparator: { $0 == "\n" || $0 == " " }).last.map(String.init) ?? ""
        return value == "on" || value == "all"
    }

    /// True when graphics must be wrapped in passthrough.
    public var wrapsGraphics: Bool {
        if case .tmux(passthrough: _) = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .tmux(let passthrough): return "tmux (passthrough \(passthrough ? "on" : "off"))"
        }
    }

    /// The one line pxview prints when tmux keeps graphics from the terminal.
    public static let passthroughHint =
        "pxview: tmux passes no graphics: 'set -g allow-passthrough on' (tmux 3.3+) gives sixel or kitty"

    /// Runs a command without a shell and returns its standard output, or
    /// nil when it cannot run or fails. Its stderr goes to /dev/null.
    public static func runCommand(_ arguments: [String]) -> String? {
        guard !arguments.isEmpty else { return nil }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(pipeFDs[1])
        defer { close(pipeFDs[0]) }
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while output.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer.prefix(count)
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}

/// tmux passthrough: wrapping graphics so tmux hands them to the terminal.
public enum Passthrough {
    /// One sequence as `ESC P tmux; <sequence, every ESC doubled> ESC \`.
    public static func wrap(_ sequence: [UInt8]) -> [UInt8] {
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
    public enum Segment: Equatable, Sendable {
        case text([UInt8])
        /// `placesAtCursor`: the terminal draws it where its cursor is (a
        /// sixel image, a kitty placement that is not virtual), so tmux's
        /// idea of the cursor must have reached the terminal first.
        case graphic([UInt8], placesAtCursor: Bool)
    }

    /// Splits `frame` into text and graphics commands. Graphics commands are
    /// the DCS (`ESC P`) and APC (`ESC _`) strings pxview's encoders write,
    /// each ended by ST; text never holds an ESC inside such a string.
    public static func segments(_ frame: [UInt8]) -> [Segment] {
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

    /// `frame` with every graphics command wrapped, text left for tmux.
    public static func wrapGraphics(_ frame: [UInt8]) -> [UInt8] {
        segments(frame).flatMap { segment -> [UInt8] in
            switch segment {
            case .text(let bytes): return bytes
            case .graphic(let bytes, _): return wrap(bytes)
            }
        }
    }
}
