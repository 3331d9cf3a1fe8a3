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

func emit(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { fail("cannot write to standard output", status: 1) }
        offset += written
    }
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
emit(display.render(picture))
if let (delayMs, bytes) = display.followUp {
    usleep(useconds_t(delayMs * 1000))
    emit(bytes)
}
