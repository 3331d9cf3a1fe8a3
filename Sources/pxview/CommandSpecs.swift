import Explorer

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
        OptionSpec(
            name: "--bg", valueName: "COLOR",
            help: "behind transparent pixels: auto (the terminal's background), none, checker, #rrggbb"),
    ]

    static let gridKeys = (title: "keys in the grid", entries: KeyHelp.browser)
    static let viewerKeys = (title: "keys in the viewer", entries: KeyHelp.viewer)

    static let main = CommandSpec(
        name: "", usage: "pxview [OPTIONS] [COMMAND] [ARGS...]",
        summary: """
            Real photos inside a terminal: sixel, kitty graphics or half-blocks.
            With no command, opens the explorer on the launch query.

            commands:
              show PATH|URL|DIR  view images from files, URLs or a folder
              search [QUERY]     search Pixabay (or the offline catalog)
              open ID            view one Pixabay image by id
              save ID            download one image to a file
              fav add|rm|list    keep favourites
              cache info|clear   the disk cache

            Run 'pxview COMMAND --help' for a command's options.
            """,
        options: globalOptions + [helpOption, OptionSpec(name: "--version", help: "print the version")],
        maxPositionals: nil, keys: [gridKeys, viewerKeys])

    static let show = CommandSpec(
        name: "show", usage: "pxview show [OPTIONS] PATH|URL|DIR...",
        summary: """
            On a terminal, opens the viewer on the first image (n/p step through the others);
            a folder opens as a grid of its JPEG and PNG images. With --once, or when standard
            output is not a terminal, draws each image once instead (without --size/--cells in
            the terminal's box); with no terminal and no --protocol, prints a one-line
            description of each image instead of escape codes.
            """,
        options: viewOptions + globalOptions + [
            OptionSpec(name: "--once", help: "draw each image once and exit, no viewer"),
            OptionSpec(name: "--interactive", aliases: ["-i"], help: "the viewer (the default on a terminal; kept for scripts)"),
            helpOption,
        ],
        maxPositionals: nil, minPositionals: 1, missing: ("a PATH or URL", "pxview show photo.jpg"),
        keys: [viewerKeys, (title: "keys in a folder's grid", entries: KeyHelp.browser)])

    /// One flag per Pixabay search parameter; values are checked before any request.
    static let searchFilterOptions: [OptionSpec] = [
        OptionSpec(name: "--type", valueName: "T", help: "all|photo|illustration|vector (default all)"),
        OptionSpec(name: "--orientation", valueName: "O", help: "all|horizontal|vertical (default all)"),
        OptionSpec(name: "--category", valueName: "NAME", help: "one of Pixabay's 20 categories, e.g. nature, animals"),
        OptionSpec(name: "--colors", valueName: "LIST", help: "comma list, e.g. red,blue (grayscale, transparent, …)"),
        OptionSpec(name: "--min-width", valueName: "N", help: "smallest original width in pixels"),
        OptionSpec(name: "--min-height", valueName: "N", help: "smallest original height in pixels"),
        OptionSpec(name: "--order", valueName: "O", help: "popular|latest (default popular)"),
        OptionSpec(name: "--safe", help: "only images suitable for all ages"),
        OptionSpec(name: "--editors-choice", help: "only Editor's Choice images"),
        OptionSpec(name: "--lang", valueName: "CODE", help: "language of the query, e.g. de (default en)"),
        OptionSpec(name: "--page", valueName: "N", help: "page of results, from 1"),
        OptionSpec(name: "--per-page", valueName: "N", help: "results per page, 3-200 (default 20)"),
    ]

    static let search = CommandSpec(
        name: "search", usage: "pxview search [QUERY...] [OPTIONS]",
        summary: """
            Prints one page of results: id, size, user, likes and tags, then where they are from.
            With no query, Pixabay's "famous quotes" (the explorer's launch query), or the whole
            offline catalog. Thumbnails are drawn above the table when standard output is a terminal.
            """,
        options: searchFilterOptions + [
            OptionSpec(name: "--json", help: "print Pixabay-shaped JSON (total, totalHits, hits) only"),
            OptionSpec(name: "--no-images", help: "text only, no thumbnails"),
            OptionSpec(name: "--interactive", aliases: ["-i"], help: "browse the results in the grid"),
        ] + globalOptions + [helpOption],
        maxPositionals: nil, keys: [gridKeys, viewerKeys])

    static let open = CommandSpec(
        name: "open", usage: "pxview open ID [OPTIONS]",
        summary: """
            Downloads one Pixabay image (the large rendition) and opens it in the viewer: zoom and
            pan with keys. With --once, or when standard output is not a terminal, draws it once
            as 'pxview show --once' does.
            """,
        options: viewOptions + globalOptions + [
            OptionSpec(name: "--once", help: "draw the image once and exit, no viewer"),
            OptionSpec(name: "--interactive", aliases: ["-i"], help: "the viewer (the default on a terminal; kept for scripts)"),
            helpOption,
        ],
        maxPositionals: 1, minPositionals: 1, missing: ("an image ID", "pxview open 1000010"), keys: [viewerKeys])

    static let save = CommandSpec(
        name: "save", usage: "pxview save ID [--out PATH] [--size preview|web|large] [--force]",
        summary: """
            Downloads one image to a file, by default pixabay-ID.jpg (or .png: the extension
            follows the real bytes) in the current directory. Never overwrites without --force.
            """,
        options: [
            OptionSpec(name: "--out", aliases: ["-o"], valueName: "PATH", help: "file (or existing directory) to write"),
            OptionSpec(name: "--size", valueName: "S", help: "preview|web|large (default large)"),
            OptionSpec(name: "--force", aliases: ["-f"], help: "replace an existing file"),
        ] + globalOptions + [helpOption],
        maxPositionals: 1, minPositionals: 1, missing: ("an image ID", "pxview save 1000010"))

    static let fav = CommandSpec(
        name: "fav", usage: "pxview fav add ID | fav rm ID | fav list [--json]",
        summary: "Keeps favourites in $XDG_DATA_HOME/pxview/favourites.json (tags and user included).",
        options: [OptionSpec(name: "--json", help: "list as Pixabay-shaped JSON")] + globalOptions + [helpOption],
        maxPositionals: 2, minPositionals: 1, missing: ("add, rm or list", "pxview fav list"))

    static let cache = CommandSpec(
        name: "cache", usage: "pxview cache info|clear",
        summary: "Shows or empties the disk cache of search results and images ($XDG_CACHE_HOME/pxview).",
        options: globalOptions + [helpOption],
        maxPositionals: 1, minPositionals: 1, missing: ("info or clear", "pxview cache info"))
}
