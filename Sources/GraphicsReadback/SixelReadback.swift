import Encoding
import Pixels

/// A sixel decoder for checking pxview's own output: parses the DCS the
/// encoder writes (registers, raster attributes, repeats, `$`, `-`) back into
/// RGBA pixels. Never-painted pixels stay transparent (alpha 0), as on a
/// terminal honouring P2 = 1. Strict: anything unexpected is an error, so an
/// encoder bug shows up as a failed parse rather than a silently odd image.
///
/// It also reads other tools' output (pxbench scores chafa and img2sixel),
/// so it is bounded like the product's decoders: numbers of at most nine
/// digits, a raster of at most `maxSide` per side and `maxPixels` in all
/// (checked before allocating), repeats and columns within the raster.
package struct SixelDecoder {
    /// Larger than any terminal's sixel limit (XTSMGRAPHICS answers 16384 at most).
    package static let maxSide = 16384
    /// The decoders' default pixel limit.
    package static let maxPixels = 100_000_000

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package struct Result {
        package var image: RGBAImage
        /// The P2 parameter (1 = unpainted pixels transparent).
        package var backgroundSelect: Int
        package var registers: [Int: RGB]
        /// How many times any pixel was painted more than once.
        package var overpaints: Int
    }

    package static func decode(_ bytes: [UInt8]) throws -> Result {
        var reader = Reader(bytes: bytes)
        guard reader.take() == 0x1B, reader.take() == UInt8(ascii: "P") else { throw Failure(description: "no DCS introducer") }
        var parameters: [Int] = []
        while true {
            guard let byte = reader.peek() else { throw Failure(description: "truncated DCS parameters") }
            if byte == UInt8(ascii: "q") {
                reader.skip()
                break
            }
            if byte == UInt8(ascii: ";") {
                reader.skip()
                continue
            }
            guard let number = reader.number() else { throw Failure(description: "bad DCS parameter byte \(byte)") }
            parameters.append(number)
        }
        guard reader.take() == UInt8(ascii: "\"") else { throw Failure(description: "no raster attributes") }
        let raster = try reader.numberList()
        guard raster.count == 4 else { throw Failure(description: "raster attributes \(raster)") }
        let width = raster[2]
        let height = raster[3]
        guard (0...Self.maxSide).contains(width), (0...Self.maxSide).contains(height), width * height <= Self.maxPixels else {
            throw Failure(description: "raster \(width)x\(height) is over the limit")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var painted = [Bool](repeating: false, count: width * height)
        var registers: [Int: RGB] = [:]
        var current: RGB? = nil
        var x = 0
        var bandTop = 0
        var overpaints = 0

        func paint(_ sixel: UInt8, times: Int) throws {
            let bits = Int(sixel) - 63
            guard (0...63).contains(bits) else { throw Failure(description: "bad sixel byte \(sixel)") }
            guard times <= width - x else { throw Failure(description: "\(times) sixels past column \(x) of \(width)") }
            if bits != 0 {
                guard let color = current else { throw Failure(description: "sixel before any colour") }
                for column in x..<(x + times) {
                    for row in 0..<6 where bits & (1 << row) != 0 {
                        let y = bandTop + row
                        guard column < width, y < height else {
                            throw Failure(description: "paint outside \(width)x\(height) at \(column),\(y)")
                        }
                        let p = y * width + column
                        if painted[p] { overpaints += 1 }
                        painted[p] = true
                        pixels[p * 4] = color.r
                        pixels[p * 4 + 1] = color.g
                        pixels[p * 4 + 2] = color.b
                        pixels[p * 4 + 3] = 255
                    }
                }
            }
            x += times
        }

        while true {
            guard let byte = reader.take() else { throw Failure(description: "missing string terminator") }
            switch byte {
            case 0x1B:
                guard reader.take() == UInt8(ascii: "\\"), reader.peek() == nil else {
                    throw Failure(description: "ESC not followed by final backslash")
                }
                return Result(
                    image: RGBAImage(width: width, height: height, pixels: pixels),
                    backgroundSelect: parameters.count > 1 ? parameters[1] : 0,
                    registers: registers, overpaints: overpaints)
            case UInt8(ascii: "#"):
                let values = try reader.numberList()
                if values.count == 1 {
                    guard let color = registers[values[0]] else {
                        throw Failure(description: "select of undefined #\(values[0])")
                    }
                    current = color
                } else if values.count == 5, values[1] == 2 {
                    func channel(_ percent: Int) throws -> UInt8 {
                        guard (0...100).contains(percent) else { throw Failure(description: "percent \(percent)") }
                        return UInt8((percent * 255 + 50) / 100)
                    }
                    let color = RGB(r: try channel(values[2]), g: try channel(values[3]), b: try channel(values[4]))
                    registers[values[0]] = color
                    current = color
                } else {
                    throw Failure(description: "colour introducer \(values)")
                }
            case UInt8(ascii: "!"):
                guard let count = reader.number(), let sixel = reader.take() else { throw Failure(description: "bad repeat") }
                try paint(sixel, times: count)
            case UInt8(ascii: "$"):
                x = 0
            case UInt8(ascii: "-"):
                x = 0
                guard bandTop < height else { throw Failure(description: "band below the raster") }
                bandTop += 6
            case 63...126:
                try paint(byte, times: 1)
            default:
                throw Failure(description: "unexpected byte \(byte)")
            }
        }
    }
}

/// A cursor over bytes with the small number parsing both decoders need.
struct Reader {
    let bytes: [UInt8]
    package var position = 0

    mutating func take() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skip() { position += 1 }

    /// A decimal of at most nine digits; nil for none or more.
    mutating func number() -> Int? {
        var value: Int? = nil
        var digits = 0
        while let byte = peek(), (48...57).contains(byte) {
            digits += 1
            if digits > 9 { return nil }
            value = (value ?? 0) * 10 + Int(byte - 48)
            position += 1
        }
        return value
    }

    /// Numbers separated by ';', e.g. `1;1;W;H` or `n;2;r;g;b`.
    mutating func numberList() throws -> [Int] {
        var values: [Int] = []
        repeat {
            guard let value = number() else { throw SixelDecoder.Failure(description: "number expected at \(position)") }
            values.append(value)
        } while peek() == UInt8(ascii: ";")
            && {
                skip()
                return true
            }()
        return values
    }
}
