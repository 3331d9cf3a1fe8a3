import Pixels
import Testing

@testable import Scaling

private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

/// Every number a viewport reports must be usable: finite, and the source
/// inside the image.
private func expectSane(_ viewport: Viewport, sourceLocation: SourceLocation = #_sourceLocation) {
    let source = viewport.sourceRect
    for value in [
        viewport.zoom, viewport.centerX, viewport.centerY, viewport.scale, viewport.fitScale, source.x, source.y, source.width,
        source.height,
    ] {
        #expect(value.isFinite, "non-finite value in \(viewport)", sourceLocation: sourceLocation)
    }
    #expect(source.x >= 0 && source.y >= 0, sourceLocation: sourceLocation)
    #expect(source.x + source.width <= Double(viewport.imageSize.width) + 1e-9, sourceLocation: sourceLocation)
    #expect(source.y + source.height <= Double(viewport.imageSize.height) + 1e-9, sourceLocation: sourceLocation)
    #expect(viewport.outputSize.width <= viewport.viewSize.width, sourceLocation: sourceLocation)
    #expect(viewport.outputSize.height <= viewport.viewSize.height, sourceLocation: sourceLocation)
}

@Suite struct ViewportFitTests {
    struct FitCase: Sendable, CustomTestStringConvertible {
        let image: PixelSize
        let view: PixelSize
        let fit: FitMode
        let fitScale: Double
        let output: PixelSize
        let source: SourceRect
        var testDescription: String { "\(image) in \(view) \(fit)" }
    }

    static let cases: [FitCase] = [
        // Landscape image, square view.
        FitCase(
            image: size(200, 100), view: size(100, 100), fit: .contain, fitScale: 0.5, output: size(100, 50),
            source: SourceRect(x: 0, y: 0, width: 200, height: 100)),
        FitCase(
            image: size(200, 100), view: size(100, 100), fit: .cover, fitScale: 1, output: size(100, 100),
            source: SourceRect(x: 50, y: 0, width: 100, height: 100)),
        FitCase(
            image: size(200, 100), view: size(100, 100), fit: .down, fitScale: 0.5, output: size(100, 50),
            source: SourceRect(x: 0, y: 0, width: 200, height: 100)),
        FitCase(
            image: size(200, 100), view: size(100, 100), fit: .actual, fitScale: 1, output: size(100, 100),
            source: SourceRect(x: 50, y: 0, width: 100, height: 100)),
        // Portrait image, landscape view.
        FitCase(
            image: size(50, 100), view: size(200, 100), fit: .contain, fitScale: 1, output: size(50, 100),
            source: SourceRect(x: 0, y: 0, width: 50, height: 100)),
        FitCase(
            image: size(50, 100), view: size(200, 100), fit: .cover, fitScale: 4, output: size(200, 100),
            source: SourceRect(x: 0, y: 37.5, width: 50, height: 25)),
        FitCase(
            image: size(50, 100), view: size(200, 100), fit: .down, fitScale: 1, output: size(50, 100),
            source: SourceRect(x: 0, y: 0, width: 50, height: 100)),
        // Square image, landscape view: contain enlarges, down does not.
        FitCase(
            image: size(40, 40), view: size(100, 50), fit: .contain, fitScale: 1.25, output: size(50, 50),
            source: SourceRect(x: 0, y: 0, width: 40, height: 40)),
        FitCase(
            image: size(40, 40), view: size(100, 50), fit: .cover, fitScale: 2.5, output: size(100, 50),
            source: SourceRect(x: 0, y: 10, width: 40, height: 20)),
        FitCase(
            image: size(40, 40), view: size(100, 50), fit: .down, fitScale: 1, output: size(40, 40),
            source: SourceRect(x: 0, y: 0, width: 40, height: 40)),
        FitCase(
            image: size(40, 40), view: size(100, 50), fit: .actual, fitScale: 1, output: size(40, 40),
            source: SourceRect(x: 0, y: 0, width: 40, height: 40)),
        // Portrait view, landscape image: rounding of 300 × 80/300 … and of the 45 px height.
        FitCase(
            image: size(300, 169), view: size(80, 120), fit: .contain, fitScale: 80.0 / 300, output: size(80, 45),
            source: SourceRect(x: 0, y: 0, width: 300, height: 169)),
    ]

    @Test(arguments: cases)
    func fitScaleOutputAndSource(_ c: FitCase) {
        let viewport = Viewport(imageSize: c.image, viewSize: c.view, fit: c.fit)
        #expect(abs(viewport.fitScale - c.fitScale) < 1e-12)
        #expect(viewport.scale == viewport.fitScale)
        #expect(viewport.outputSize == c.output)
        #expect(viewport.sourceRect == c.source)
        expectSane(viewport)
    }

    @Test func placementCentresALetterboxedOutput() {
        let viewport = Viewport(imageSize: size(200, 100), viewSize: size(101, 100))
        // 200×100 at 101/200 is 101×50.5, rounded half away from zero to 51.
        #expect(viewport.outputSize == size(101, 51))
        // 49 leftover rows: 24 above, 25 below.
        #expect(viewport.placement == PixelRect(x: 0, y: 24, width: 101, height: 51))
    }

    @Test func downNeverEnlarges() {
        for view in [size(1000, 1000), size(50, 2000), size(2000, 50), size(30, 30)] {
            let viewport = Viewport(imageSize: size(40, 40), viewSize: view, fit: .down)
            #expect(viewport.scale <= 1)
            #expect(viewport.outputSize.width <= 40 && viewport.outputSize.height <= 40)
        }
    }

    @Test func coverFillsTheViewAndCropsOneAxis() {
        let viewport = Viewport(imageSize: size(300, 100), viewSize: size(120, 80), fit: .cover)
        #expect(viewport.outputSize == size(120, 80))
        #expect(viewport.sourceRect.height == 100)
        #expect(viewport.sourceRect.width < 300)
        #expect(abs(viewport.sourceRect.x + viewport.sourceRect.width / 2 - 150) < 1e-9)
    }

    @Test func outputEqualsTheViewOnceTheZoomedImageIsLarger() {
        let base = Viewport(imageSize: size(640, 480), viewSize: size(333, 177))
        for factor in [1.5, 2, 3.7, 10] {
            let zoomed = base.zoomed(by: factor)
            #expect(zoomed.outputSize == size(333, 177), "zoom \(factor)")
            #expect(abs(zoomed.sourceRect.width * zoomed.scale - 333) < 1e-9)
            #expect(zoomed.placement == PixelRect(x: 0, y: 0, width: 333, height: 177))
        }
    }
}

@Suite struct ViewportZoomTests {
    let base = Viewport(imageSize: size(400, 300), viewSize: size(200, 100))

    @Test func zoomAboutTheCentreKeepsTheCentre() {
        let panned = base.zoomed(by: 4).panned(byViewFractionX: 0.3, y: -0.2)
        let zoomed = panned.zoomed(by: 1.5)
        #expect(abs(zoomed.centerX - panned.centerX) < 1e-12)
        #expect(abs(zoomed.centerY - panned.centerY) < 1e-12)
        #expect(abs(zoomed.zoom - panned.zoom * 1.5) < 1e-12)
    }

    @Test(arguments: [(10.0, 5.0), (0.0, 0.0), (199.0, 99.0), (150.0, 20.0), (60.0, 80.0)])
    func zoomAboutAnAnchorKeepsTheImagePointUnderIt(anchorX: Double, anchorY: Double) {
        // Starting letterboxed (133×100 in 200×100) and from an already zoomed, panned view.
        let starts = [base, base.zoomed(by: 3).panned(byViewFractionX: -0.25, y: 0.4)]
        for start in starts {
            for factor in [1.25, 2, 3, 0.8] {
                let anchorInView = (x: anchorX, y: anchorY)
                let before = start.imagePoint(atViewPoint: start.outputPoint(fromViewPoint: anchorInView))
                let zoomed = start.zoomed(by: factor, anchor: start.outputPoint(fromViewPoint: anchorInView))
                let after = zoomed.imagePoint(atViewPoint: zoomed.outputPoint(fromViewPoint: anchorInView))
                let source = zoomed.sourceRect
                // Only where clamping did not have to move the view may the point be checked.
                let clampedX = source.x <= 1e-9 || source.x + source.width >= 400 - 1e-9
                let clampedY = source.y <= 1e-9 || source.y + source.height >= 300 - 1e-9
                if !clampedX { #expect(abs(after.x - before.x) * zoomed.scale <= 0.5, "x \(start) × \(factor)") }
                if !clampedY { #expect(abs(after.y - before.y) * zoomed.scale <= 0.5, "y \(start) × \(factor)") }
                expectSane(zoomed)
            }
        }
    }

    @Test func anchoredZoomTowardsTheTopLeftQuadrantMovesTheCentreThere() {
        let anchor = (x: 30.0, y: 25.0)
        let before = base.imagePoint(atViewPoint: anchor)
        let zoomed = base.zoomed(by: 4, anchor: anchor)
        // The output now fills the view, so the anchor moved by the old placement.
        let after = zoomed.imagePoint(atViewPoint: (Double(base.placement.x) + anchor.x, anchor.y))
        #expect(abs(after.x - before.x) * zoomed.scale <= 0.5)
        #expect(abs(after.y - before.y) * zoomed.scale <= 0.5)
        #expect(zoomed.centerX < 0.5 && zoomed.centerY < 0.5)
    }

    @Test func zoomingToATargetLandsExactlyOnIt() {
        #expect(base.zoomed(by: 5.5).zoomed(to: 1) == base)
        #expect(base.zoomed(by: 0.3).zoomed(to: 2.5).zoom == 2.5)
    }

    @Test func zoomStaysWithinItsBounds() {
        let inMost = base.zoomed(by: 1e6)
        #expect(inMost.zoom == inMost.maxZoom)
        #expect(abs(inMost.scale - 16) < 1e-12)
        let outMost = base.zoomed(by: 1e-6)
        #expect(outMost.zoom == Viewport.minZoom)
        #expect(abs(outMost.scale - base.fitScale / 4) < 1e-12)
        // A tiny image already past 16× at fit may still sit at zoom 1.
        let tiny = Viewport(imageSize: size(2, 2), viewSize: size(100, 100))
        #expect(tiny.maxZoom == 1)
        #expect(tiny.zoomed(by: 8).zoom == 1)
    }

    @Test func toggleGoesOneTwoOneAndBack() {
        let cover = Viewport(imageSize: size(400, 300), viewSize: size(200, 100), fit: .cover)
        let anchor = (x: 120.0, y: 40.0)
        let two = cover.toggledOneTwo(anchor: anchor)
        #expect(abs(two.zoom - 2) < 1e-12)
        let one = two.toggledOneTwo(anchor: anchor)
        #expect(abs(one.zoom - 1) < 1e-12)
        #expect(abs(one.centerX - cover.centerX) < 1e-9)
        #expect(abs(one.centerY - cover.centerY) < 1e-9)

        let contain = Viewport(imageSize: size(400, 300), viewSize: size(200, 100))
        let zoomedIn = contain.zoomed(by: 5.5, anchor: (10, 10))
        let back = zoomedIn.toggledOneTwo(anchor: (180, 90))
        #expect(back == contain)
    }

    @Test func resetReturnsToTheFittedCentredView() {
        let moved = base.zoomed(by: 3, anchor: (5, 5)).panned(byViewPixelsX: 40, y: -13)
        #expect(moved != base)
        #expect(moved.reset() == base)
        #expect(moved.reset().zoom == 1)
        #expect(moved.reset().centerX == 0.5 && moved.reset().centerY == 0.5)
    }
}

@Suite struct ViewportPanTests {
    let zoomed = Viewport(imageSize: size(400, 300), viewSize: size(200, 100)).zoomed(by: 3)

    @Test func panByAViewFractionMovesThatShareOfTheVisibleRegion() {
        let panned = zoomed.panned(byViewFractionX: 0.2, y: -0.1)
        #expect(abs((panned.sourceRect.x - zoomed.sourceRect.x) - 0.2 * zoomed.sourceRect.width) < 1e-9)
        #expect(abs((panned.sourceRect.y - zoomed.sourceRect.y) + 0.1 * zoomed.sourceRect.height) < 1e-9)
    }

    @Test func panByViewPixelsMovesThatManyScreenPixels() {
        let panned = zoomed.panned(byViewPixelsX: -30, y: 12)
        #expect(abs((panned.sourceRect.x - zoomed.sourceRect.x) * zoomed.scale + 30) < 1e-9)
        #expect(abs((panned.sourceRect.y - zoomed.sourceRect.y) * zoomed.scale - 12) < 1e-9)
    }

    @Test func panningStopsAtEveryEdge() {
        let left = zoomed.panned(byViewFractionX: -100, y: 0)
        #expect(left.sourceRect.x == 0)
        let right = zoomed.panned(byViewFractionX: 100, y: 0)
        #expect(abs(right.sourceRect.x + right.sourceRect.width - 400) < 1e-9)
        let top = zoomed.panned(byViewFractionX: 0, y: -100)
        #expect(top.sourceRect.y == 0)
        let bottom = zoomed.panned(byViewFractionX: 0, y: 100)
        #expect(abs(bottom.sourceRect.y + bottom.sourceRect.height - 300) < 1e-9)
        // Pushing further against a clamped edge changes nothing.
        #expect(left.panned(byViewPixelsX: -5, y: 0) == left)
    }

    @Test func edgesJumpToTheSides() {
        #expect(zoomed.edge(.left).sourceRect.x == 0)
        #expect(abs(zoomed.edge(.right).sourceRect.x + zoomed.sourceRect.width - 400) < 1e-9)
        #expect(zoomed.edge(.top).sourceRect.y == 0)
        #expect(abs(zoomed.edge(.bottom).sourceRect.y + zoomed.sourceRect.height - 300) < 1e-9)
        // The other axis is untouched.
        #expect(zoomed.edge(.left).centerY == zoomed.centerY)
        #expect(zoomed.edge(.bottom).centerX == zoomed.centerX)
    }

    @Test func anAxisThatFitsStaysCentred() {
        // 400×300 in 200×100 at zoom 1: both axes fit; nothing can move.
        let fitted = Viewport(imageSize: size(400, 300), viewSize: size(200, 100))
        let panned = fitted.panned(byViewFractionX: 0.5, y: 0.5)
        #expect(panned == fitted)
        #expect(Viewport(imageSize: size(400, 300), viewSize: size(200, 100), centerX: 0, centerY: 1) == fitted)
    }

    @Test func resizingKeepsZoomAndCentre() {
        let panned = zoomed.panned(byViewFractionX: 0.1, y: 0.1)
        let resized = panned.resized(to: size(240, 120))
        #expect(resized.zoom == panned.zoom)
        #expect(abs(resized.centerX - panned.centerX) < 1e-12)
        #expect(abs(resized.centerY - panned.centerY) < 1e-12)
        #expect(resized.outputSize == size(240, 120))
    }
}

@Suite struct ViewportDegenerateTests {
    @Test(arguments: [
        (size(1, 1), size(80, 24)), (size(1, 10_000), size(80, 24)), (size(10_000, 1), size(80, 24)),
        (size(640, 480), size(0, 0)), (size(640, 480), size(0, 24)), (size(0, 0), size(80, 24)),
        (size(0, 0), size(0, 0)), (size(1, 1), size(1, 1)),
    ])
    func degenerateSizesStayFinite(image: PixelSize, view: PixelSize) {
        for fit in FitMode.allCases {
            var viewport = Viewport(imageSize: image, viewSize: view, fit: fit)
            expectSane(viewport)
            if !image.isEmpty && !view.isEmpty {
                #expect(!viewport.outputSize.isEmpty, "\(image) in \(view) \(fit)")
            } else {
                #expect(viewport.outputSize.isEmpty)
            }
            viewport = viewport.zoomed(by: 7, anchor: (3, 2)).panned(byViewFractionX: 0.3, y: 0.7)
            expectSane(viewport)
            viewport = viewport.toggledOneTwo().edge(.right).resized(to: size(5, 3)).zoomed(by: 0.01)
            expectSane(viewport)
            let point = viewport.imagePoint(atViewPoint: (1, 1))
            #expect(point.x.isFinite && point.y.isFinite)
        }
    }

    @Test func nonFiniteInputsFallBackToDefaults() {
        let viewport = Viewport(imageSize: size(100, 50), viewSize: size(40, 40), zoom: .nan, centerX: .infinity, centerY: .nan)
        #expect(viewport.zoom == 1)
        expectSane(viewport)
        #expect(viewport.zoomed(by: .nan) == viewport)
        #expect(viewport.zoomed(by: -2) == viewport)
        #expect(viewport.panned(byViewPixelsX: .infinity, y: 0) == viewport)
        // Directly set stored values are clamped when read.
        var raw = viewport
        raw.zoom = 1e300
        raw.centerX = -5
        #expect(raw.effectiveZoom == raw.maxZoom)
        expectSane(raw)
    }
}

@Suite struct ViewportSourceMappingTests {
    @Test func sourceRectMapsOntoASmallerDecode() {
        // Fit scale 1/4, zoom 2: the 100x100 view shows 200x200 source pixels,
        // centred at x = 100 (0.25 of 400), i.e. starting at the left edge.
        let viewport = Viewport(
            imageSize: PixelSize(width: 400, height: 200), viewSize: PixelSize(width: 100, height: 100), zoom: 2,
            centerX: 0.25, centerY: 0.5)
        let full = viewport.sourceRect
        let half = viewport.sourceRect(inImageOf: PixelSize(width: 200, height: 100))
        #expect(half == SourceRect(x: full.x / 2, y: full.y / 2, width: full.width / 2, height: full.height / 2))
        #expect(full == SourceRect(x: 0, y: 0, width: 200, height: 200))
    }
}
