import Pixabay

/// Draws the page's previews side by side above the results table, each
/// labelled with its id. The graphics come from the Explorer module's
/// `ImageRenderer`, which is not merged yet; until it is, search prints the
/// text parts only, so this deliberately draws nothing. Kept as its own step
/// so wiring it in touches no other part of `search`.
func drawThumbnailStrip(page: SearchPage, source: any PhotoSource, protocolOption: String?) async {
}
