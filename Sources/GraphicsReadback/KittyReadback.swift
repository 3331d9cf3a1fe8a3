import CZlib
import Decoding
import Foundation
import Pixels

/// A kitty graphics decoder for checking pxview's own output: splits the
/// APC commands, joins chunked payloads, base64-decodes, inflates `o=z`
/// data or decodes the PNG of `f=100`, and rebuilds the RGBA image.
package struct KittyDecoder {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package struct Command: Equatable {
        package var keys: [String: String]
        /// Keys in the order written, to check which ones a chunk carries.
        package var keyOrder: [String]
        package var payload: [UInt8]
    }

    /// Every `ESC _ G keys[;payload] ESC \` in `bytes`; anything else is an error.
    package static func commands(_ bytes: [UInt8]) throws -> [Command] {
        var commands: [Command] = []
        var i = 0
        while i < bytes.count {
            guard bytes.count - i >= 3, bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G")
            else {
                throw Failure(description: "no APC G at \(i)")
            }
            i += 3
            var end = i
            while end + 1 < bytes.count && !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            guard end + 1 < bytes.count else { throw Failure(description: "unterminated APC") }
            let body = bytes[i..<end]
            let split = body.firstIndex(of: UInt8(ascii: ";")) ?? end
            let keyText = String(decoding: body[i..<split], as: UTF8.self)
            var keys: [String: String] = [:]
            var order: [String] = []
            for pair in keyText.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw Failure(description: "bad key \(pair)") }
                keys[String(parts[0])] = String(parts[1])
                order.append(String(parts[0]))
            }
            let payload = split < end ? Array(body[(split + 1)..<end]) : []
            commands.append(Command(keys: keys, keyOrder: order, payload: payload))
            i = end + 2
        }
        return commands
    }

    /// The image carried by a transmission (first command `a=t` or `a=T`).
    package static func image(_ bytes: [UInt8]) throws -> (image: RGBAImage, commands: [Command]) {
        let commands = try commands(bytes)
        guard let first = commands.first else { throw Failure(description: "no commands") }
        // Each chunk is decoded on its own, as kitty does: a chunk is a
        // multiple of 4 base64 bytes, and some writers (chafa) pad every chunk.
        var data: [UInt8] = []
        for (n, command) in commands.enumerated() {
            if !command.payload.isEmpty {
                guard let decoded = Data(base64Encoded: Data(command.payload)) else {
                    throw Failure(description: "bad base64 in chunk \(n)")
                }
                data += decoded
            }
            let more = command.keys["m"] == "1"
            if !more {
                guard n == commands.count - 1 else { throw Failure(description: "data after the last chunk") }
            } else if n == commands.count - 1 {
                throw Failure(description: "last chunk says m=1")
            }
        }
        switch first.keys["f"] {
        case "100":
            // The same libpng path pxview reads PNG files with.
            do {
                return (try decodeImage(data).image, commands)
            } catch {
                throw Failure(description: "PNG payload: \(error)")
            }
        case "24", "32":
            let channels = first.keys["f"] == "24" ? 3 : 4
            guard let width = first.keys["s"].flatMap({ Int($0) }), let height = first.keys["v"].flatMap({ Int($0) }) else {
                throw Failure(description: "missing s/v")
            }
            // Bounded like the sixel reader, before anything is allocated.
            guard (1...SixelDecoder.maxSide).contains(width), (1...SixelDecoder.maxSide).contains(height),
                width * height <= SixelDecoder.maxPixels
            else { throw Failure(description: "size \(width)x\(height) is over the limit") }
            let raw = first.keys["o"] == "z" ? try inflate(data, expected: width * height * channels) : data
            guard raw.count == width * height * channels else { throw Failure(description: "size \(raw.count)") }
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for p in 0..<(width * height) {
                for c in 0..<channels { pixels[p * 4 + c] = raw[p * channels + c] }
            }
            return (RGBAImage(width: width, height: height, pixels: pixels), commands)
        default:
            throw Failure(description: "format \(first.keys["f"] ?? "none")")
        }
    }

    package static func inflate(_ data: [UInt8], expected: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected)
        var outputCount = uLongf(expected)
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &outputCount, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(outputCount) == expected else {
            throw Failure(description: "inflate failed: status \(status), \(outputCount) of \(expected) bytes")
        }
        return output
    }
}

/// A PNG taken apart as a decoder would, strictly: every chunk's CRC-32
/// checked, and the IDATs joined and inflated by zlib, which checks the
/// stream's Adler-32 and that it ends exactly. Tests check pxview's kitty
/// PNGs with it (libpng alone forgives some of this).
package struct PNGStructure {
    /// Chunk types in order (`IHDR`, `IDAT`…, `IEND`).
    package var chunkTypes: [String]
    package var width: Int
    package var height: Int
    /// 2 (RGB) or 6 (RGBA) for pxview's.
    package var colourType: UInt8
    /// The inflated image data: each row's filter type byte, then the row.
    package var scanlines: [UInt8]

    package init(_ png: [UInt8]) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 8, Array(png[0..<8]) == signature else { throw KittyDecoder.Failure(description: "no PNG signature") }
        var types: [String] = []
        var header: [UInt8] = []
        var data: [UInt8] = []
        var offset = 8
        while offset < png.count {
            guard png.count - offset >= 12 else { throw KittyDecoder.Failure(description: "chunk cut short at \(offset)") }
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { throw KittyDecoder.Failure(description: "chunk past the end") }
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let stored = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let computed = typeAndData.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let type = String(decoding: typeAndData[0..<4], as: UTF8.self)
            guard stored == computed else { throw KittyDecoder.Failure(description: "\(type) CRC") }
            types.append(type)
            if type == "IHDR" { header = Array(typeAndData[4...]) }
            if type == "IDAT" { data += typeAndData[4...] }
            offset += 12 + length
        }
        guard header.count == 13 else { throw KittyDecoder.Failure(description: "no IHDR") }
        chunkTypes = types
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        colourType = header[9]
        let channels = colourType == 6 ? 4 : 3
        scanlines = try KittyDecoder.inflate(data, expected: height * (1 + width * channels))
    }
}
