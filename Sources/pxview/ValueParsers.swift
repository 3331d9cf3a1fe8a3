import Pixels
import Rendering
import Terminal

/// Parsers for option values. Each throws a `UsageError` naming the option
/// and the bad value, so `pxview show --size 80` says what was expected.
enum ValueParser {
    /// `WxH` with positive integers, e.g. `800x600`, each at most `limit`:
    /// a box no terminal can show would only make pxview allocate gigabytes.
    static func size(
        _ text: String, option: String, command: String, limit: Int = 16384, example: String = "800x600"
    ) throws(UsageError) -> PixelSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
            throw UsageError(
                message:
                    "\(option) expects WxH with positive whole numbers, like \(example) (got '\(TerminalText.sanitize(text))')",
                command: command)
        }
        guard w <= limit, h <= limit else {
            throw UsageError(
                message: "\(option) is at most \(limit)x\(limit) (got '\(TerminalText.sanitize(text))')", command: command)
        }
        return PixelSize(width: w, height: h)
    }

    /// A finite number in `range`, e.g. `--zoom 2` or `--zoom 1.5`.
    static func number(_ text: String, in range: ClosedRange<Double>, option: String, command: String) throws(UsageError)
        -> Double
    {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(
                message: "\(option) expects a number from \(format(range.lowerBound)) to \(format(range.upperBound))"
                    + " (got '\(TerminalText.sanitize(text))')",
                command: command)
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A positive whole number, e.g. `--max-pixels 50000000`.
    static func positiveInteger(_ text: String, option: String, command: String) throws(UsageError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError(
                message: "\(option) expects a positive whole number (got '\(TerminalText.sanitize(text))')", command: command)
        }
        return value
    }

    /// `X,Y` fractions in 0...1, e.g. `--center 0.25,0.5`.
    static func center(_ text: String, option: String, command: String) throws(UsageError) -> (x: Double, y: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
            (0...1).contains(x), (0...1).contains(y)
        else {
            throw UsageError(
                message: "\(option) expects X,Y fractions between 0 and 1, like 0.5,0.5 (got '\(TerminalText.sanitize(text))')",
                command: command)
        }
        return (x, y)
    }

    /// One of a fixed set of words, e.g. `--fit contain|cover|down`.
    static func choice<T: RawRepresentable>(
        _ text: String, option: String, command: String, as type: T.Type = T.self
    ) throws(UsageError) -> T where T.RawValue == String, T: CaseIterable {
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: "|")
            throw UsageError(
                message: "\(option) expects \(allowed) (got '\(TerminalText.sanitize(text))')", command: command)
        }
        return value
    }
}

/// A switch an environment variable turns on (`1`) or off (`0`).
enum OnOff: String, CaseIterable {
    case on = "1"
    case off = "0"
}
