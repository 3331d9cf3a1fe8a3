/// Every command's options, in one place, so `--help` and parsing never disagree.
enum Commands {
    static let version = "0.1.0"

    static let helpOption = OptionSpec(name: "--help", aliases: ["-h"], help: "show this help")

    /// Options that work with every command (they may also come before it).
    static let globalOptions: [OptionSpec] = [
        OptionSpec(name: "--api-key", valueName: "KEY", help: "Pixabay API key (default $PIXABAY_API_KEY)"),
        OptionSpec(name: "--api-url", valueName: "URL", help: "API endpoint (default $PIXABAY_API_URL or https://pixabay.com/api/)"),
        OptionSpec(name: "--offline", help: "use the offline catalog, never the network"),
        OptionSpec(name: "--no-cache", help: "neither read nor write the disk cache"),
        OptionSpec(name: "--protocol", valueName: "P", help: "auto|sixel|kitty|blocks (default auto, or $PXVIEW_PROTOCOL)"),
    ]

    /// How an image is fitted, zoomed and drawn: shared by show, open and the viewer.
    static let viewOptions: [OptionSpec] = [
        OptionSpec(name: "--size", valueName: "WxH", help: "pixel box to fit into"),
        OptionSpec(name: "--cells", valueName: "COLSxROWS", help: "box in terminal cells"),
        OptionSpec(name: "--cell-size", valueName: "WxH", help: "pixel size of one cell (overrides the terminal's)"),
        OptionSpec(name: "--fit", valueName: "MODE", help: "contain|cover|down (default contain)"),
        OptionSpec(name: "--zoom", valueName: "Z", help: "1 = fit, 2 = twice the fit scale"),
        OptionSpec(name: "--center", valueName: "X,Y", help: "image point (fractions 0..1) at the middle of the view"),
        OptionSpec(name: "--max-pixels", valueName: "N", help: "refuse larger images (default 100000000)"),
    ]

    static let main = CommandSpec(
        name: "", usage: "pxview [OPTIONS] [COMMAND] [ARGS...]",
        summary: """
            Real photos inside a terminal: sixel, kitty graphics or half-blocks.
            With no command, opens the explorer on the launch query.

            commands:
              show PATH|URL...   draw images from files or URLs
              search [QUERY]     search Pixabay (or the offline catalog)
              open ID            show one Pixabay image by id
              save ID            download one image to a file
              fav add|rm|list    keep favourites
              cache info|clear   the disk cache

            Run 'pxview COMMAND --help' for a command's options.
            """,
        options: globalOptions + [helpOption, OptionSpec(name: "--version", help: "print the version")],
        maxPositionals: nil)

    static let show = CommandSpec(
        name: "show", usage: "pxview show [OPTIONS] PATH|URL...",
        summary: """
            Draws each image in the terminal. Without --size/--cells the box is the terminal's;
            when standard output is not a terminal and no --protocol is given, prints a one-line
            description of each image instead of escape codes.
            """,
        options: viewOptions + globalOptions + [
            OptionSpec(name: "--interactive", aliases: ["-i"], help: "open the viewer (zoom, pan) instead of drawing once"),
            helpOption,
        ],
        maxPositionals: nil, minPositionals: 1)
}
