import Foundation
import TestSupport
import Testing

@testable import pxview

#if canImport(Glibc)
    import Glibc
#endif

/// An interrupted `save` leaves no `.NAME.part-PID-RAND` file behind, and
/// what a killed one could not remove is swept by the next save.
@Suite(.serialized) struct PartFileTests {
    /// A structurally whole PNG of `size` bytes (its IDAT is filler): what
    /// `save` checks is that the chunks reach IEND.
    static func bigPNG(size: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let length = UInt32(data.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let header: [UInt8] = [0, 0, 4, 0, 0, 0, 4, 0, 8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [UInt8](repeating: 0x55, count: size)) + chunk("IEND", [])
    }

    @Test func aSignalWhileWritingRemovesThePartFile() throws {
        let sandbox = try CLISandbox()
        let png = Self.bigPNG(size: 12 << 20)
        let pixabay = try CLIPixabay { server in
            server.route("/img/big.png") { _ in TestHTTPServer.Response(body: png) }
            return [CLIPixabay.hit(id: 401, tags: "big", user: "B", likes: 1, large: server.url("/img/big.png"))]
        }
        var caught = 0
        for _ in 0..<8 where caught == 0 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try pxviewExecutable())
            process.arguments = ["save", "401", "--force"] + pixabay.options
            process.environment = sandbox.baseEnvironment
            process.currentDirectoryURL = URL(fileURLWithPath: sandbox.workDirectory)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Watch for the part file and stop pxview while it is there.
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline {
                if sandbox.workFiles().contains(where: { $0.contains(".part-") }) {
                    kill(process.processIdentifier, SIGTERM)
                    caught += 1
                    break
                }
                usleep(200)
            }
            process.waitUntilExit()
            if caught > 0 { #expect(endedBySignal(process, SIGTERM)) }
            #expect(!sandbox.workFiles().contains { $0.contains(".part-") }, "\(sandbox.workFiles())")
        }
        #expect(caught > 0, "never saw the part file to interrupt")
    }

    @Test func partFilesOfDeadProcessesAreSwept() throws {
        let sandbox = try CLISandbox()
        // A process that has ended: its pid names the stale part file.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        // Both forms: the short one of now, and `.NAME.part-…` of before.
        let stale = String(decoding: AtomicFile.temporaryName(pid: gone.processIdentifier, random: 12345), as: UTF8.self)
        let staleOld = ".pixabay-101.jpg.part-\(gone.processIdentifier)-12345"
        let alive = String(decoding: AtomicFile.temporaryName(random: 777), as: UTF8.self)  // this test runner is alive
        let unrelated = ".notes.part-abc"
        for name in [stale, staleOld, alive, unrelated] {
            FileManager.default.createFile(atPath: sandbox.workDirectory + "/" + name, contents: Data([1, 2, 3]))
        }
        let pixabay = try CLIPixabay.standard()
        let saved = try sandbox.run(["save", "101"] + pixabay.options)
        #expect(saved.status == 0)
        let files = sandbox.workFiles()
        #expect(!files.contains(stale) && !files.contains(staleOld))
        #expect(files.contains(alive) && files.contains(unrelated))
        #expect(files.contains("pixabay-101.jpg"))
    }
}
