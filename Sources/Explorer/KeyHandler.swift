import Terminal

/// nsxiv's key handler, in pxview: Ctrl-X, then a key, runs the user's
/// program `key-handler KEY` with the marked files' paths (or the shown or
/// selected photo's) on its standard input, one a line, while the
/// terminal is the shell's; pxview draws everything again after it.
/// Handlers written for nsxiv work: the key is named as nsxiv names it.
package enum KeyHandler {
    /// What the status line says while the second key is awaited.
    package static let prompt = "Ctrl-X: a key for the key handler (Esc: none)"

    /// Where the handler is: `$XDG_CONFIG_HOME/pxview/key-handler`
    /// (`~/.config` when unset or not absolute, as the spec says); nil
    /// with neither that nor `HOME`.
    package static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/pxview/key-handler"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/pxview/key-handler"
    }

    /// The handler's KEY argument for `key`, as nsxiv writes it: the
    /// character, or X's name for a named key (`Return`, `Left`, `Prior`,
    /// `space`), after `C-` for Control and `M-` for Alt. nil for Esc,
    /// which asks for no handler at all.
    package static func argument(for key: Key) -> String? {
        let name: String
        switch key.code {
        case .escape: return nil
        case .char(" "): name = "space"
        case .char(let character): name = String(character)
        case .enter: name = "Return"
        case .tab: name = "Tab"
        case .backTab: name = "ISO_Left_Tab"
        case .backspace: name = "BackSpace"
        case .delete: name = "Delete"
        case .insert: name = "Insert"
        case .home: name = "Home"
        case .end: name = "End"
        case .pageUp: name = "Prior"
        case .pageDown: name = "Next"
        case .up: name = "Up"
        case .down: name = "Down"
        case .left: name = "Left"
        case .right: name = "Right"
        case .function(let number): name = "F\(number)"
        }
        return (key.modifiers.contains(.control) ? "C-" : "") + (key.modifiers.contains(.alt) ? "M-" : "") + name
    }

    /// The paths the handler reads: the marked ones when there are any,
    /// else `current`; only local files (a Pixabay photo or a URL has no
    /// path a program could open).
    package static func input(marked: [[UInt8]], current: [UInt8]?) -> [UInt8]? {
        let paths = (marked.isEmpty ? current.map { [$0] } ?? [] : marked).filter { $0.first == UInt8(ascii: "/") }
        return paths.isEmpty ? nil : paths.flatMap { $0 + [UInt8(ascii: "\n")] }
    }
}
