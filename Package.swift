// swift-tools-version:6.0
import PackageDescription

/// pxview: real photos inside a terminal.
///
/// A thin executable over focused libraries. Data flows one way:
/// bytes → Decoding → Scaling → Encoding → Rendering → Explorer → pxview.
/// Lower layers never import higher ones; C libraries come in through `C*`
/// system-library targets. `TerminalPictures` is the library other Swift
/// programs use: its module alone declares `public` API; what only
/// pxview's own targets share is `package`.
///
/// Linux only (built and tested on Debian 12): the C libraries are Debian's,
/// found by pkg-config, and the terminal code is Glibc's, so no other
/// platform is claimed.
let package = Package(
    name: "pxview",
    products: [
        .library(name: "TerminalPictures", targets: ["TerminalPictures"]),
        .executable(name: "pxview", targets: ["pxview"]),
        .executable(name: "pxbench", targets: ["pxbench"]),
    ],
    targets: [
        // MARK: C libraries
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]),
        // Headers only: no pkgConfig, whose `-lcurl` would load libcurl (and
        // its TLS, Kerberos and LDAP dependencies) at every start. CShims
        // dlopens it on first use instead.
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // The image formats beyond JPEG and PNG (rows of the codec table,
        // Sources/Decoding/CodecTable.swift). giflib and libwebp are linked;
        // libavif, libheif and libjxl are headers only, loaded by CShims with
        // dlopen on first use (they and their codecs, 40 libraries, would
        // add ~10 ms to every start: see CShims/include/pxview_codec.h).
        .systemLibrary(
            name: "CGIF", path: "Sources/CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CAVIF", path: "Sources/CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(
            name: "CHEIF", path: "Sources/CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CJXL", path: "Sources/CJXL", providers: [.apt(["libjxl-dev"])]),
        // Colour management (the decode pipeline's colour step): headers
        // only, loaded by CShims on first use, as the newer codecs are.
        .systemLibrary(
            name: "CLCMS2", path: "Sources/CLCMS2", providers: [.apt(["liblcms2-dev"])]),
        // libjpeg (jpeglib.h, libjpeg62-turbo-dev: the same library as
        // TurboJPEG) decodes the chroma samplings TurboJPEG 2.1 refuses.
        .target(
            name: "CShims", dependencies: ["CPNG", "CCurl", "CGIF", "CWebP", "CAVIF", "CHEIF", "CJXL", "CLCMS2"],
            path: "Sources/CShims",
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("gif"), .linkedLibrary("webp"), .linkedLibrary("webpdemux"),
                // zlib's CRC-32 and Adler-32 for the kitty PNG encoder.
                .linkedLibrary("z"),
                // pow, exp and log for the HDR curves.
                .linkedLibrary("m"),
            ]),

        // MARK: Libraries
        /// The system plumbing every layer shares, below them all and using
        /// nothing but libc: the one lock, the one way to split rows across
        /// cores, the one write-everything loop, the one atomic file writer
        /// and the one way a byte size is written for people. Not Pixels:
        /// HTTP and Pixabay have no business with pixels.
        .target(name: "Plumbing"),
        /// The escape-sequence vocabulary (`TerminalCommand`): every sequence
        /// pxview sends, in one table, below the encoders, HTTP's progress
        /// line and the terminal layer, which all emit them.
        .target(name: "ControlSequences"),
        .target(name: "Pixels"),
        .target(name: "Decoding", dependencies: ["Pixels", "Plumbing", "CTurboJPEG", "CShims"]),
        .target(name: "Scaling", dependencies: ["Pixels", "Plumbing", "CShims"]),
        .target(name: "Encoding", dependencies: ["Pixels", "Plumbing", "ControlSequences", "CShims"]),
        .target(name: "Terminal", dependencies: ["Pixels", "Plumbing", "ControlSequences"]),
        /// Reads sixel and kitty output back into pixels: tests and pxbench score
        /// pxview's (and other tools') output with it. Never used to draw.
        .target(name: "GraphicsReadback", dependencies: ["Pixels", "Encoding", "Decoding", "CZlib"]),
        .target(name: "HTTP", dependencies: ["Plumbing", "ControlSequences", "CCurl", "CShims"]),
        .target(
            name: "Pixabay", dependencies: ["HTTP", "Plumbing", "Pixels", "Decoding"],
            resources: [.copy("Catalog")]),
        /// The explorer's one photo model (`Photo`: a Pixabay hit or a local
        /// file, each answering its title, details, save name, whether it
        /// can be a favourite) and the sources of photos it talks to: Pixabay
        /// and the offline catalog adapted, the files given to `show`.
        .target(name: "Photos", dependencies: ["Pixabay", "Pixels", "Plumbing"]),
        /// The one home of the graphics protocols: the display geometry, one
        /// backend per way of drawing (sixel, kitty, kitty placeholders,
        /// half-blocks), the pixel pipeline and the decode size. Below
        /// Explorer and the command, above Encoding and Terminal.
        .target(
            name: "Rendering",
            dependencies: ["Pixels", "Plumbing", "ControlSequences", "Decoding", "Scaling", "Encoding", "Terminal"]),
        .target(
            name: "Explorer",
            dependencies: [
                "Pixels", "Plumbing", "ControlSequences", "Decoding", "Scaling", "Encoding", "Terminal", "Rendering", "Pixabay",
                "Photos",
            ]),

        /// The library: probe a terminal once, load a picture, draw it into
        /// a box of cells (or place and remove it); the pipeline pxview is
        /// built on, behind a small public API.
        .target(
            name: "TerminalPictures",
            dependencies: ["Pixels", "Plumbing", "Decoding", "Scaling", "Terminal", "Rendering"]),

        // MARK: Executables
        .executableTarget(
            name: "pxview",
            dependencies: [
                "Pixels", "Plumbing", "Decoding", "Scaling", "Encoding", "Terminal", "Rendering", "HTTP", "Pixabay", "Photos",
                "Explorer", "TerminalPictures",
            ]),
        .executableTarget(
            name: "pxbench",
            dependencies: [
                "Pixels", "Plumbing", "Decoding", "Scaling", "Encoding", "Rendering", "GraphicsReadback", "CTurboJPEG",
            ]),

        // MARK: Tests
        /// Helpers shared by test targets (a local HTTP server and the fake Pixabay on it,
        /// the pseudo-terminal opener, temp dirs, a hand-moved clock).
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "PlumbingTests", dependencies: ["Plumbing", "TestSupport"]),
        .testTarget(name: "TerminalPicturesTests", dependencies: ["TerminalPictures", "GraphicsReadback", "Pixels"]),
        .testTarget(name: "PixelsTests", dependencies: ["Pixels"]),
        .testTarget(name: "DecodingTests", dependencies: ["Decoding", "Pixels", "TestSupport"]),
        .testTarget(name: "ScalingTests", dependencies: ["Scaling", "Pixels", "GraphicsReadback"]),
        .testTarget(
            name: "EncodingTests", dependencies: ["Encoding", "Pixels", "Decoding", "Scaling", "CZlib", "GraphicsReadback"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "ControlSequences", "Plumbing", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "PixabayTests", dependencies: ["Pixabay", "HTTP", "Decoding", "TestSupport"]),
        .testTarget(name: "PhotosTests", dependencies: ["Photos", "Pixabay", "Pixels"]),
        .testTarget(
            name: "RenderingTests",
            dependencies: ["Rendering", "GraphicsReadback", "Decoding", "Scaling", "Encoding", "Pixels", "Plumbing", "Terminal"]),
        .testTarget(
            name: "ExplorerTests",
            dependencies: [
                "Explorer", "Photos", "Rendering", "Encoding", "GraphicsReadback", "Decoding", "Scaling", "Pixels", "Terminal",
                "TestSupport",
            ]),
        .testTarget(
            name: "pxviewTests",
            dependencies: ["pxview", "Photos", "TestSupport", "GraphicsReadback", "Pixels", "Plumbing", "Decoding"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets: only `scripts/fuzz.sh` builds them (it sets PXVIEW_FUZZ
// and passes `--sanitize fuzzer`, whose runtime provides `main`), so the
// normal build and tests never see them.
if Context.environment["PXVIEW_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "pxfuzz",
            dependencies: [
                "Decoding", "GraphicsReadback", "HTTP", "Pixabay", "Photos", "Terminal", "Pixels", "Rendering", "Explorer",
                // The hostile-file generators, for the `animation` target.
                "TestSupport",
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    package.products.append(.executable(name: "pxfuzz", targets: ["pxfuzz"]))
}
