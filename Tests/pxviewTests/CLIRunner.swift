import Foundation
import Pixabay
import TestSupport
import Testing

/// What one run of the `pxview` binary produced.
struct CLIResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var errLines: [String] { err.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs the built `pxview` executable as a user would: a private HOME and
/// XDG directories (so the real cache and favourites are never touched), a
/// clean environment (no inherited PIXABAY_API_KEY), stdin from /dev/null
/// and stdout/stderr captured to files (never a terminal, never a full pipe).
final class CLISandbox: @unchecked Sendable {
    let root: TemporaryDirectory
    /// The current directory of every run (where `save` writes).
    let workDirectory: String

    init() throws {
        root = try TemporaryDirectory()
        workDirectory = root.file("work")
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
    }

    var cacheDirectory: String { root.file("cache") + "/pxview" }
    var dataDirectory: String { root.file("data") + "/pxview" }

    var baseEnvironment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": root.path, "XDG_CACHE_HOME": root.file("cache"),
            "XDG_DATA_HOME": root.file("data"), "LANG": "C.UTF-8", "COLUMNS": "100",
        ]
    }

    /// Names in the work directory, hidden ones included.
    func workFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: workDirectory)) ?? []).sorted()
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CLIResult {
        try runCaptured(
            try pxviewExecutable(), arguments, environment: baseEnvironment.merging(extra) { $1 }, directory: workDirectory,
            scratch: root)
    }
}

/// Runs `executable` to its end with stdin from `inputPath` (default
/// /dev/null) and stdout and stderr captured to files in `scratch`, in a
/// session of its own (`setsid`): no controlling terminal, so nothing it
/// does reaches the terminal the tests were started from (`doctor` asks
/// `/dev/tty` when standard output is not one).
func runCaptured(
    _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
    inputPath: String = "/dev/null", scratch: TemporaryDirectory
) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    process.arguments = ["--wait", executable] + arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let outPath = scratch.file("stdout-\(UUID().uuidString)")
    let errPath = scratch.file("stderr-\(UUID().uuidString)")
    try #require(FileManager.default.createFile(atPath: outPath, contents: nil))
    try #require(FileManager.default.createFile(atPath: errPath, contents: nil))
    let input = try #require(FileHandle(forReadingAtPath: inputPath))
    let output = try #require(FileHandle(forWritingAtPath: outPath))
    let errors = try #require(FileHandle(forWritingAtPath: errPath))
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    try? output.close()
    try? errors.close()
    try? input.close()
    defer {
        unlink(outPath)
        unlink(errPath)
    }
    return CLIResult(
        status: process.terminationStatus,
        stdout: [UInt8](FileManager.default.contents(atPath: outPath) ?? Data()),
        stderr: [UInt8](FileManager.default.contents(atPath: errPath) ?? Data()))
}

/// True when `process` ended by `signal`, as a shell sees a process it
/// stopped: pxview cleans up, then lets the signal's default action end it
/// (so a script looping over pxview stops on Ctrl-C too).
func endedBySignal(_ process: Process, _ signal: Int32) -> Bool {
    process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
}

/// The `pxview` binary SwiftPM built next to this test bundle (pxviewTests
/// depends on the pxview target, so `swift test` builds it first).
func pxviewExecutable() throws -> String {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("pxview"))
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("pxview"))
    candidates.append(packageRoot().appendingPathComponent(".build/debug/pxview"))
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "pxview binary not found in \(candidates.map(\.path))").path
}

/// The package directory, found from this file.
func packageRoot() -> URL {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return url
}

/// The bundled catalog as the source tree holds it (what the binary serves offline).
func sourceCatalog() throws -> OfflineCatalog {
    try OfflineCatalog(directory: packageRoot().appendingPathComponent("Sources/Pixabay/Catalog"))
}

/// Bytes of a catalog photo, e.g. `catalogFile("web/cat.jpg")`.
func catalogFile(_ relative: String) throws -> [UInt8] {
    let path = packageRoot().appendingPathComponent("Sources/Pixabay/Catalog/\(relative)").path
    return [UInt8](try #require(FileManager.default.contents(atPath: path)))
}

/// A Pixabay stand-in for the binary: `/api/` answers from `hits` (ids and
/// plain searches), images live under `/img/`. Hits are JSON objects so a
/// test can put anything in them, hostile text included.
final class CLIPixabay: @unchecked Sendable {
    static let key = "cli-5ecret-key-0123456789"

    let fake: FakePixabayServer
    let hits: [[String: Any]]

    var server: TestHTTPServer { fake.server }
    /// The search answer as served.
    var searchBody: [UInt8] { fake.searchBody }

    init(hits makeHits: (TestHTTPServer) throws -> [[String: Any]]) throws {
        var hits: [[String: Any]] = []
        fake = try FakePixabayServer { server in
            hits = try makeHits(server)
            return try hits.map { hit in
                FakePixabayServer.Hit(id: hit["id"] as? Int ?? 0, json: [UInt8](try JSONSerialization.data(withJSONObject: hit)))
            }
        }
        self.hits = hits
    }

    /// Two ordinary photos: a JPEG (id 101) and a PNG (id 102), served from the catalog's files.
    static func standard() throws -> CLIPixabay {
        try CLIPixabay { server in
            let jpeg = try catalogFile("web/cat.jpg")
            let png = try catalogFile("large/debian-logo.png")
            server.route("/img/cat.jpg") { _ in TestHTTPServer.Response(body: jpeg) }
            server.route("/img/logo.png") { _ in TestHTTPServer.Response(body: png) }
            return [
                hit(id: 101, tags: "cat, pet", user: "Ann", likes: 7, large: server.url("/img/cat.jpg")),
                hit(id: 102, tags: "logo, swirl", user: "Bo", likes: 3, large: server.url("/img/logo.png")),
            ]
        }
    }

    static func hit(id: Int, tags: String, user: String, likes: Int, large: String) -> [String: Any] {
        [
            "id": id, "tags": tags, "user": user, "likes": likes, "imageWidth": 640, "imageHeight": 480,
            "previewURL": large, "webformatURL": large, "largeImageURL": large, "type": "photo",
        ]
    }

    /// The options that point pxview at this server with the key.
    var options: [String] { ["--api-url", server.url("/api/"), "--api-key", Self.key] }

    var apiRequests: [TestHTTPServer.Request] { fake.apiRequests }
}
