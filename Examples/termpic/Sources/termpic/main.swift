// termpic PHOTO [--protocol kitty|sixel|symbols|blocks]
//
// Draws PHOTO at the cursor, fitted to the terminal's window. On a
// terminal it asks the terminal what it can show; when standard output is
// a pipe or a file it draws only with --protocol (for an 80x24 window).
import TerminalPictures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func fail(_ message: String, status: Int32) -> Never {
    let line = Array("termpic: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var chosen: PictureProtocol?
if let index = arguments.firstIndex(of: "--protocol") {
    guard index + 1 < arguments.count, let value = PictureProtocol(rawValue: arguments[index + 1]) else {
        fail("--protocol takes kitty, sixel, symbols or blocks", status: 2)
    }
    chosen = value
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 1 else { fail("usage: termpic PHOTO [--protocol kitty|sixel|symbols|blocks]", status: 2) }

let picture: Picture
do {
    picture = try Picture(contentsOfFile: arguments[0])
} catch {
    fail("\(arguments[0]): \(error)", status: 1)
}

let display: TerminalDisplay
if isatty(1) == 1 {
    display = TerminalDisplay.probe(protocol: chosen)
} else if let chosen {
    display = TerminalDisplay(protocol: chosen)
} else {
    fail("standard output is not a terminal: pass --protocol", status: 2)
}
// `write` sends every byte; inside tmux it waits for tmux to move the
// terminal's cursor before the picture.
do {
    try display.write(display.render(picture))
    if let (delayMs, bytes) = display.followUp {
        usleep(useconds_t(delayMs * 1000))
        try display.write(bytes)
    }
} catch {
    fail("\(error)", status: 1)
}
