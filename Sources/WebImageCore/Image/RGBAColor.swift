/// A colour with 8-bit red, green, blue and alpha channels (straight alpha).
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// Creates a colour; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The four bytes in memory order R, G, B, A, read as one native-endian integer.
    package var packed: UInt32 {
        withUnsafeBytes(of: (red, green, blue, alpha)) { $0.loadUnaligned(as: UInt32.self) }
    }

    /// The largest difference between two colours over the four channels.
    public func distance(to other: RGBAColor) -> Int {
        max(
            abs(Int(red) - Int(other.red)),
            abs(Int(green) - Int(other.green)),
            abs(Int(blue) - Int(other.blue)),
            abs(Int(alpha) - Int(other.alpha))
        )
    }

    /// `#rrggbbaa` in lowercase hex.
    public var description: String {
        "#" + red.hexDigits() + green.hexDigits() + blue.hexDigits() + alpha.hexDigits()
    }
}
