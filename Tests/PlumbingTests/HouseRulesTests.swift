import Foundation
import Testing

/// The house's rules, read off the sources: each concept in one home.
@Suite struct HouseRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardized.path

    /// Every Swift source (pxbench's and the fuzz targets' too) with its lines.
    static func files() throws -> [(path: String, lines: [Substring])] {
        let paths = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
            return (path, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    /// Code lines only: `//` comments are not code.
    static func code(_ lines: [Substring]) -> [Substring] {
        lines.filter { !$0.drop(while: { $0 == " " }).hasPrefix("//") }
    }

    @Test func noSourceFileIsOver450Lines() throws {
        // The rules below check nothing if the sources are not found.
        #expect(try Self.files().count > 100)
        let long = try Self.files().filter { $0.lines.count - 1 > 450 }.map { "\($0.path): \($0.lines.count - 1)" }
        #expect(long.isEmpty, "\(long)")
    }

    /// A line that names a way of drawing (`DrawingMethod`'s and
    /// `ProtocolChoice`'s values) or branches on one.
    static func namingAWay() throws -> [Regex<AnyRegexOutput>] {
        let ways = "(sixel|kitty|kittyPlaceholders|symbols|blocks)\\b"
        return try [
            "(method|Method|choice|Choice)\\b.*\\.\(ways)", "case \\.\(ways)", "(Method|Choice)\\.\(ways)",
            "switch [a-z.]*(method|choice)\\b",
        ].map { try Regex($0) }
    }

    /// Only the backends name a way of drawing: the rest of pxview asks
    /// the plan (`DrawingPlan.backendType`, `Backends`) what its backend
    /// says, so a new protocol is its backend and its line in `Backends.all`.
    /// pxbench and the fuzz targets pick a backend on purpose; the library
    /// names its protocols for its users (`PictureProtocol.kitty`…).
    @Test func onlyTheBackendsNameAWayOfDrawing() throws {
        let naming = try Self.namingAWay()
        var found: [String] = []
        var checked = 0
        for (path, lines) in try Self.files()
        where !path.hasSuffix("Backend.swift") && !path.hasPrefix("pxbench/") && !path.hasPrefix("pxfuzz/") {
            checked += 1
            // Decoding's methods are compression methods (HEIF's `switch method`).
            if path.hasPrefix("Decoding/") { continue }
            for line in Self.code(lines) where naming.contains(where: { line.contains($0) }) {
                if path == "TerminalPictures/PictureProtocol.swift", line.contains("public static let") { continue }
                found.append("\(path): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(checked > 100)
        #expect(found.isEmpty, "\(found)")
    }

    /// The rule above catches what it is for.
    @Test func theDrawingRuleCatchesBranches() throws {
        let naming = try Self.namingAWay()
        let branches = [
            "if drawing.method == .kitty {", "case .sixel: return 1", "if case .blocks = choice {",
            "let m = DrawingMethod.symbols", "switch drawing.method {", "guard plan.choice != .kittyPlaceholders else {",
        ]
        for branch in branches { #expect(naming.contains { branch.contains($0) }, "\(branch)") }
        #expect(!naming.contains { "capabilities.sixel || words.showsSixelLimits".contains($0) })
    }

    /// Only the terminal table recognises a terminal by its name.
    @Test func onlyTheTerminalTableKnowsTerminalsByName() throws {
        let names = [
            "kitty", "Konsole", "WezTerm", "XTerm", "foot", "mlterm", "tmux", "screen", "xterm-kitty", "ghostty", "linux",
        ]
        let tests = names.flatMap { ["hasPrefix(\"\($0)", "== \"\($0)"] } + ["\"KONSOLE_VERSION\"", "\"TERM_PROGRAM\""]
        var found: [String] = []
        for (path, lines) in try Self.files() where path != "Terminal/TerminalTable.swift" && !path.hasPrefix("pxbench/") {
            for line in Self.code(lines) where tests.contains(where: { line.contains($0) }) {
                found.append("\(path): \(line)")
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    /// One file calls read(2) (`Descriptor.read`, which retries EINTR).
    @Test func oneFileCallsRead() throws {
        let call = try Regex("(^|[^.\\w]|Glibc\\.|Darwin\\.)read\\(\\w+, ")
        let readers = try Self.files().filter { file in
            !file.path.hasPrefix("pxbench/") && Self.code(file.lines).contains { $0.contains(call) }
        }.map(\.path)
        #expect(readers == ["Plumbing/Descriptor.swift"])
        #expect("    _ = read(keys, &byte, 1)".contains(call) && !"read(tiff: payload)".contains(call))
        #expect("Glibc.read(fd, $0.baseAddress, $0.count)".contains(call) && !"Descriptor.read(fd, into: $0)".contains(call))
    }

    /// One file reads the monotonic clock (pxbench times its own runs).
    @Test func oneFileReadsTheClock() throws {
        let readers = try Self.files().filter { file in
            !file.path.hasPrefix("pxbench/")
                && Self.code(file.lines).contains {
                    $0.contains("clock_gettime(CLOCK_MONOTONIC") || $0.contains("DispatchTime.now().uptimeNanoseconds")
                }
        }.map(\.path)
        #expect(readers == ["Plumbing/MonotonicClock.swift"])
    }
}
