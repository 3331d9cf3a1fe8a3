import Foundation
import Testing

/// Rules of the house that the compiler does not check, read off the tree.
@Suite struct SourceTreeTests {
    /// Every Swift file under Sources and Tests.
    static func swiftFiles() -> [String] {
        let root = packageRoot()
        var files: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".swift") { files.append(base.appendingPathComponent(path).path) }
            }
        }
        return files
    }

    /// A platform module (Glibc, Darwin, Musl, WinSDK) is imported only
    /// inside `#if canImport(...)` of that module, so a file says which
    /// platform it needs and fails to build plainly elsewhere.
    @Test func everyPlatformImportIsGuarded() throws {
        let platforms = ["Glibc", "Darwin", "Musl", "WinSDK"]
        let files = Self.swiftFiles()
        #expect(files.count > 100)
        var unguarded: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var guards: [String] = []
            for (number, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("#if ") {
                    guards.append(String(text.dropFirst(4)))
                } else if text.hasPrefix("#elseif ") {
                    _ = guards.popLast()
                    guards.append(String(text.dropFirst(8)))
                } else if text.hasPrefix("#endif") {
                    _ = guards.popLast()
                }
                guard let module = platforms.first(where: { text.hasSuffix("import \($0)") }) else { continue }
                if !guards.contains(where: { $0.contains("canImport(\(module))") }) {
                    unguarded.append("\(URL(fileURLWithPath: file).lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(unguarded.isEmpty, "unguarded platform imports: \(unguarded)")
    }
}
