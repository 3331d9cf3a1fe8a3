import Encoding
import Foundation
import Pixels
import Plumbing
import Scaling
import Testing

@testable import Rendering
@testable import Terminal

/// kitty reading pixels from this machine: the objects, the commands that
/// name them, the choice per display, and the clean-up.
@Suite struct KittyTransferTests {
    static func contents(ofSharedMemory name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: "/dev/shm" + name).map { [UInt8]($0) }
    }

    @Test func sharedMemoryAndFilesHoldTheBytesUntilRemoved() throws {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6]
        let name = try #require(KittyTransfer.sharedMemory(bytes))
        #expect(name.hasPrefix("/pxview-\(getpid())-"))
        #expect(Self.contents(ofSharedMemory: name) == bytes)
        KittyTransfer.remove(name, medium: .sharedMemory)
        #expect(Self.contents(ofSharedMemory: name) == nil)

        let path = try #require(KittyTransfer.temporaryFile(bytes))
        #expect(path.hasPrefix("/tmp/tty-graphics-protocol-pxview-\(getpid())-"))
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == bytes)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        KittyTransfer.remove(path, medium: .file)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func commandsNameTheObjectAndTheRawFormat() {
        let encoder = KittyEncoder()
        let opaque = RGBAImage(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 255])
        let raw = KittyEncoder.rawPixels(opaque)
        #expect(raw.bytes == [10, 20, 30, 40, 50, 60] && raw.format == 24)
        let reference = KittyReference(medium: .sharedMemory, name: "/pxview-1-2")
        // "/pxview-1-2" in base64.
        #expect(
            encoder.transmit(raw, from: reference, imageID: 7)
                == Array("\u{1B}_Ga=t,f=24,s=2,v=1,t=s,S=6,i=7,q=2;L3B4dmlldy0xLTI=\u{1B}\\".utf8))
        let file = KittyReference(medium: .file, name: "/tmp/x")
        #expect(
            encoder.transmitAndPlace(raw, from: file, imageID: 3, placementID: 1, columns: 0, rows: 0)
                == Array("\u{1B}_Ga=T,f=24,s=2,v=1,t=t,S=6,i=3,p=1,C=1,q=2;L3RtcC94\u{1B}\\".utf8))
        #expect(
            encoder.query(id: 32, reading: reference)
                == Array("\u{1B}_Gi=32,s=1,v=1,a=q,t=s,f=24;L3B4dmlldy0xLTI=\u{1B}\\".utf8))
        let clear = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 0])
        #expect(KittyEncoder.rawPixels(clear).format == 32)
    }

    @Test func onlyALocalKittyReadsOurPixels() {
        var capabilities = TerminalCapabilities(
            kittyGraphics: true, sixel: false, colorRegisters: nil, sixelMaxSize: nil, cellSize: PixelSize(width: 10, height: 20),
            windowPixels: nil, windowCells: CellCount(width: 80, height: 24), synchronizedOutput: false)
        capabilities.kittyMedium = .sharedMemory
        let geometry = TerminalGeometry(
            windowCells: CellCount(width: 80, height: 24), cellPixels: PixelSize(width: 10, height: 20))
        let local = DrawingPlan.decide(choice: .auto, capabilities: capabilities, multiplexer: .none, geometry: geometry)
        #expect(local.method == .kitty && local.kittyMedium == .sharedMemory)
        let tmux = DrawingPlan.decide(
            choice: .auto, capabilities: capabilities, multiplexer: .tmux(passthrough: true), geometry: geometry)
        #expect(tmux.kittyMedium == .direct)
        let sixel = DrawingPlan.decide(choice: .sixel, capabilities: capabilities, multiplexer: .none, geometry: geometry)
        #expect(sixel.kittyMedium == .direct)
        #expect(KittyMediumProbe(multiplexer: .tmux(passthrough: true)).queries.isEmpty)
        #expect(KittyMediumProbe(multiplexer: .none, asking: false).queries.isEmpty)
    }

    /// The probe's two test objects exist while it asks and are gone after.
    @Test func theProbeCleansUp() throws {
        let probe = KittyMediumProbe(multiplexer: .none)
        let text = String(decoding: probe.queries, as: UTF8.self)
        #expect(text.contains("\u{1B}_Gi=32,s=1,v=1,a=q,t=s,f=24;") && text.contains("\u{1B}_Gi=33,s=1,v=1,a=q,t=t,f=24;"))
        let names = text.split(separator: "\u{1B}").compactMap { part -> String? in
            guard let semicolon = part.firstIndex(of: ";") else { return nil }
            let payload = part[part.index(after: semicolon)...]
            return Data(base64Encoded: String(payload))
                .map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(names.count == 2)
        #expect(Self.contents(ofSharedMemory: names[0]) == [0, 0, 0])
        #expect(FileManager.default.fileExists(atPath: names[1]))
        probe.cleanUp()
        #expect(Self.contents(ofSharedMemory: names[0]) == nil)
        #expect(!FileManager.default.fileExists(atPath: names[1]))
    }

    /// A viewer picture goes by shared memory: the command names an object
    /// holding exactly the raw pixels; teardown removes any kitty left.
    @Test func theBackendHandsOverRawPixelsAndRemovesLeftovers() throws {
        var drawing = DrawingPlan(
            method: .kitty,
            geometry: TerminalGeometry(windowCells: CellCount(width: 40, height: 12), cellPixels: PixelSize(width: 8, height: 16))
        )
        drawing.kittyMedium = .sharedMemory
        let backend = drawing.makeBackend(resampler: Resampler(threads: 1))
        let image = RGBAImage(
            width: 16, height: 16, pixels: Array([[UInt8]](repeating: [200, 100, 50, 255], count: 256).joined()))
        let picture = Picture.centred(
            image: image, key: PictureKey(id: 5), area: CellRect(column: 0, row: 0, columns: 4, rows: 2), screen: backend.screen,
            reusable: true)
        let bytes = backend.draw(picture, slot: 1)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("a=t,f=24,s=16,v=16,t=s,S=768,"))
        let encoded = try #require(text.split(separator: ";").dropFirst().first?.split(separator: "\u{1B}").first)
        let name = try #require(Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) })
        #expect(Self.contents(ofSharedMemory: name) == Array([[UInt8]](repeating: [200, 100, 50], count: 256).joined()))
        _ = backend.teardown()
        #expect(Self.contents(ofSharedMemory: name) == nil)
    }

    /// Only through the pty is a drawing made as it is written: with shared
    /// memory (or a file) the pixels are handed over whole as before, and
    /// drawn from rows they still are, by the same command.
    @Test(arguments: [KittyMedium.sharedMemory, .file, .direct])
    func rowsAreStreamedOnlyThroughThePty(medium: KittyMedium) throws {
        var drawing = DrawingPlan(
            method: .kitty,
            geometry: TerminalGeometry(windowCells: CellCount(width: 40, height: 12), cellPixels: PixelSize(width: 8, height: 16))
        )
        drawing.kittyMedium = medium
        let backend = drawing.makeBackend(resampler: Resampler(threads: 1))
        #expect(backend.drawsRowsAsMade == (medium == .direct))
        let image = RGBAImage(width: 4, height: 4, pixels: Array([[UInt8]](repeating: [9, 8, 7, 255], count: 16).joined()))
        var bytes: [UInt8] = []
        #expect(
            backend.drawInline(PixelRows(image), imageID: 9) {
                bytes += $0
                return true
            })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(medium == .direct ? "f=100" : medium == .file ? "t=t," : "t=s,"))
        if medium != .direct {
            let encoded = try #require(text.split(separator: ";").dropFirst().first?.split(separator: "\u{1B}").first)
            let name = try #require(Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) })
            KittyTransfer.remove(name, medium: medium)
        }
    }

    /// A one-shot drawing's object outlives pxview: kitty may read it after
    /// the process has exited, so it is not registered for removal at exit
    /// (a slow hop to the terminal showed an empty box); the viewer's are.
    @Test func aOneShotDrawingsObjectIsLeftForKitty() throws {
        var drawing = DrawingPlan(
            method: .kitty,
            geometry: TerminalGeometry(windowCells: CellCount(width: 40, height: 12), cellPixels: PixelSize(width: 8, height: 16))
        )
        drawing.kittyMedium = .sharedMemory
        let backend = drawing.makeBackend(resampler: Resampler(threads: 1))
        let image = RGBAImage(
            width: 4, height: 4, pixels: Array([[UInt8]](repeating: [9, 8, 7, 255], count: 16).joined()))
        let bytes = backend.inline(image, imageID: 9).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        let encoded = try #require(text.split(separator: ";").dropFirst().first?.split(separator: "\u{1B}").first)
        let name = try #require(Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) })
        #expect(Self.contents(ofSharedMemory: name) != nil)
        #expect(!ProcessSignals.isRegistered(path: "/dev/shm" + name))
        KittyTransfer.remove(name, medium: .sharedMemory)
        // A viewer's upload is registered while it waits for kitty.
        let viewers = try #require(KittyTransfer.sharedMemory([1]))
        #expect(ProcessSignals.isRegistered(path: "/dev/shm" + viewers))
        KittyTransfer.remove(viewers, medium: .sharedMemory)
        #expect(!ProcessSignals.isRegistered(path: "/dev/shm" + viewers))
    }

    /// An object kitty has not read after a while is removed at the next
    /// upload; one it read (it removes those) is forgotten.
    @Test func objectsKittyDoesNotReadAreRemovedAfterAWhile() throws {
        var handover = KittyHandover()
        let unread = try #require(KittyTransfer.sharedMemory([1, 2, 3]))
        let read = try #require(KittyTransfer.sharedMemory([4, 5, 6]))
        handover.add(unread, medium: .sharedMemory, now: 1000)
        handover.add(read, medium: .sharedMemory, now: 1000)
        shm_unlink(read)  // what kitty does once it has the pixels
        let fresh = try #require(KittyTransfer.temporaryFile([7]))
        handover.add(fresh, medium: .file, now: 1000 + KittyHandover.unreadLimitMilliseconds - 1)
        #expect(handover.count == 2 && Self.contents(ofSharedMemory: unread) == [1, 2, 3])
        let later = try #require(KittyTransfer.sharedMemory([8]))
        handover.add(later, medium: .sharedMemory, now: 1000 + KittyHandover.unreadLimitMilliseconds)
        #expect(handover.count == 2)
        #expect(Self.contents(ofSharedMemory: unread) == nil)
        #expect(FileManager.default.fileExists(atPath: fresh))
        handover.removeAll()
        #expect(handover.count == 0 && !FileManager.default.fileExists(atPath: fresh))
        #expect(Self.contents(ofSharedMemory: later) == nil)
    }

    /// What a dead pxview left is swept; a live process's objects and
    /// names that are not pxview's stay.
    @Test func sweepingRemovesOnlyWhatDeadProcessesLeft() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let made = [
            "/dev/shm/pxview-\(dead)-123", "/tmp/tty-graphics-protocol-pxview-\(dead)-abcdef",
            "/dev/shm/pxview-\(getpid())-456", "/dev/shm/pxview-notapid-1", "/tmp/tty-graphics-protocol-other-\(dead)-x",
        ]
        for path in made { #expect(FileManager.default.createFile(atPath: path, contents: Data([1]))) }
        defer { for path in made { unlink(path) } }
        KittyTransfer.sweepStale()
        #expect(made.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true, true, true])
        #expect(KittyTransfer.owner(in: "pxview-42-7", prefix: "pxview-") == 42)
        #expect(KittyTransfer.owner(in: "pxview-42", prefix: "pxview-") == nil)
        #expect(KittyTransfer.owner(in: "pxview--7", prefix: "pxview-") == nil)
    }

    /// The sweep runs at most once an hour, told by a stamp file's time.
    @Test func theSweepRunsOnceAnHour() throws {
        let directory = NSTemporaryDirectory() + "pxview-sweep-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stamp = directory + "/kitty-swept"
        let now = Int(time(nil))
        #expect(KittyTransfer.sweepStaleIfDue(stamp: stamp, nowSeconds: now), "no stamp yet")
        #expect(FileManager.default.fileExists(atPath: stamp))
        #expect(!KittyTransfer.sweepStaleIfDue(stamp: stamp, nowSeconds: now + 10))
        #expect(!KittyTransfer.sweepStaleIfDue(stamp: stamp, nowSeconds: now + KittyTransfer.sweepIntervalSeconds - 5))
        #expect(KittyTransfer.sweepStaleIfDue(stamp: stamp, nowSeconds: now + KittyTransfer.sweepIntervalSeconds + 5))
        // A stamp from the future (a clock set back) does not stop it for good.
        #expect(KittyTransfer.sweepStaleIfDue(stamp: stamp, nowSeconds: now - 100))
        // A folder where the stamp should be: the sweep still runs.
        let folder = directory + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(KittyTransfer.sweepStaleIfDue(stamp: folder, nowSeconds: now))
        #expect(KittyTransfer.sweepStaleIfDue(stamp: folder, nowSeconds: now))
    }
}
