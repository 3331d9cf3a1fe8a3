import Foundation
import TestSupport
import Testing

/// The grid on a Pixabay that pages (the local stand-in, 3 hits a page):
/// End goes to the real end, loading every page on the way.
@Suite(.serialized) struct GridPagesTerminalTests {
    @Test func endLoadsEveryPageToTheLastPhoto() throws {
        let pixabay = try CLIPixabay { server in
            let jpeg = try catalogFile("preview/cat.jpg")
            server.route("/img/cat.jpg") { _ in TestHTTPServer.Response(body: jpeg) }
            return (1...10).map { id in
                CLIPixabay.hit(id: 500 + id, tags: "cat \(id)", user: "U\(id)", likes: id, large: server.url("/img/cat.jpg"))
            }
        }
        let session = try PseudoTerminalSession(
            arguments: ["search", "cats", "-i", "--per-page", "3"] + pixabay.options, emulation: .sixel, rows: 24,
            columns: 80)
        #expect(session.waitFor("1 of 10 · Images from Pixabay"))
        session.send("G")
        #expect(session.waitFor("10 of 10 · Images from Pixabay"))
        #expect(session.waitFor("#510  640x480  by U10"))
        let pages = pixabay.apiRequests.compactMap { queryDictionary($0.target)["page"] }
        #expect(Set(pages) == ["1", "2", "3", "4"])
        session.send("q")
        #expect(session.waitForExit() == 0)
    }
}
