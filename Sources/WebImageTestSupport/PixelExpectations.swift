import Testing
import WebImageCore

/// A colour expected at a place in an image, with a tolerance for lossy formats.
public struct ExpectedPixel: Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var color: RGBAColor

    public init(x: Int, y: Int, _ color: RGBAColor) {
        self.x = x
        self.y = y
        self.color = color
    }

    public var description: String { "(\(x), \(y)) \(color)" }
}

extension RGBAColor {
    public static let red = RGBAColor(red: 255, green: 0, blue: 0)
    public static let green = RGBAColor(red: 0, green: 255, blue: 0)
    public static let blue = RGBAColor(red: 0, green: 0, blue: 255)
    public static let yellow = RGBAColor(red: 255, green: 255, blue: 0)
}

/// Records a test issue for every pixel of `pixels` whose colour is further than `tolerance` from `expected`.
/// When `ignoringColorOfTransparent` is set, fully transparent pixels compare on alpha only.
public func expectPixels(
    _ pixels: PixelBuffer,
    _ expected: [ExpectedPixel],
    tolerance: Int = 0,
    ignoringColorOfTransparent: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for e in expected {
        guard e.x >= 0, e.x < pixels.width, e.y >= 0, e.y < pixels.height else {
            Issue.record("pixel \(e) is outside \(pixels.width) x \(pixels.height)", sourceLocation: sourceLocation)
            continue
        }
        let actual = pixels[x: e.x, y: e.y]
        if ignoringColorOfTransparent, e.color.alpha == 0 {
            #expect(actual.alpha <= UInt8(min(255, tolerance)), "pixel (\(e.x), \(e.y)) is \(actual), expected transparent", sourceLocation: sourceLocation)
            continue
        }
        #expect(
            actual.distance(to: e.color) <= tolerance,
            "pixel (\(e.x), \(e.y)) is \(actual), expected \(e.color) ± \(tolerance)",
            sourceLocation: sourceLocation
        )
    }
}

/// The points at the centres of the four quadrants of a `size` image, top-left, top-right, bottom-left, bottom-right.
public func quadrantCenters(_ size: PixelSize) -> [(x: Int, y: Int)] {
    let w = size.width
    let h = size.height
    return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
}

/// The four quadrant centres of `pixels` paired with the colours expected there.
public func quadrants(_ size: PixelSize, _ colors: [RGBAColor]) -> [ExpectedPixel] {
    zip(quadrantCenters(size), colors).map { ExpectedPixel(x: $0.0.x, y: $0.0.y, $0.1) }
}
