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

    /// Outside the backends, only the factory (`DrawingPlan.swift`) asks
    /// which way of drawing it is.
    @Test func onlyTheBackendsAndTheFactoryBranchOnTheDrawingMethod() throws {
        let branching = [
            ".method == .", ".method != .", "method == .sixel", "method == .kitty", "switch drawing.method",
            "case .kittyPlaceholders", "case .sixel:", "case .blocks:",
        ]
        var found: [String] = []
        for (path, lines) in try Self.files()
        where !path.hasSuffix("Backend.swift") && path != "Rendering/DrawingPlan.swift" && !path.hasPrefix("pxbench/") {
            for line in Self.code(lines) where branching.contains(where: { line.contains($0) }) {
                found.append("\(path): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        // `PictureProtocol`'s and `ProtocolChoice`'s cases are not the drawing method.
        found.removeAll { $0.hasPrefix("TerminalPictures/") && $0.contains("case .sixel: return .sixel") }
        found.removeAll { $0.hasPrefix("TerminalPictures/") && $0.contains("case .blocks: return .blocks") }
        #expect(found.isEmpty, "\(found)")
    }

    /// Only the terminal table recognises a terminal by its name.
    @Test func onlyTheTerminalTableKnowsTerminalsByName() throws {
        let names = ["kitty", "Konsole", "WezTerm", "XTerm", "foot", "mlterm", "tmux", "screen", "xterm-kitty", "ghostty"]
        let tests = names.flatMap { ["hasPrefix(\"\($0)", "== \"\($0)"] } + ["\"KONSOLE_VERSION\"", "\"TERM_PROGRAM\""]
        var found: [String] = []
        for (path, lines) in try Self.files() where path != "Terminal/TerminalTable.swift" && !path.hasPrefix("pxbench/") {
            for line in Self.code(lines) where tests.contains(where: { line.contains($0) }) {
                found.append("\(path): \(line)")
            }
        }
        #expect(found.isEmpty, "\(found)")
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
