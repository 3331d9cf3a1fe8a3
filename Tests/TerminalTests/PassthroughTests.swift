import ControlSequences
import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PassthroughTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func wrapsOneSequenceDoublingEveryEscape() {
        #expect(
            text(Passthrough.wrap(Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)))
                == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=A,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func framesSplitIntoTextAndGraphics() {
        let frame = Array(
            ("\u{1B}[3;4Hhello\u{1B}P0;1;0q\"1;1;1;1#0;2;0;0;0#0~\u{1B}\\\u{1B}[5;1H"
                + "\u{1B}_Ga=t,f=100,i=2,q=2,m=1;AAAA\u{1B}\\\u{1B}_Gq=2,m=0;BBBB\u{1B}\\"
                + "\u{1B}_Ga=p,i=2,p=1,C=1,q=2\u{1B}\\\u{1B}_Ga=T,U=1,i=3,c=2,r=1,q=2;CCCC\u{1B}\\tail").utf8)
        let segments = Passthrough.segments(frame)
        #expect(segments.count == 8)
        #expect(segments[0] == .text(Array("\u{1B}[3;4Hhello".utf8)))
        guard case .graphic(let sixel, placesAtCursor: true) = segments[1] else {
            Issue.record("sixel not found")
            return
        }
        #expect(text(sixel).hasPrefix("\u{1B}P0;1;0q") && text(sixel).hasSuffix("\u{1B}\\"))
        #expect(segments[2] == .text(Array("\u{1B}[5;1H".utf8)))
        // An upload and its continuation do not place; a placement does; a
        // virtual (Unicode placeholder) placement does not.
        guard case .graphic(_, let upload) = segments[3], case .graphic(_, let chunk) = segments[4],
            case .graphic(_, let place) = segments[5], case .graphic(_, let virtual) = segments[6]
        else {
            Issue.record("kitty commands not found")
            return
        }
        #expect(!upload && !chunk && place && !virtual)
        #expect(segments[7] == .text(Array("tail".utf8)))
        // Wrapped, the text stays for tmux.
        let wrapped = text(Passthrough.wrapGraphics(frame))
        #expect(wrapped.hasPrefix("\u{1B}[3;4Hhello\u{1B}Ptmux;\u{1B}\u{1B}P0;1;0q"))
        #expect(wrapped.hasSuffix("\u{1B}\u{1B}\\\u{1B}\\tail"))
    }

    @Test func anUnterminatedStringStaysText() {
        let frame = Array("a\u{1B}_Ga=p".utf8)
        #expect(Passthrough.segments(frame) == [.text(frame)])
    }

    @Test func tmuxIsAskedAboutPassthrough() {
        #expect(Multiplexer(tmux: Tmux(environment: [:], run: { _ in "on" })) == .none)
        #expect(Multiplexer(tmux: Tmux(environment: ["TMUX": ""], run: { _ in "on" })) == .none)
        let inside = ["TMUX": "/tmp/tmux-0/default,1,0"]
        #expect(Multiplexer(tmux: Tmux(environment: inside, run: { _ in "on\n" })) == .tmux(passthrough: true))
        #expect(Multiplexer(tmux: Tmux(environment: inside, run: { _ in "all\n" })) == .tmux(passthrough: true))
        #expect(Multiplexer(tmux: Tmux(environment: inside, run: { _ in "off\n" })) == .tmux(passthrough: false))
        // tmux gone or too old to know the option: no passthrough.
        #expect(Multiplexer(tmux: Tmux(environment: inside, run: { _ in nil })) == .tmux(passthrough: false))
        #expect(Multiplexer(tmux: Tmux(environment: inside, run: { _ in "" })) == .tmux(passthrough: false))
    }

    /// A sequence already wrapped for tmux (the clipboard's OSC 52, kitty's
    /// 5522) is passed on as it is: wrapping it again hid it from the
    /// terminal (`y` and `Y` inside tmux copied nothing). Its doubled ESCs
    /// do not end it early, and a picture after it is still wrapped.
    @Test func anAlreadyWrappedSequenceIsPassedOnAsItIs() {
        let copy = Passthrough.wrap(Array("\u{1B}]52;c;L2EvYi5qcGc=\u{1B}\\".utf8))
        #expect(Passthrough.wrapGraphics(copy) == copy)
        #expect(
            Passthrough.wrapGraphics(Array("ab".utf8) + copy + Array("cd".utf8)) == Array("ab".utf8) + copy + Array("cd".utf8))
        let picture = Array("\u{1B}_Ga=d,d=i,i=4294967295,q=2\u{1B}\\".utf8)
        #expect(Passthrough.wrapGraphics(copy + picture) == copy + Passthrough.wrap(picture))
    }

    /// The writer sends a fence (DA1) before each picture that draws at the
    /// cursor and waits for tmux's answer; keys typed meanwhile come back.
    @Test func picturesWaitForTheFenceInsideTmux() throws {
        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let tmux = TerminalImpersonator(master: pty.master, answer: [Array("j\u{1B}[?1;2c".utf8)])
        let writer = FrameWriter(
            fd: pty.slave, synchronizedOutput: false, multiplexer: .tmux(passthrough: true), fenceInputFD: pty.slave)
        let frame = Array("\u{1B}[2;3H\u{1B}_Ga=t,i=1,q=2;AAAA\u{1B}\\\u{1B}_Ga=p,i=1,p=1,C=1,q=2\u{1B}\\\u{1B}[9;1H".utf8)
        let typed = try writer.write(frame)
        let before = tmux.waitForQuery()
        let after = PseudoTerminal.read(pty.master, quietMs: 50)
        #expect(typed == Array("j".utf8))
        // The upload needs no fence; the placement waits for it.
        #expect(text(before) == "\u{1B}[2;3H\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,i=1,q=2;AAAA\u{1B}\u{1B}\\\u{1B}\\\u{1B}[c")
        #expect(text(after) == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,i=1,p=1,C=1,q=2\u{1B}\u{1B}\\\u{1B}\\\u{1B}[9;1H")
        #expect(writer.framed(frame) == Array(text(before).replacingOccurrences(of: "\u{1B}[c", with: "").utf8) + after)
    }

    /// A frame already wrapped (the library's `render`) gets its fences
    /// where the same frame unwrapped would: before each passthrough whose
    /// first command draws at the cursor (a sixel, a kitty placement), not
    /// before an upload or a virtual placement, and not inside another
    /// passthrough's doubled escapes.
    @Test func aWrappedFrameIsFencedBeforeEachPictureAtTheCursor() throws {
        let upload = Passthrough.wrap(Array("\u{1B}_Ga=t,i=1,q=2;AAAA\u{1B}\\".utf8))
        let place = Passthrough.wrap(Array("\u{1B}_Ga=p,i=1,p=1,C=1,q=2\u{1B}\\".utf8))
        let virtual = Passthrough.wrap(Array("\u{1B}_Ga=p,U=1,i=1,q=2\u{1B}\\".utf8))
        let sixel = Passthrough.wrap(Array("\u{1B}P0;1;0q#0~\u{1B}\\".utf8))
        let move = Array("\u{1B}[2;3H".utf8)
        let frame = move + upload + place + virtual + move + sixel
        let placeAt = move.count + upload.count
        let sixelAt = placeAt + place.count + virtual.count + move.count
        #expect(Passthrough.picturesAtCursor(in: frame) == [placeAt, sixelAt])
        #expect(Passthrough.picturesAtCursor(in: Passthrough.wrapGraphics(Array("ab\u{1B}P0;1;0q#0~\u{1B}\\".utf8))) == [2])
        #expect(Passthrough.picturesAtCursor(in: Array("no pictures".utf8) + upload).isEmpty)

        let pty = try PseudoTerminal()
        let session = try TerminalSession(inputFD: pty.slave, outputFD: pty.slave, options: .rawModeOnly)
        defer { session.restore() }
        let tmux = TerminalImpersonator(master: pty.master, answer: [Array("\u{1B}[?1;2c".utf8)])
        let writer = FrameWriter(
            fd: pty.slave, synchronizedOutput: false, multiplexer: .tmux(passthrough: true), fenceInputFD: pty.slave)
        let wrapped = move + upload + place
        _ = try writer.write(wrapped)
        let before = tmux.waitForQuery()
        let after = PseudoTerminal.read(pty.master, quietMs: 50)
        #expect(before == move + upload + TerminalCommand.primaryDeviceAttributesQuery)
        #expect(after == place)
    }

    @Test func outsideTmuxNothingIsWrapped() {
        let frame = Array("\u{1B}P0;1;0q#0~\u{1B}\\".utf8)
        #expect(FrameWriter(synchronizedOutput: false).framed(frame) == frame)
        #expect(
            FrameWriter(synchronizedOutput: true).framed(frame)
                == TerminalCommand.beginSynchronizedUpdate + frame + TerminalCommand.endSynchronizedUpdate)
    }
}
