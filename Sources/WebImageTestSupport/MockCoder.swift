#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// A coder for tests: decodes data that starts with its `magic` bytes to a solid image of `color`, encodes to
/// `format` as `magic` followed by the image size, and counts its calls.
public final class MockCoder: ImageCoding, Sendable {
    public let magic: Data
    public let format: ImageFormat
    public let color: RGBAColor
    private let counts = Locked((decodes: 0, encodes: 0))

    public init(magic: String, format: ImageFormat, color: RGBAColor = .white) {
        self.magic = Data(magic.utf8)
        self.format = format
        self.color = color
    }

    /// Calls of `decode` so far.
    public var decodeCount: Int { counts.withLock { $0.decodes } }
    /// Calls of `encode` so far.
    public var encodeCount: Int { counts.withLock { $0.encodes } }

    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: magic)
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        counts.withLock { $0.decodes += 1 }
        guard canDecode(data) else { throw .badImageData(format, "missing the mock magic bytes") }
        let size = try options.targetSize(for: PixelSize(width: 8, height: 8), format: format)
        let pixels = try PixelBuffer(width: size.width, height: size.height, color: color)
        return Image(pixels: pixels, scale: options.effectiveScale, format: format, hasAlpha: color.alpha < 255)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == self.format
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        counts.withLock { $0.encodes += 1 }
        guard format == self.format else { throw .unsupportedFormat(format, "encode") }
        return magic + Data("\(image.width)x\(image.height)".utf8)
    }
}
