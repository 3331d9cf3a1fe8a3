/// Wraps graphics commands for tmux, which otherwise swallows them.
///
/// Each command ending in `ESC \` (a kitty APC chunk, a sixel DCS) becomes
/// its own `ESC P tmux; <command with every ESC doubled> ESC \`, because
/// tmux forwards one passthrough sequence at a time and caps its size;
/// wrapping kitty chunks one by one keeps each under tmux's limit. Bytes
/// after the last `ESC \` are wrapped as one more sequence. tmux must have
/// `set -g allow-passthrough on` (tmux 3.3+).
public enum TmuxPassthrough {
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        let escape = ControlBytes.escape
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 64 + 16)
        var commandStart = 0
        var i = 0
        while i < bytes.count {
            let endsCommand = bytes[i] == escape && i + 1 < bytes.count && bytes[i + 1] == ControlBytes.backslash
            i += endsCommand ? 2 : 1
            if endsCommand || i == bytes.count {
                appendWrapped(bytes[commandStart..<i], to: &out)
                commandStart = i
            }
        }
        return out
    }

    private static func appendWrapped(_ command: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.append(ControlBytes.escape)
        out.appendASCII("Ptmux;")
        for byte in command {
            if byte == ControlBytes.escape { out.append(ControlBytes.escape) }
            out.append(byte)
        }
        out.append(contentsOf: ControlBytes.stringTerminator)
    }
}
