import Foundation
import GraphicsReadback
import Pixels
import Terminal
import Testing

@testable import TerminalPictures

/// The library as another program uses it: load, draw, place, take away;
/// and its API kept small and documented.
@Suite struct TerminalPicturesTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/images/p01_china_640x427.jpg").standardized.path

    @Test func aPictureIsDecodedWithItsSizeAndFormat() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        #expect(picture.width == 640 && picture.height == 427 && picture.format == "JPEG")
        #expect(picture.rgba.count == 640 * 427 * 4)
        let small = picture.resized(width: 64, height: 43)
        #expect(small.width == 64 && small.rgba.count == 64 * 43 * 4)
    }

    /// The header alone, no pixels: a sideways-stored JPEG as shown, an
    /// animation's frames, and a bomb's size read without a byte of pixels.
    @Test func aHeaderIsReadWithoutDecoding() throws {
        let images = URL(fileURLWithPath: Self.photo).deletingLastPathComponent()
        let bytes = try Array(Data(contentsOf: images.appendingPathComponent("v18_china_orient6_80x120.jpg")))
        #expect(try Picture.header(of: bytes) == PictureHeader(format: "JPEG", width: 120, height: 80, frames: 1))
        let gif = try Array(Data(contentsOf: images.deletingLastPathComponent().appendingPathComponent("formats/anim.gif")))
        #expect(try Picture.header(of: gif).frames > 1)
        let bomb = try Array(
            Data(contentsOf: images.deletingLastPathComponent().appendingPathComponent("bad/bomb_100000x100000.png")))
        #expect(try Picture.header(of: bomb).width == 100_000)
        #expect(throws: PictureError.self) { try Picture.header(of: Array("not a photo".utf8)) }
        #expect(TerminalDisplay(protocol: .sixel).background == nil && TerminalDisplay(protocol: .sixel).largestPicture == nil)
    }

    /// EXIF orientation is applied: a landscape photo stored sideways
    /// (80x120 pixels, orientation 6) comes out as it was taken, 120x80.
    @Test func orientationIsApplied() throws {
        let images = URL(fileURLWithPath: Self.photo).deletingLastPathComponent()
        let turned = try Picture(contentsOfFile: images.appendingPathComponent("v18_china_orient6_80x120.jpg").path)
        #expect(turned.width == 120 && turned.height == 80)
        let plain = try Picture(contentsOfFile: images.appendingPathComponent("v13_china_orient1_120x80.jpg").path)
        #expect(plain.width == 120 && plain.height == 80)
    }

    /// The colour step runs: an Adobe RGB JPEG of a photo comes out as the
    /// sRGB original (within JPEG's loss), not as its numbers read as sRGB.
    @Test func coloursAreConvertedToSRGB() throws {
        let colour = URL(fileURLWithPath: Self.photo).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("colour")
        let adobe = try Picture(contentsOfFile: colour.appendingPathComponent("adobe.jpg").path)
        let original = try Picture(contentsOfFile: colour.appendingPathComponent("srgb-original.png").path)
        #expect(adobe.width == original.width && adobe.height == original.height)
        let difference = zip(adobe.rgba, original.rgba).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(
            Double(difference) / Double(adobe.rgba.count) < 3, "mean difference \(Double(difference) / Double(adobe.rgba.count))")
    }

    /// A missing file, a FIFO and bytes that are no picture: each a typed
    /// error saying which and why; a picture over the limit is refused.
    @Test func whatIsNoPictureSaysWhy() throws {
        #expect(throws: PictureError.unreadable(path: "/no/such.jpg", reason: "No such file or directory")) {
            try Picture(contentsOfFile: "/no/such.jpg")
        }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("termpic-fifo-\(getpid())").path
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        #expect(throws: PictureError.unreadable(path: fifo, reason: "not a regular file")) {
            try Picture(contentsOfFile: fifo)
        }
        #expect(throws: PictureError.self) { try Picture(bytes: Array("not a photo".utf8)) }
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Self.photo)))
        #expect(throws: PictureError.self) { try Picture(bytes: bytes, maxPixels: 1000) }
    }

    /// For output that is no terminal: each protocol's own bytes, fitted to
    /// the box asked for (40x10 cells of 10x20 px: 300x200 px for a 3:2 photo).
    @Test func eachProtocolDrawsItsOwnBytes() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        let kitty = TerminalDisplay(protocol: .kitty).render(picture, columns: 40, rows: 10, imageID: 7)
        let text = String(decoding: kitty, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}_Ga=T,f=100,i=7,"))
        let sixel = String(decoding: TerminalDisplay(protocol: .sixel).render(picture, columns: 40, rows: 10), as: UTF8.self)
        #expect(sixel.contains("\u{1B}P0;1;0q\"1;1;300;200"))
        let symbols = String(decoding: TerminalDisplay(protocol: .symbols).render(picture, columns: 40, rows: 10), as: UTF8.self)
        #expect(symbols.contains("\u{1B}[38;2;") && !symbols.contains("\u{1B}P") && !symbols.contains("\u{1B}_G"))
        #expect(TerminalDisplay(protocol: .blocks).pictureProtocol == .blocks)
        #expect(TerminalDisplay(protocol: .sixel).followUp == nil)
    }

    /// What is drawn is the photo: read back from the kitty and sixel
    /// bytes, it matches the photo resampled to the same size.
    @Test func theBytesAreThePhoto() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        let reference = picture.resized(width: 300, height: 200).image
        let drawn = TerminalDisplay(protocol: .kitty).render(picture, columns: 40, rows: 10)
        // The picture's commands, without the cursor's move after them.
        let last = try #require(drawn.indices.last { drawn[$0] == UInt8(ascii: "\\") && drawn[$0 - 1] == 0x1B })
        let kitty = try KittyDecoder.image(Array(drawn[...last])).image
        #expect(kitty.size == reference.size)
        #expect(PSNR.decibels(reference, kitty) > 40)
        let bytes = TerminalDisplay(protocol: .sixel).render(picture, columns: 40, rows: 10)
        let start = try #require(bytes.firstIndex(of: 0x1B))
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: "\\")))
        let sixel = try SixelDecoder.decode(Array(bytes[start...end])).image
        #expect(sixel.width == 300 && sixel.height >= 200)
        #expect(PSNR.decibels(reference, sixel.cropped(to: PixelRect(x: 0, y: 0, width: 300, height: 200))) > 25)
    }

    /// Placed in a box, the cursor is saved and put back; taken away, a
    /// kitty picture is deleted by its id and a sixel's cells blanked.
    @Test func aPlacedPictureIsTakenAwayAgain() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        let kitty = TerminalDisplay(protocol: .kitty)
        let first = try #require(kitty.place(picture, column: 40, row: 2, columns: 30, rows: 10))
        let id = try #require(first.imageID)
        let placed = String(decoding: first.bytes, as: UTF8.self)
        #expect(placed.hasPrefix("\u{1B}7") && placed.hasSuffix("\u{1B}8") && placed.contains("i=\(id),"))
        #expect(String(decoding: kitty.remove(first), as: UTF8.self) == "\u{1B}7\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\\u{1B}8")
        // kitty 0.48.2 needs a nudge to show it.
        #expect(first.followUp?.delayMs == 50 && first.followUp?.bytes.isEmpty == false)
        let sixel = TerminalDisplay(protocol: .sixel)
        let drawn = try #require(sixel.place(picture, column: 40, row: 2, columns: 30, rows: 10))
        #expect(drawn.imageID == nil && drawn.followUp == nil && drawn.pictureProtocol == .sixel)
        #expect(String(decoding: sixel.remove(drawn), as: UTF8.self).contains("\u{1B}[3;41H"))
        #expect(sixel.place(picture, column: 80, row: 0, columns: 10, rows: 5) == nil, "outside the window")
        #expect(sixel.place(picture, column: -30, row: 0, columns: 10, rows: 5) == nil, "left of the window")
        let cut = try #require(sixel.place(picture, column: -5, row: -2, columns: 10, rows: 6))
        #expect((cut.column, cut.row, cut.columns, cut.rows) == (0, 0, 5, 4))
    }

    /// The next picture in the same box goes under another kitty id (kitty
    /// 0.48.2 showed one under an id just deleted black) and deletes the
    /// one before once it is up; a sixel picture elsewhere takes the one
    /// before's cells with it.
    @Test func aPictureReplacesTheOneBefore() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        let kitty = TerminalDisplay(protocol: .kitty)
        let first = try #require(kitty.place(picture, column: 40, row: 2, columns: 30, rows: 10))
        let second = try #require(kitty.place(picture, column: 40, row: 2, columns: 30, rows: 10, replacing: first))
        let firstID = try #require(first.imageID)
        #expect(second.imageID != nil && second.imageID != firstID)
        let text = String(decoding: second.bytes, as: UTF8.self)
        let secondID = try #require(second.imageID)
        let placedAt = try #require(text.range(of: "i=\(secondID),"))
        let deletedAt = try #require(text.range(of: "a=d,d=I,i=\(firstID),"))
        #expect(placedAt.lowerBound < deletedAt.lowerBound)
        let sixel = TerminalDisplay(protocol: .sixel)
        let left = try #require(sixel.place(picture, column: 0, row: 0, columns: 20, rows: 8))
        let right = try #require(sixel.place(picture, column: 40, row: 0, columns: 20, rows: 8, replacing: left))
        #expect(String(decoding: right.bytes, as: UTF8.self).hasPrefix(String(decoding: sixel.remove(left), as: UTF8.self)))
        // Placeholders are text too (in tmux's grid): another box blanks
        // the one before's cells, and its image goes by id after.
        var plan = TerminalDisplay(protocol: .kitty).drawing
        plan.method = .kittyPlaceholders
        plan.multiplexer = .tmux(passthrough: true)
        let placeholders = TerminalDisplay(drawing: plan)
        let here = try #require(placeholders.place(picture, column: 0, row: 0, columns: 20, rows: 8))
        let there = try #require(placeholders.place(picture, column: 40, row: 0, columns: 20, rows: 8, replacing: here))
        let moved = String(decoding: there.bytes, as: UTF8.self)
        #expect(moved.hasPrefix("\u{1B}7\u{1B}[1;1H\u{1B}[0m\u{1B}[20X"))
        #expect(moved.contains("d=I,i=\(try #require(here.imageID))"))
    }

    /// A sixel box on the window's last row alone would scroll the screen:
    /// it is drawn as text there, and a box reaching that row is a row shorter.
    @Test func aSixelOnTheLastRowIsTextOrShorter() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        let sixel = TerminalDisplay(protocol: .sixel)
        let last = try #require(sixel.place(picture, column: 0, row: 23, columns: 10, rows: 1))
        #expect(last.pictureProtocol == .symbols && last.rows == 1)
        #expect(!last.bytes.contains(0x90) && !String(decoding: last.bytes, as: UTF8.self).contains("\u{1B}P"))
        let reaching = try #require(sixel.place(picture, column: 0, row: 20, columns: 10, rows: 10))
        #expect(reaching.pictureProtocol == .sixel && reaching.rows == 3)
    }

    /// Inside tmux every picture is wrapped for its passthrough, placed in
    /// the program's pane where tmux said where it is; text is left to tmux.
    @Test func insideTmuxPicturesPassThrough() throws {
        let picture = try Picture(contentsOfFile: Self.photo)
        var plan = TerminalDisplay(protocol: .sixel).drawing
        plan.multiplexer = .tmux(passthrough: true)
        let display = TerminalDisplay(drawing: plan)
        let drawn = String(decoding: display.render(picture, columns: 20, rows: 5), as: UTF8.self)
        #expect(drawn.contains("\u{1B}Ptmux;\u{1B}\u{1B}P0;1;0q"))
        #expect(!drawn.replacingOccurrences(of: "\u{1B}\u{1B}P", with: "").contains("\u{1B}P0;1;0q"), "a sixel unwrapped")
        let inPane = TerminalDisplay(drawing: plan, paneOrigin: CellOffset(column: 40, row: 1))
        let placed = try #require(inPane.place(picture, column: 2, row: 3, columns: 20, rows: 5))
        // The picture's first cell in the pane (15 of the box's 20 columns,
        // centred: row 4, column 5) plus the pane's place, inside the passthrough.
        #expect(
            String(decoding: placed.bytes, as: UTF8.self).contains(
                "\u{1B}Ptmux;\u{1B}\u{1B}[?25l\u{1B}\u{1B}[r\u{1B}\u{1B}[5;45H\u{1B}\u{1B}P0;1;0q"))
        // At the cursor there is no cell to place it at: wrapped as it is,
        // so `write` fences it (placed, it would skip the fence).
        let atCursor = inPane.render(picture, columns: 20, rows: 5)
        #expect(atCursor == drawn.utf8.map { $0 })
        #expect(Passthrough.picturesAtCursor(in: atCursor).count == 1)
        #expect(Passthrough.picturesAtCursor(in: placed.bytes).isEmpty, "placed: nothing to fence")
        let symbols = TerminalDisplay(protocol: .symbols)
        var textPlan = symbols.drawing
        textPlan.multiplexer = .tmux(passthrough: true)
        #expect(
            TerminalDisplay(drawing: textPlan).render(picture, columns: 20, rows: 5)
                == symbols.render(picture, columns: 20, rows: 5))
    }

    /// The library's public API: at most 120 declarations, each with a
    /// `///` comment; everything else in the package is `package`.
    @Test func thePublicAPIIsSmallAndDocumented() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
            .standardized
        var declarations = 0
        var undocumented: [String] = []
        var elsewhere: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("pxfuzz/") {
            let lines = try String(contentsOfFile: sources.path + "/" + file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                let code = line.drop { $0 == " " }
                guard code.hasPrefix("public ") || code.hasPrefix("@") && code.contains(" public ") else { continue }
                guard file.hasPrefix("TerminalPictures/") else {
                    elsewhere.append("\(file):\(index + 1)")
                    continue
                }
                declarations += 1
                var above = index - 1
                while above >= 0, lines[above].drop(while: { $0 == " " }).hasPrefix("@") { above -= 1 }
                if above < 0 || !lines[above].drop(while: { $0 == " " }).hasPrefix("///") {
                    undocumented.append("\(file):\(index + 1)")
                }
            }
        }
        #expect(declarations > 0 && declarations <= 120, "\(declarations) public declarations")
        #expect(undocumented.isEmpty, "no /// comment: \(undocumented)")
        #expect(elsewhere.isEmpty, "public outside the library: \(elsewhere)")
    }
}
