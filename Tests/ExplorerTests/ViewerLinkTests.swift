import ControlSequences
import Explorer
import Photos
import Rendering
import Testing

/// OSC 8 links on the viewer's rows: a Pixabay photo's `#ID` to its page,
/// its photographer to their profile; nothing for a file.
@Suite struct ViewerLinkTests {
    @Test func aPixabayPhotosTitleAndAuthorLink() {
        var state = viewer(photo: samplePhoto(5))
        _ = state.handle(key("i"))
        let plan = ViewerPlan(state)
        #expect(
            plan.links == [
                TextLink(text: "#5", url: "https://pixabay.com/photos/5/"),
                TextLink(text: "user5", url: "https://pixabay.com/users/user5-7/"),
            ])
        #expect(plan.status.hasPrefix("#5  by user5  1920x1280  fit contain"))
        let row = String(
            decoding: FrameText.row(39, plan.status, width: 120, links: plan.links), as: UTF8.self)
        #expect(
            row.contains(
                "\u{1B}]8;;https://pixabay.com/photos/5/\u{1B}\\#5\u{1B}]8;;\u{1B}\\  by "
                    + "\u{1B}]8;;https://pixabay.com/users/user5-7/\u{1B}\\user5\u{1B}]8;;\u{1B}\\  1920x1280"))
        #expect(ViewerPlan(viewer()).links.isEmpty)
    }

    /// A link's text is linked where it first stands after the one before,
    /// never inside a URL already made; a text cut away is no link.
    @Test func linksAreLaidInOrder() {
        let links = [TextLink(text: "#1", url: "https://a/#1"), TextLink(text: "#1", url: "https://b/")]
        #expect(
            FrameText.linked("#1 and #1", links)
                == "\u{1B}]8;;https://a/#1\u{1B}\\#1\u{1B}]8;;\u{1B}\\ and \u{1B}]8;;https://b/\u{1B}\\#1\u{1B}]8;;\u{1B}\\")
        #expect(
            FrameText.linked("#1", [TextLink(text: "gone", url: "https://c/")] + links.prefix(1)).hasSuffix(
                "#1\u{1B}]8;;\u{1B}\\"))
        #expect(FrameText.linked("plain", links) == "plain")
    }
}
