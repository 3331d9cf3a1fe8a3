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

/// Housekeeping that need not delay what the user asked for: run beside
/// it, and waited for (briefly) before pxview exits.
enum Chores {
    static let group = DispatchGroup()
    /// How long the end of a run waits for chores still going.
    static let finishSeconds = 0.5

    static func run(_ chore: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .utility).async(group: group, execute: chore)
    }

    static func finish() {
        _ = group.wait(timeout: .now() + finishSeconds)
    }
}

/// What the terminal can show, found once per run, and how to draw on it.
struct InlineDrawing {
    var drawing: DrawingPlan
    var backend: any GraphicsBackend
    /// The box to fit into, in the backend's units.
    var box: PixelSize
    /// False when stdout is not a terminal and no protocol was asked for:
    /// then `show` describes instead of drawing.
    var drawsGraphics: Bool

    static func prepare(view: ViewOptions) -> InlineDrawing {
        let drawsGraphics = Output.isTerminal(1) || view.protocolGiven
        var drawing = probe(view: view)
        // A description speaks in pixels, so it reasons as a pixel protocol would.
        if !drawsGraphics { drawing = drawing.inPixels() }
        let backend = drawing.makeBackend()
        let box = backend.unitBox(size: view.size, cells: view.cells)
        // From here on, Ctrl-C during a drawing closes the open sequence first.
        if drawsGraphics { OutputGuard.install() }
        return InlineDrawing(drawing: drawing, backend: backend, box: box, drawsGraphics: drawsGraphics)
    }

    /// The one place the terminal is asked what it can do and the protocol
    /// is chosen (`show`, `open`, the search strip and the explorer):
    /// `--protocol`, else `PXVIEW_PROTOCOL`, else the probe (through tmux
    /// passthrough inside tmux). `PXVIEW_DEBUG` prints what was found; the
    /// tmux hint goes to stderr once.
    static func probe(view: ViewOptions, environment: [String: String] = ProcessInfo.processInfo.environment) -> DrawingPlan {
        report(view: view, environment: environment).drawing
    }

    /// The probe's whole report and the drawing plan decided from it (`pxview
    /// doctor` shows both).
    /// `debugLines`: `PXVIEW_DEBUG`'s lines and the tmux hint go to stderr
    /// (not for `doctor`, which says it all on stdout).
    /// `ttyFD`: the terminal asked and measured (standard output, or for
    /// `doctor` writing to a file, `/dev/tty`).
    /// `alreadyRaw`: a running explorer asks (it holds the terminal raw).
    static func report(
        view: ViewOptions, environment: [String: String], debugLines: Bool = true, ttyFD: Int32 = 1,
        alreadyRaw: Bool = false
    ) -> (report: ProbeReport, drawing: DrawingPlan) {
        // The chores (answers remembered for previews, kitty's leftovers
        // swept) go beside the start-up work.
        let (report, drawing) = TerminalDisplay.ask(
            view.choices, environment: environment, ttyFD: ttyFD, alreadyRaw: alreadyRaw, chores: Chores.run)
        guard debugLines else { return (report, drawing) }
        if !(environment["PXVIEW_DEBUG"] ?? "").isEmpty {
            let capabilities = report.capabilities
            Output.err("pxview: terminal \(capabilities.map { String(describing: $0) } ?? "none")\n")
            if let outcome = report.outcome {
                let answer = outcome.timedOut ? "no answer within \(report.timeoutMs) ms" : "answered in \(outcome.elapsedMs) ms"
                Output.err("pxview: probe \(answer)\n")
            }
            if let skipped = report.skipped { Output.err("pxview: probe not sent: \(skipped.rawValue)\n") }
            for ignored in capabilities?.ignoredReplies ?? [] {
                Output.err("pxview: ignored an out-of-bounds reply: \(ignored)\n")
            }
            Output.err("pxview: \(drawing.summary)\n")
        }
        if let hint = drawing.hint, report.capabilities != nil { Output.err(hint + "\n") }
        return (report, drawing)
    }

    /// A picture alone at the cursor.
    func drawInline(_ pixels: RGBAImage, imageID: UInt32) {
        draw(backend.inline(pixels, imageID: imageID).joined())
    }

    /// True when `drawInline(rows)` draws rows as they are made: kitty
    /// through the pty outside a multiplexer.
    var drawsRowsAsMade: Bool { backend.drawsRowsAsMade }

    /// A picture alone at the cursor, handed to the terminal in parts as it
    /// is made (`drawsRowsAsMade`), the drawing open from the first to the last.
    func drawInline(_ rows: PixelRows, imageID: UInt32) {
        OutputGuard.writeDrawing(fd: 1) { write in _ = backend.drawInline(rows, imageID: imageID, write: write) }
    }

    /// Once the command's pictures are all drawn: the backend's
    /// `inlineFollowUp`, on a terminal (a file gets no nudges).
    func finish() {
        guard let (delayMs, bytes) = backend.inlineFollowUp, drawsGraphics, Output.isTerminal(1) else { return }
        usleep(useconds_t(delayMs * 1000))
        draw(bytes)
    }

    /// Writes a drawing to stdout: graphics wrapped for the multiplexer, and
    /// inside tmux a fence before each picture (`FrameWriter.writeAtCursor`).
    func draw(_ bytes: [UInt8]) {
        let writer = FrameWriter(fd: 1, synchronizedOutput: false, multiplexer: drawing.multiplexer, sink: .guarded)
        try? writer.writeAtCursor(bytes)
    }
}
