import Decoding
import Foundation
import GraphicsReadback
import Pixels
import Scaling
import Terminal
import Testing

@testable import Rendering

/// The whole pipeline on real photos, read back from its own escape codes.
@Suite struct ImageRendererTests {
    static let photos = [
        "p01_china_640x427.jpg", "p03_storm_1920x1280.jpg", "p04_freshflower_1600x1203_progressive.jpg",
        "p02_coffee_600x400.png", "p06_chelsea_alpha_451x300.png", "p07_camera_gray_512x512.jpg",
    ]

    static func fixture(_ name: String) throws -> [UInt8] {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent("Fixtures/images/\(name)").path
        return [UInt8](try #require(FileManager.default.contents(atPath: path), "missing fixture \(path)"))
    }

    /// What the encoder was meant to show: the same resample of the same decode.
    func expected(_ decoded: DecodedImage, _ viewport: Viewport) -> RGBAImage {
        let sx = Double(decoded.image.width) / Double(viewport.imageSize.width)
        let sy = Double(decoded.image.height) / Double(viewport.imageSize.height)
        let r = viewport.sourceRect
        return Resampler().resample(
            decoded.image, from: SourceRect(x: r.x * sx, y: r.y * sy, width: r.width * sx, height: r.height * sy),
            to: viewport.outputSize)
    }

    /// A drawing plan with `method` on 80x24 cells of `cell`, and its backend.
    static func backend(_ method: DrawingMethod, cell: PixelSize = PixelSize(width: 10, height: 20)) -> any GraphicsBackend {
        DrawingPlan(method: method, geometry: TerminalGeometry(windowCells: CellCount(width: 80, height: 24), cellPixels: cell))
            .makeBackend()
    }

    /// Decode, frame and draw `bytes` inline as `pxview show` does.
    static func show(
        _ bytes: [UInt8], _ backend: any GraphicsBackend, box: PixelSize, settings: ViewFraming = ViewFraming()
    ) throws -> (DecodedImage, Viewport, InlinePicture) {
        let renderer = ImageRenderer()
        let decoded = try renderer.decode(
            bytes, settings: settings, box: box, drawing: backend.drawing, screen: backend.screen, maxPixels: 100_000_000)
        let viewport = renderer.viewport(for: decoded.fullSize, settings: settings, box: box, screen: backend.screen)
        return (decoded, viewport, renderer.render(decoded.image, viewport: viewport, backend: backend))
    }

    @Test(arguments: photos)
    func sixelRoundTripIsAtLeast30dB(photo: String) throws {
        let (decoded, viewport, rendered) = try Self.show(
            try Self.fixture(photo), Self.backend(.sixel), box: PixelSize(width: 200, height: 150))
        let shown = try SixelDecoder.decode(rendered.lines[0]).image
        let source = expected(decoded, viewport)
        #expect(shown.size == source.size)
        for y in 0..<shown.height {
            for x in 0..<shown.width where (shown[x, y].a == 0) != (source[x, y].a < 128) {
                Issue.record("pixel \(x),\(y): transparency differs")
                return
            }
        }
        #expect(PSNR.decibels(shown, source) >= 30, "\(photo)")
    }

    @Test(arguments: photos)
    func kittyRoundTripIsLossless(photo: String) throws {
        let settings = ViewFraming(zoom: 1.5, centerX: 0.3, centerY: 0.6)
        let (decoded, viewport, rendered) = try Self.show(
            try Self.fixture(photo), Self.backend(.kitty, cell: PixelSize(width: 9, height: 18)),
            box: PixelSize(width: 200, height: 150), settings: settings)
        let (shown, commands) = try KittyDecoder.image(rendered.lines[0])
        let source = expected(decoded, viewport)
        #expect(shown.size == source.size)
        #expect(PSNR.decibels(shown, source) >= 45, "\(photo)")
        // Drawn at its own pixel size: c/r would make kitty stretch it to whole cells.
        #expect(commands[0].keys["c"] == nil && commands[0].keys["r"] == nil)
        #expect(rendered.cells == CellCount(width: (shown.width + 8) / 9, height: (shown.height + 17) / 18))
        // The cursor steps below the picture's rows.
        #expect(rendered.cursorAfter == Array("\r".utf8) + [UInt8](repeating: 10, count: rendered.cells.height))
    }

    @Test func zoomedOutputIsExactlyTheBox() throws {
        let settings = ViewFraming(zoom: 3, centerX: 1, centerY: 0)
        let (_, viewport, _) = try Self.show(
            try Self.fixture("p01_china_640x427.jpg"), Self.backend(.sixel), box: PixelSize(width: 120, height: 90),
            settings: settings)
        #expect(viewport.outputSize == PixelSize(width: 120, height: 90))
        // Centre (1, 0) clamps to the top-right corner: the view ends at the image's right edge.
        #expect(abs(viewport.sourceRect.x + viewport.sourceRect.width - 640) < 0.001)
        #expect(viewport.sourceRect.y == 0)
    }

    @Test func dctScalingIsUsedForSmallBoxesButNotForCover() throws {
        let renderer = ImageRenderer()
        let backend = Self.backend(.sixel)
        let box = PixelSize(width: 200, height: 150)
        let bytes = try Self.fixture("p03_storm_1920x1280.jpg")
        func decode(_ settings: ViewFraming) throws -> DecodedImage {
            try renderer.decode(
                bytes, settings: settings, box: box, drawing: backend.drawing, screen: backend.screen, maxPixels: 100_000_000)
        }
        let contain = try decode(ViewFraming())
        #expect(contain.image.size == PixelSize(width: 240, height: 160))
        #expect(contain.fullSize == PixelSize(width: 1920, height: 1280))
        #expect(try decode(ViewFraming(zoom: 4)).image.size == PixelSize(width: 960, height: 640))
        #expect(try decode(ViewFraming(fit: .cover)).image.size == PixelSize(width: 1920, height: 1280))
    }

    @Test func thumbnailsAreCappedAtFourMegapixels() {
        let backend = Self.backend(.kitty)
        let options = DecodeSize.thumbnail(
            box: PixelSize(width: 160, height: 120), screen: backend.screen, maxPixels: 100_000_000)
        #expect(options.maxPixels == DecodeSize.thumbnailMaxPixels)
        #expect(options.targetSize == PixelSize(width: 160, height: 120))
        #expect(
            DecodeSize.thumbnail(box: PixelSize(width: 160, height: 120), screen: backend.screen, maxPixels: 1000).maxPixels
                == 1000)
    }

    @Test func halfBlocksKeepTheCellAspect() throws {
        // 10x20 cells: a half-block is square, so a 2:1 image fills 2 columns per row.
        var image = RGBAImage(width: 200, height: 100, fill: RGBA(r: 200, g: 10, b: 10))
        image[0, 0] = RGBA(r: 0, g: 0, b: 255)
        let backend = Self.backend(.blocks)
        let box = backend.screen.unitBox(pixels: PixelSize(width: 400, height: 200))
        #expect(box == PixelSize(width: 40, height: 20))
        let renderer = ImageRenderer()
        let viewport = renderer.viewport(for: image.size, settings: ViewFraming(), box: box, screen: backend.screen)
        let rendered = renderer.render(image, viewport: viewport, backend: backend)
        #expect(rendered.cells == CellCount(width: 40, height: 10))
        #expect(rendered.lines.count == 10)
        #expect(String(decoding: rendered.bytes, as: UTF8.self).split(separator: "\r\n").count == 10)
    }

    @Test func protocolDecision() {
        let kitty = TerminalCapabilitiesFixtures.kitty
        let sixel = TerminalCapabilitiesFixtures.sixel
        let geometry = TerminalGeometry(windowCells: CellCount(width: 80, height: 24))
        func decide(_ choice: ProtocolChoice, _ caps: TerminalCapabilities?, _ mux: Multiplexer = .none) -> DrawingPlan {
            DrawingPlan.decide(choice: choice, capabilities: caps, multiplexer: mux, geometry: geometry)
        }
        #expect(decide(.auto, kitty).method == .kitty)
        #expect(decide(.auto, sixel).method == .sixel)
        // No graphics: the symbols picture; half-blocks only when asked for.
        #expect(decide(.auto, nil).method == .symbols)
        #expect(decide(.auto, nil).hint == nil)
        #expect(decide(.blocks, kitty).method == .blocks)
        #expect(decide(.symbols, kitty).method == .symbols)
        // The Linux console's font has half-blocks only.
        let console = DrawingPlan.decide(
            choice: .auto, capabilities: nil, multiplexer: .none, geometry: geometry, linuxConsole: true)
        #expect(console.method == .blocks)
        #expect(
            DrawingPlan.decide(choice: .symbols, capabilities: nil, multiplexer: .none, geometry: geometry, linuxConsole: true)
                .method
                == .symbols)
        // tmux without passthrough: text and the hint, whatever was asked.
        #expect(decide(.auto, kitty, .tmux(passthrough: false)).method == .symbols)
        #expect(decide(.auto, kitty, .tmux(passthrough: false)).hint == Multiplexer.passthroughHint)
        #expect(decide(.sixel, nil, .tmux(passthrough: false)).method == .sixel)
        #expect(decide(.sixel, nil, .tmux(passthrough: false)).hint != nil)
        #expect(decide(.blocks, nil, .tmux(passthrough: false)).hint == nil)
        #expect(decide(.symbols, nil, .tmux(passthrough: false)).hint == nil)
        // tmux with passthrough: what the outer terminal speaks; placeholders from kitty 0.28.
        #expect(decide(.auto, sixel, .tmux(passthrough: true)).method == .sixel)
        #expect(decide(.auto, kitty, .tmux(passthrough: true)).method == .kitty)
        var newKitty = kitty
        newKitty.terminalVersion = "kitty(0.28.1)"
        #expect(decide(.auto, newKitty, .tmux(passthrough: true)).method == .kittyPlaceholders)
        #expect(decide(.kitty, newKitty, .tmux(passthrough: true)).method == .kittyPlaceholders)
        #expect(decide(.auto, newKitty).method == .kitty)
        // Synchronized output is the outer terminal's, never through tmux.
        #expect(decide(.auto, kitty).synchronizedOutput)
        #expect(!decide(.auto, kitty, .tmux(passthrough: true)).synchronizedOutput)
    }

    @Test func terminalTraitsFromXTVERSION() {
        #expect(TerminalTraits(version: "kitty(0.26.5)").terminal == TerminalIdentity(.kitty, version: [0, 26, 5]))
        #expect(!TerminalTraits(version: "kitty(0.26.5)").supportsPlaceholders)
        #expect(TerminalTraits(version: "kitty(0.28.0)").supportsPlaceholders)
        #expect(TerminalTraits(version: "kitty(1.0)").supportsPlaceholders)
        #expect(TerminalTraits(version: "Konsole 22.12.3").sixelsOutliveText)
        #expect(
            !TerminalTraits(version: "XTerm(379)").sixelsOutliveText
                && !TerminalTraits(version: "XTerm(379)").supportsPlaceholders)
        #expect(!TerminalTraits(version: nil).scaledOffsetsShrink)
        #expect(TerminalTraits(version: "kitty(0.26.5)").scaledOffsetsShrink)
        #expect(!TerminalTraits(version: "Konsole 22.12.3").scaledOffsetsShrink)
        // kitty's clipboard protocol came in 0.27.0; no version, no claim.
        #expect(!TerminalTraits(version: "kitty(0.26.5)").takesClipboardImages)
        #expect(TerminalTraits(version: "kitty(0.27.0)").takesClipboardImages)
        #expect(!TerminalTraits(version: "kitty").takesClipboardImages)
        #expect(!TerminalTraits(version: "WezTerm 20230712-072601-f4abf8fd").takesClipboardImages)
        // Sextants where the terminal draws them itself, not where a font must have them.
        #expect(TerminalTraits(version: "kitty(0.26.5)").drawsSextants)
        #expect(TerminalTraits(version: "Konsole 22.12.3").drawsSextants)
        #expect(TerminalTraits(version: "WezTerm 20230712-072601-f4abf8fd").drawsSextants)
        #expect(!TerminalTraits(version: "XTerm(379)").drawsSextants && !TerminalTraits(version: nil).drawsSextants)
    }

    /// Text pictures use the sextants where the terminal draws them, or as
    /// PXVIEW_SEXTANTS (passed in) says; half-blocks never.
    @Test func sextantsFollowTheTerminalOrTheSetting() {
        let geometry = TerminalGeometry(windowCells: CellCount(width: 80, height: 24))
        var xterm = TerminalCapabilitiesFixtures.sixel
        xterm.sixel = false
        xterm.terminalVersion = "XTerm(379)"
        var kitty = TerminalCapabilitiesFixtures.kitty
        kitty.terminalVersion = "kitty(0.26.5)"
        func repertoire(_ choice: ProtocolChoice, _ caps: TerminalCapabilities, sextants: Bool? = nil) -> String {
            let drawing = DrawingPlan.decide(
                choice: choice, capabilities: caps, multiplexer: .none, geometry: geometry, sextants: sextants)
            return "\(drawing.method.rawValue) \(TextBackend.repertoire(for: drawing))"
        }
        #expect(repertoire(.auto, xterm) == "symbols blocks")
        #expect(repertoire(.auto, xterm, sextants: true) == "symbols sextants")
        #expect(repertoire(.symbols, kitty) == "symbols sextants")
        #expect(repertoire(.symbols, kitty, sextants: false) == "symbols blocks")
        #expect(repertoire(.blocks, kitty, sextants: true) == "blocks half-blocks")
    }

    /// A text picture at the cursor is whole cells: each side rounded to
    /// the nearest cell, so no row or column is left half drawn.
    @Test func textPicturesAtTheCursorAreWholeCells() throws {
        // 640x427 in 96x36 cells of 9x19 px: 864x576 px would be 30.3 rows (242 of 8 units).
        let backend = Self.backend(.symbols, cell: PixelSize(width: 9, height: 19))
        let box = backend.screen.unitBox(cells: CellCount(width: 96, height: 36))
        let (_, viewport, rendered) = try Self.show(try Self.fixture("p01_china_640x427.jpg"), backend, box: box)
        #expect(viewport.outputSize == PixelSize(width: 768, height: 242))
        #expect(rendered.cells == CellCount(width: 96, height: 30))
        #expect(rendered.lines.count == 30)
        #expect(backend.screen.inlineSize(PixelSize(width: 3, height: 13)) == PixelSize(width: 8, height: 16))
        #expect(backend.screen.inlineSize(PixelSize(width: 20, height: 11)) == PixelSize(width: 24, height: 8))
        let sixel = Self.backend(.sixel)
        #expect(sixel.screen.inlineSize(PixelSize(width: 3, height: 13)) == PixelSize(width: 3, height: 13))
    }

    @Test func sixelBoxIsCappedByTheTerminalsMaximum() {
        let geometry = TerminalGeometry(
            capabilities: TerminalCapabilitiesFixtures.sixel,
            window: WindowSize(cells: CellCount(width: 100, height: 35), pixels: PixelSize(width: 904, height: 669)))
        let backend = DrawingPlan(method: .sixel, geometry: geometry).makeBackend()
        // 100x35 cells of 9x19 less the prompt row: 900x646, capped at 1000x1000 → unchanged;
        #expect(backend.unitBox(size: nil, cells: nil) == PixelSize(width: 900, height: 646))
        #expect(backend.unitBox(size: PixelSize(width: 1600, height: 1200), cells: nil) == PixelSize(width: 1000, height: 1000))
        let unknown = DrawingPlan(method: .sixel, geometry: TerminalGeometry(capabilities: nil, window: nil)).makeBackend()
        #expect(unknown.unitBox(size: nil, cells: nil) == PixelSize(width: 800, height: 460))
    }
}

enum TerminalCapabilitiesFixtures {
    static let kitty = TerminalCapabilities(
        kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil, cellSize: PixelSize(width: 9, height: 18),
        windowPixels: PixelSize(width: 900, height: 630), windowCells: CellCount(width: 100, height: 35), synchronizedOutput: true
    )
    static let sixel = TerminalCapabilities(
        kittyGraphics: false, sixel: true, colorRegisters: 256, sixelMaxSize: PixelSize(width: 1000, height: 1000),
        cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
        windowCells: CellCount(width: 100, height: 35), synchronizedOutput: false)
}
