import Explorer
import Pixels
import Rendering
import Scaling
import Terminal

/// Options more than one command takes, declared once.

/// `-h`, `--help`: every command answers it from its spec.
enum CommonOption {
    static let help = Flag("--help", aliases: ["-h"], help: "show this help")
}

/// Options that work with every command (they may also come before it).
enum GlobalOption {
    static let apiKey: Option<String> = .text("--api-key", "KEY", help: "Pixabay API key (default $PIXABAY_API_KEY)")
    static let apiURL: Option<String> = .text(
        "--api-url", "URL", help: "API endpoint (default $PIXABAY_API_URL or https://pixabay.com/api/)")
    static let offline = Flag("--offline", help: "use the offline catalog, never the network")
    static let noCache = Flag("--no-cache", help: "neither read nor write the disk cache")
    static let protocolChoice: Option<ProtocolChoice> = .choice(
        "--protocol", "P",
        help:
            ProtocolChoice.allCases.map(\.rawValue).joined(separator: "|") + " (default auto, or $PXVIEW_PROTOCOL); "
            + "symbols and blocks draw text, the best block character per cell or half-blocks")

    static let all: [any DeclaredOption] = [apiKey, apiURL, offline, noCache, protocolChoice]
}

/// How an image is fitted, zoomed and drawn: shared by show, open and the viewer (`ViewOptions`).
enum ViewFlags {
    static let size: Option<PixelSize> = .size("--size", "WxH", help: "pixel box to fit into")
    static let cells: Option<PixelSize> = .size(
        "--cells", "COLSxROWS", help: "box in terminal cells", limit: 2048, example: "80x24")
    static let cellSize: Option<PixelSize> = .size(
        "--cell-size", "WxH", help: "pixel size of one cell (overrides the terminal's)", limit: 256, example: "10x20")
    /// `actual` (1:1 pixels) is a viewer key, not a fit for a box.
    static let fit = Option<FitMode>(
        "--fit", "MODE", help: "contain|cover|down (default contain)", completion: .words(["contain", "cover", "down"])
    ) { value throws(UsageError) in
        guard let fit = FitMode(rawValue: value.text), fit != .actual else {
            throw UsageError(
                message: "--fit expects contain|cover|down (got '\(TerminalText.sanitize(value.text))')", command: value.command)
        }
        return fit
    }
    static let zoom = Option<Double>("--zoom", "Z", help: "1 = fit, 2 = twice the fit scale") { value throws(UsageError) in
        try ValueParser.number(
            value.text, in: Viewport.minZoom...Viewport.maxRequestedZoom, option: value.option, command: value.command)
    }
    static let center = Option<(x: Double, y: Double)>(
        "--center", "X,Y", help: "image point (fractions 0..1) at the middle of the view"
    ) { value throws(UsageError) in
        try ValueParser.center(value.text, option: value.option, command: value.command)
    }
    static let maxPixels: Option<Int> = .positiveInteger("--max-pixels", "N", help: "refuse larger images (default 100000000)")
    static let background = Option<BackgroundChoice>(
        "--bg", "COLOR",
        help: "behind transparent pixels: auto (the terminal's background), "
            + BackgroundChoice.names.dropFirst().joined(separator: ", ") + " or #rrggbb",
        completion: .words(BackgroundChoice.names)
    ) { value throws(UsageError) in
        guard let choice = BackgroundChoice(parsing: value.text) else {
            let names = (BackgroundChoice.names + ["#rrggbb"]).joined(separator: "|")
            throw UsageError(
                message: "--bg expects \(names), like #202020 (got '\(TerminalText.sanitize(value.text))')",
                command: value.command)
        }
        return choice
    }

    static let all: [any DeclaredOption] = [size, cells, cellSize, fit, zoom, center, maxPixels, background]
}

/// The keys of the screens commands open, for their help.
enum KeyTables {
    static let grid: KeyTable = (title: "keys in the grid", entries: KeyHelp.browser)
    static let viewer: KeyTable = (title: "keys in the viewer", entries: KeyHelp.viewer)
    static let folderGrid: KeyTable = (title: "keys in a folder's grid", entries: KeyHelp.folderGrid)
}
