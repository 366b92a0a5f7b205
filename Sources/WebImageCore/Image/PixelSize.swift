/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square size.
    public init(square side: Int) {
        self.init(width: side, height: side)
    }

    /// The zero size.
    public static let zero = PixelSize(width: 0, height: 0)

    /// `width * height`, saturating at `Int.max`.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// Whether either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The size with width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width) x \(height)" }
}
