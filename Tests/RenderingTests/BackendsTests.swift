import Pixels
import Rendering
import Terminal
import Testing

/// The list of backends is where the ways of drawing come from.
@Suite struct BackendsTests {
    private let geometry = TerminalGeometry(
        windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 8, height: 16))

    /// `--protocol`'s choices are `auto` and the backends' names, in the
    /// order `auto` prefers them; nothing else parses.
    @Test func theChoicesAreTheBackends() {
        #expect(ProtocolChoice.allCases.map(\.rawValue) == ["auto", "kitty", "sixel", "symbols", "blocks"])
        #expect(DrawingMethod.allCases.map(\.rawValue) == ["kitty-placeholders", "kitty", "sixel", "symbols", "blocks"])
        #expect(ProtocolChoice(rawValue: "iterm2") == nil && DrawingMethod(rawValue: "auto") == nil)
        #expect(DrawingMethod(rawValue: "kitty-placeholders") == .kittyPlaceholders)
    }

    /// Each method is drawn by the backend that declares it, which says
    /// the choice naming it; a plan makes that backend.
    @Test(arguments: DrawingMethod.allCases)
    func eachMethodHasItsBackend(_ method: DrawingMethod) {
        let backend = Backends.type(for: method)
        #expect(backend.methods.contains(method))
        let plan = DrawingPlan(method: method, geometry: geometry)
        #expect(plan.makeBackend().method == method)
        #expect(ProtocolChoice.allCases.contains(plan.choice) && plan.choice != .auto)
        // The choice naming a method draws it again where nothing else matters.
        let situation = TerminalSituation(
            capabilities: nil, multiplexer: method == .kittyPlaceholders ? .tmux(passthrough: true) : .none,
            traits: TerminalTraits(version: "kitty(0.40.0)"))
        #expect(Backends.method(for: plan.choice, on: situation) == method)
    }

    /// `auto` takes the first backend in the list whose pictures the
    /// terminal shows; text where none does, half-blocks on the console.
    @Test func autoTakesTheFirstThatShows() {
        var both = TerminalCapabilitiesFixtures.sixel
        both.kittyGraphics = true
        let plain = TerminalSituation(capabilities: both, multiplexer: .none, traits: TerminalTraits())
        #expect(Backends.method(for: .auto, on: plain) == .kitty)
        both.kittyGraphics = false
        #expect(
            Backends.method(for: .auto, on: TerminalSituation(capabilities: both, multiplexer: .none, traits: TerminalTraits()))
                == .sixel)
        let blocked = TerminalSituation(capabilities: both, multiplexer: .tmux(passthrough: false), traits: TerminalTraits())
        #expect(Backends.method(for: .auto, on: blocked) == .symbols)
        #expect(Backends.method(for: .sixel, on: blocked) == .sixel)
        #expect(Backends.textMethod(linuxConsole: true) == .blocks && Backends.textMethod(linuxConsole: false) == .symbols)
        // Text comes last, the fallback; it alone takes `auto` with nothing known.
        #expect(Backends.all.last.map { $0.picturesAreText } == true)
        let unknown = TerminalSituation(capabilities: nil, multiplexer: .none, traits: TerminalTraits())
        #expect(Backends.all.dropLast().allSatisfy { $0.method(for: .auto, on: unknown) == nil })
    }
}
