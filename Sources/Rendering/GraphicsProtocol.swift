import Terminal

/// What the user asked for with `--protocol` or `PXVIEW_PROTOCOL`: the
/// name of a backend's way of drawing, or `auto`, the probe's choice.
/// Each backend declares its own names in its file (`extension
/// ProtocolChoice`); the list is read from the backends (`Backends.all`),
/// so `--protocol`'s choices, its help, the man page and the completions
/// follow them.
package struct ProtocolChoice: BackendName {
    package let rawValue: String

    /// A backend's own name for its way of drawing (declared in its file).
    package init(named name: String) {
        rawValue = name
    }

    /// The probe decides (`Backends.method(for:on:)`).
    package static let auto = ProtocolChoice(named: "auto")

    /// `auto`, then the backends' names in the order `auto` prefers them.
    package static let allCases: [ProtocolChoice] = {
        var names: [ProtocolChoice] = [.auto]
        for backend in Backends.all {
            for method in backend.methods where !names.contains(backend.choice(for: method)) {
                names.append(backend.choice(for: method))
            }
        }
        return names
    }()
}

/// How pixels reach the screen: one `GraphicsBackend` draws each (a backend
/// may draw more than one: `TextBackend` both text pictures). Each backend
/// declares its own in its file (`extension DrawingMethod`).
package struct DrawingMethod: BackendName {
    package let rawValue: String

    /// A backend's own name for a method it draws (declared in its file).
    package init(named name: String) {
        rawValue = name
    }

    /// Every backend's methods, in `Backends.all`'s order.
    package static let allCases: [DrawingMethod] = Backends.all.flatMap { $0.methods }
}

/// A name the backends give (`ProtocolChoice`, `DrawingMethod`): parsed
/// (`--protocol`, a remembered preview) only when some backend gave it.
package protocol BackendName: RawRepresentable, Hashable, CaseIterable, Sendable, CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    init(named name: String)
}

extension BackendName {
    /// Nil for a name no backend gave.
    package init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.init(named: rawValue)
    }

    package var description: String { rawValue }
}

/// What a backend weighs when it is asked whether it draws a choice
/// (`GraphicsBackend.method(for:on:)`): what the probe found, the
/// multiplexer between, the terminal's quirks and the Linux console.
package struct TerminalSituation: Sendable {
    package var capabilities: TerminalCapabilities?
    package var multiplexer: Multiplexer
    package var traits: TerminalTraits
    /// `TERM=linux`: its font has half-blocks and little else.
    package var linuxConsole: Bool

    package init(
        capabilities: TerminalCapabilities?, multiplexer: Multiplexer, traits: TerminalTraits, linuxConsole: Bool = false
    ) {
        self.capabilities = capabilities
        self.multiplexer = multiplexer
        self.traits = traits
        self.linuxConsole = linuxConsole
    }

    /// Graphics reach the terminal: no tmux between, or tmux with
    /// passthrough (whether the terminal draws them is for each backend to
    /// read in `capabilities`).
    package var passesGraphics: Bool { !multiplexer.blocksGraphics }
}

/// Every way of drawing pxview knows: the one list of backends, in the
/// order `--protocol auto` tries them (the first that draws on the
/// terminal wins; text always does). Adding a protocol is its backend
/// (`Sources/Rendering/NameBackend.swift`) and its line here.
package enum Backends {
    package static let all: [any GraphicsBackend.Type] = [
        KittyPlaceholderBackend.self,
        KittyBackend.self,
        SixelBackend.self,
        TextBackend.self,
    ]

    /// The backend that draws `method`. Methods are only made by the
    /// backends, so there is always one.
    package static func type(for method: DrawingMethod) -> any GraphicsBackend.Type {
        guard let backend = all.first(where: { $0.methods.contains(method) }) else {
            preconditionFailure("no backend draws \(method)")
        }
        return backend
    }

    /// The way `choice` is drawn on `terminal`: the first backend's that
    /// takes it (with `auto`, the first the terminal can show); the last
    /// backend's (text) when none does.
    package static func method(for choice: ProtocolChoice, on terminal: TerminalSituation) -> DrawingMethod {
        for backend in all {
            if let method = backend.method(for: choice, on: terminal) { return method }
        }
        return all[all.count - 1].method(for: .auto, on: terminal) ?? all[all.count - 1].methods[0]
    }

    /// What `auto` draws where the terminal shows no graphics: text (on
    /// the Linux console its half-blocks).
    package static func textMethod(linuxConsole: Bool) -> DrawingMethod {
        method(
            for: .auto,
            on: TerminalSituation(
                capabilities: nil, multiplexer: .none, traits: TerminalTraits(), linuxConsole: linuxConsole))
    }
}
