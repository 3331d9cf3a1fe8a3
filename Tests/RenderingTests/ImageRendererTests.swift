import Decoding
import Foundation
import GraphicsReadback
import Pixels
import Rendering
import Scaling
import Testing

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

    /// PSNR over opaque pixels; alpha must agree on which pixels are drawn.
    func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var sum = 0.0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                guard p.a >= 128 else { continue }
                for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
                    let d = Double(u) - Double(v)
                    sum += d * d
                }
                count += 3
            }
        }
        guard count > 0 else { return 0 }
        let mse = sum / Double(count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test(arguments: photos)
    func sixelRoundTripIsAtLeast30dB(photo: String) throws {
        let target = DisplayTarget(graphics: .sixel, box: PixelSize(width: 200, height: 150))
        let renderer = ImageRenderer()
        let decoded = try renderer.decode(try Self.fixture(photo), settings: ViewSettings(), target: target, maxPixels: 100_000_000)
        let viewport = renderer.viewport(for: decoded.fullSize, settings: ViewSettings(), target: target)
        let rendered = renderer.render(decoded.image, viewport: viewport, target: target)
        let shown = try SixelDecoder.decode(rendered.bytes).image
        let source = expected(decoded, viewport)
        #expect(shown.size == source.size)
        #expect(rendered.pixelSize == viewport.outputSize)
        for y in 0..<shown.height {
            for x in 0..<shown.width where (shown[x, y].a == 0) != (source[x, y].a < 128) {
                Issue.record("pixel \(x),\(y): transparency differs")
                return
            }
        }
        #expect(psnr(shown, source) >= 30, "\(photo)")
    }

    @Test(arguments: photos)
    func kittyRoundTripIsLossless(photo: String) throws {
        let target = DisplayTarget(graphics: .kitty, box: PixelSize(width: 200, height: 150), cellSize: PixelSize(width: 9, height: 18))
        let renderer = ImageRenderer()
        let settings = ViewSettings(zoom: 1.5, centerX: 0.3, centerY: 0.6)
        let decoded = try renderer.decode(try Self.fixture(photo), settings: settings, target: target, maxPixels: 100_000_000)
        let viewport = renderer.viewport(for: decoded.fullSize, settings: settings, target: target)
        let rendered = renderer.render(decoded.image, viewport: viewport, target: target)
        let (shown, commands) = try KittyDecoder.image(rendered.bytes)
        let source = expected(decoded, viewport)
        #expect(shown.size == source.size)
        #expect(psnr(shown, source) >= 45, "\(photo)")
        // Drawn at its own pixel size: c/r would make kitty stretch it to whole cells.
        #expect(commands[0].keys["c"] == nil && commands[0].keys["r"] == nil)
        #expect(rendered.cells == PixelSize(width: (shown.width + 8) / 9, height: (shown.height + 17) / 18))
    }

    @Test func zoomedOutputIsExactlyTheBox() throws {
        let target = DisplayTarget(graphics: .sixel, box: PixelSize(width: 120, height: 90))
        let renderer = ImageRenderer()
        let settings = ViewSettings(zoom: 3, centerX: 1, centerY: 0)
        let decoded = try renderer.decode(try Self.fixture("p01_china_640x427.jpg"), settings: settings, target: target, maxPixels: 100_000_000)
        let viewport = renderer.viewport(for: decoded.fullSize, settings: settings, target: target)
        #expect(viewport.outputSize == PixelSize(width: 120, height: 90))
        // Centre (1, 0) clamps to the top-right corner: the view ends at the image's right edge.
        #expect(abs(viewport.sourceRect.x + viewport.sourceRect.width - 640) < 0.001)
        #expect(viewport.sourceRect.y == 0)
    }

    @Test func dctScalingIsUsedForSmallBoxesButNotForCover() throws {
        let renderer = ImageRenderer()
        let target = DisplayTarget(graphics: .sixel, box: PixelSize(width: 200, height: 150))
        let bytes = try Self.fixture("p03_storm_1920x1280.jpg")
        let contain = try renderer.decode(bytes, settings: ViewSettings(), target: target, maxPixels: 100_000_000)
        #expect(contain.image.size == PixelSize(width: 240, height: 160))
        #expect(contain.fullSize == PixelSize(width: 1920, height: 1280))
        let zoomed = try renderer.decode(bytes, settings: ViewSettings(zoom: 4), target: target, maxPixels: 100_000_000)
        #expect(zoomed.image.size == PixelSize(width: 960, height: 640))
        let cover = try renderer.decode(bytes, settings: ViewSettings(fit: .cover), target: target, maxPixels: 100_000_000)
        #expect(cover.image.size == PixelSize(width: 1920, height: 1280))
    }

    @Test func halfBlocksKeepTheCellAspect() throws {
        // 10x20 cells: a half-block is square, so a 2:1 image fills 2 columns per row.
        var image = RGBAImage(width: 200, height: 100, fill: RGBA(r: 200, g: 10, b: 10))
        image[0, 0] = RGBA(r: 0, g: 0, b: 255)
        let target = DisplayTarget(graphics: .blocks, box: PixelSize(width: 400, height: 200), cellSize: PixelSize(width: 10, height: 20))
        let renderer = ImageRenderer()
        let viewport = renderer.viewport(for: image.size, settings: ViewSettings(), target: target)
        let rendered = renderer.render(image, viewport: viewport, target: target)
        #expect(rendered.cells == PixelSize(width: 40, height: 10))
        let text = String(decoding: rendered.bytes, as: UTF8.self)
        #expect(text.split(separator: "\r\n").count == 10)
    }

    @Test func protocolDecision() {
        let kitty = TerminalCapabilitiesFixtures.kitty
        #expect(ProtocolDecision.decide(choice: .auto, capabilities: kitty, insideTmux: false).graphics == .kitty)
        #expect(ProtocolDecision.decide(choice: .auto, capabilities: TerminalCapabilitiesFixtures.sixel, insideTmux: false).graphics == .sixel)
        #expect(ProtocolDecision.decide(choice: .auto, capabilities: nil, insideTmux: false).graphics == .blocks)
        #expect(ProtocolDecision.decide(choice: .auto, capabilities: kitty, insideTmux: true) == ProtocolDecision(graphics: .blocks, tmuxPassthrough: false))
        #expect(ProtocolDecision.decide(choice: .sixel, capabilities: nil, insideTmux: true) == ProtocolDecision(graphics: .sixel, tmuxPassthrough: true))
    }

    @Test func sixelBoxIsCappedByTheTerminalsMaximum() {
        let decision = ProtocolDecision(graphics: .sixel, tmuxPassthrough: false)
        let target = DisplayTarget.resolve(
            decision: decision, capabilities: TerminalCapabilitiesFixtures.sixel, size: nil, cells: nil, cellSize: nil)
        // 100x35 cells of 9x19 less the prompt row: 900x646, capped at 1000x1000 → unchanged;
        #expect(target.box == PixelSize(width: 900, height: 646))
        let big = DisplayTarget.resolve(
            decision: decision, capabilities: TerminalCapabilitiesFixtures.sixel, size: PixelSize(width: 1600, height: 1200),
            cells: nil, cellSize: nil)
        #expect(big.box == PixelSize(width: 1000, height: 1000))
        let unknown = DisplayTarget.resolve(decision: decision, capabilities: nil, size: nil, cells: nil, cellSize: nil)
        #expect(unknown.box == PixelSize(width: 800, height: 460))
    }
}

import Terminal

enum TerminalCapabilitiesFixtures {
    static let kitty = TerminalCapabilities(
        kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil, cellSize: PixelSize(width: 9, height: 18),
        windowPixels: PixelSize(width: 900, height: 630), windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: true)
    static let sixel = TerminalCapabilities(
        kittyGraphics: false, sixel: true, colorRegisters: 256, sixelMaxSize: PixelSize(width: 1000, height: 1000),
        cellSize: PixelSize(width: 9, height: 19), windowPixels: PixelSize(width: 904, height: 669),
        windowCells: PixelSize(width: 100, height: 35), synchronizedOutput: false)
}
