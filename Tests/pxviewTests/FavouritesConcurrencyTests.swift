import Foundation
import TestSupport
import Testing

/// Two real processes changing the favourites at once lose nothing: each
/// runs a loop of `pxview fav add` (then `rm`) against the same file.
@Suite struct FavouritesConcurrencyTests {
    static let perLoop = 40

    @Test func concurrentAddsAndRemovesAreAllKept() throws {
        let sandbox = try CLISandbox()
        let pixabay = try CLIPixabay { server in
            (1...(2 * Self.perLoop)).map { CLIPixabay.hit(id: $0, tags: "t", user: "u", likes: $0, large: server.url("/x.jpg")) }
        }
        let binary = try pxviewExecutable()
        let options = pixabay.options.map { "'\($0)'" }.joined(separator: " ")
        func loop(_ ids: ClosedRange<Int>, _ action: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c",
                "for i in \(ids.map(String.init).joined(separator: " ")); do '\(binary)' fav \(action) $i \(options) >/dev/null 2>&1 || exit 1; done",
            ]
            process.environment = sandbox.baseEnvironment
            try process.run()
            return process
        }
        let first = try loop(1...Self.perLoop, "add")
        let second = try loop((Self.perLoop + 1)...(2 * Self.perLoop), "add")
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let listed = try sandbox.run(["fav", "list", "--json"])
        let ids = Set(try PixabayResponseIDs.ids(listed.stdout))
        #expect(ids == Set(1...(2 * Self.perLoop)), "lost \(Set(1...(2 * Self.perLoop)).subtracting(ids).sorted())")

        // Removing the odd ids while adding them back would resurrect; removing
        // one half while the other is re-added must leave exactly the other half.
        let evens = stride(from: 2, through: 2 * Self.perLoop, by: 2).map { $0 }
        let removeFirstHalf = try loop(1...Self.perLoop, "rm")
        let removeOdds = Process()
        removeOdds.executableURL = URL(fileURLWithPath: "/bin/sh")
        let odds = stride(from: Self.perLoop + 1, through: 2 * Self.perLoop, by: 1).filter { $0 % 2 == 1 }
        removeOdds.arguments = [
            "-c",
            "for i in \(odds.map(String.init).joined(separator: " ")); do '\(binary)' fav rm $i >/dev/null 2>&1 || exit 1; done",
        ]
        removeOdds.environment = sandbox.baseEnvironment
        try removeOdds.run()
        removeFirstHalf.waitUntilExit()
        removeOdds.waitUntilExit()
        #expect(removeFirstHalf.terminationStatus == 0 && removeOdds.terminationStatus == 0)
        let left = Set(try PixabayResponseIDs.ids(try sandbox.run(["fav", "list", "--json"]).stdout))
        #expect(left == Set(evens.filter { $0 > Self.perLoop }))
    }
}

enum PixabayResponseIDs {
    static func ids(_ json: [UInt8]) throws -> [Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        return (object["hits"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }
}
