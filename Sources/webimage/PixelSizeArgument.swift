import ArgumentParser
import WebImage

/// `--thumbnail WxH` or `--thumbnail N` (an N x N square): the box a thumbnail decode fits inside, as every
/// command that decodes thumbnails spells it.
///
/// Each side is a whole number from 1 to ``maxSide``, the longest side an image within the default pixel limit
/// can have: a larger box can only be a mistake. The commands declare the option with
/// `@Option(transform: { try PixelSizeArgument(parsing: $0) })`, so that the reason for a refusal reaches the
/// user (``init(argument:)`` can only say nil), as a usage error.
struct PixelSizeArgument: ExpressibleByArgument, Sendable, Hashable {
    /// The largest side accepted.
    static let maxSide = ImageDecodeOptions.defaultMaxPixelCount

    /// The option's help.
    static func help(_ summary: String) -> ArgumentHelp {
        ArgumentHelp("\(summary), as 'WxH', or 'N' for N x N.", valueName: "size")
    }

    /// The box.
    let size: PixelSize

    /// Whether the box was given as one number.
    var isSquare: Bool { size.width == size.height }

    /// The box as it is named in file names and messages: `N` for a square, else `WxH`.
    var name: String { isSquare ? "\(size.width)" : "\(size.width)x\(size.height)" }

    init(_ size: PixelSize) {
        self.size = size
    }

    /// Parses `WxH` or `N`.
    ///
    /// - Throws: A `ValidationError` that says what is wrong with the text.
    init(parsing text: String) throws(ValidationError) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw ValidationError("'\(text)' is not 'WxH' or 'N'") }
        let sides = try parts.map { part throws(ValidationError) in try Self.side(String(part), in: text) }
        size = PixelSize(width: sides[0], height: sides.count == 2 ? sides[1] : sides[0])
    }

    init?(argument: String) {
        guard let parsed = try? Self(parsing: argument) else { return nil }
        self = parsed
    }

    /// One side: digits, with an optional sign so that a negative number is named as such.
    private static func side(_ part: String, in text: String) throws(ValidationError) -> Int {
        let digits = part.hasPrefix("-") || part.hasPrefix("+") ? part.dropFirst() : Substring(part)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError("'\(text)' is not 'WxH' or 'N' with whole numbers")
        }
        guard !part.hasPrefix("-"), let value = Int(digits), value >= 1 else {
            if part.hasPrefix("-") || digits.allSatisfy({ $0 == "0" }) {
                throw ValidationError("'\(text)': a side must be at least 1 pixel")
            }
            throw ValidationError("'\(text)': a side must be at most \(maxSide) pixels")
        }
        guard value <= maxSide else { throw ValidationError("'\(text)': a side must be at most \(maxSide) pixels") }
        return value
    }
}
