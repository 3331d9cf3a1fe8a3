import Foundation
import Pixabay
import TestSupport
import Testing

@testable import pxview

/// OSC 8 links in `search`'s table (issue 29): the ID to the photo's page,
/// a Pixabay user to their profile; the columns stay where they were.
@Suite struct LinkTests {
    @Test func theSearchTableLinksTheIDAndTheUser() {
        let hit = PixabayHit(
            id: 42, pageURL: "https://pixabay.com/photos/sky-42/", tags: "sky", imageWidth: 640, imageHeight: 480, likes: 7,
            userID: 99, user: "jo")
        let odd = PixabayHit(id: 43, pageURL: "https://x.test/\u{1B}]bad", imageWidth: 1, imageHeight: 1, user: "no one")
        let table = "ID  SIZE     USER    LIKES  TAGS\n42  640x480  jo          7  sky\n43  1x1      no one      0  \n"
        let linked = Listing.linked(table, hits: [hit, odd])
        #expect(
            linked
                == "ID  SIZE     USER    LIKES  TAGS\n"
                + "\u{1B}]8;;https://pixabay.com/photos/sky-42/\u{1B}\\42\u{1B}]8;;\u{1B}\\  640x480  "
                + "\u{1B}]8;;https://pixabay.com/users/jo-99/\u{1B}\\jo\u{1B}]8;;\u{1B}\\          7  sky\n"
                + "43  1x1      no one      0  \n")
    }

    /// On a terminal the offline catalog's table links each ID to its
    /// photo's page; a pipe gets no escape codes.
    @Test func linksAreForTerminalsOnly() throws {
        let session = try PseudoTerminalSession(
            arguments: ["search", "--no-images"], emulation: .kitty, rows: 24, columns: 140,
            environment: PseudoTerminalSession.environment.merging(["PIXABAY_API_KEY": ""]) { $1 })
        #expect(session.waitForExit() == 0)
        let text = String(decoding: session.output, as: UTF8.self)
        #expect(
            text.contains("\u{1B}]8;;https://www.flickr.com/photos/danielbuechele/6061409035\u{1B}\\1000008\u{1B}]8;;\u{1B}\\"))
        let piped = try CLISandbox().run(["search", "--no-images"])
        #expect(piped.status == 0 && !piped.out.contains("\u{1B}]8"))
    }
}
