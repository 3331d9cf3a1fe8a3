import Decoding
import Explorer
import Foundation
import HTTP
import Photos
import Pixels
import Plumbing
import Rendering
import Scaling
import Terminal
import TerminalPictures

#if canImport(Glibc)
    import Glibc
#endif

/// The view flags shared by `show`, `open` and the viewer, checked up front.
struct ViewOptions {
    var protocolChoice: ProtocolChoice
    var protocolGiven: Bool
    var size: PixelSize?
    var cells: CellCount?
    var cellSize: PixelSize?
    var settings: ViewFraming
    var maxPixels: Int
    var background: BackgroundChoice
    /// `PXVIEW_SEXTANTS`: 1 lets text pictures use sextants, 0 never; unset,
    /// the terminal decides (`TerminalTraits.drawsSextants`).
    var sextants: Bool?
    /// `TERM=linux`: the Linux console, whose font has half-blocks only.
    var linuxConsole: Bool

    /// What the probe's decision takes from these options.
    var choices: TerminalDisplay.Choices {
        TerminalDisplay.Choices(
            protocolChoice: protocolChoice, cellSize: cellSize, background: background, sextants: sextants,
            linuxConsole: linuxConsole)
    }

    /// Reads the flags in this order, so the first bad one is the one reported.
    /// Commands without the view options (`pxview`, `search -i`) get their defaults.
    init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(UsageError)
    {
        if let choice = try parsed.value(GlobalOption.protocolChoice) {
            protocolChoice = choice
            protocolGiven = true
        } else if let text = environment["PXVIEW_PROTOCOL"], !text.isEmpty {
            protocolChoice = try ValueParser.choice(text, option: "PXVIEW_PROTOCOL", command: parsed.command)
            protocolGiven = true
        } else {
            protocolChoice = .auto
            protocolGiven = false
        }
        size = try parsed.value(ViewFlags.size)
        cells = try parsed.value(ViewFlags.cells).map { CellCount(width: $0.width, height: $0.height) }
        cellSize = try parsed.value(ViewFlags.cellSize)
        var settings = ViewFraming()
        settings.fit = try parsed.value(ViewFlags.fit) ?? settings.fit
        settings.zoom = try parsed.value(ViewFlags.zoom) ?? settings.zoom
        if let center = try parsed.value(ViewFlags.center) {
            settings.centerX = center.x
            settings.centerY = center.y
        }
        self.settings = settings
        maxPixels = try parsed.value(ViewFlags.maxPixels) ?? DecodeOptions.defaultMaxPixels
        background = try parsed.value(ViewFlags.background) ?? .auto
        linuxConsole = TerminalTable.isLinuxConsole(environment: environment)
        if let text = environment["PXVIEW_SEXTANTS"], !text.isEmpty {
            sextants = try ValueParser.choice(text, option: "PXVIEW_SEXTANTS", command: parsed.command, as: OnOff.self) == .on
        }
    }
}

extension ViewOptions {
    /// `show` and `open` open the viewer when both ends are a terminal,
    /// unless `--once` says draw once, or a box (`--size`, `--cells`) was
    /// asked for: the viewer fills the window, so a box means a drawing.
    func opensViewer(once: Bool) -> Bool {
        !once && size == nil && cells == nil && Output.isTerminal(0) && Output.isTerminal(1)
    }
}
