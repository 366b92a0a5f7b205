#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// A progressive coder for tests: data is `PROG` followed by one byte per row of a ``width`` × ``height`` image;
/// the whole image needs every row, and a partial decode of fewer rows gives an image of the full size marked
/// incremental. Counts its decodes and its incremental decoders.
public final class MockProgressiveCoder: ProgressiveImageCoding, Sendable {
    public static let width = 4
    public static let height = 4
    static let magic = Data("PROG".utf8)

    private let counts = Locked((decodes: 0, partialDecoders: 0))

    public init() {}

    /// The magic and `rows` rows: the whole image with ``height`` rows.
    public static func prefix(rows: Int) -> Data {
        magic + Data(repeating: 0x80, count: rows)
    }

    /// Calls of `decode` so far.
    public var decodeCount: Int { counts.withLock { $0.decodes } }
    /// Incremental decoders made so far.
    public var incrementalDecoderCount: Int { counts.withLock { $0.partialDecoders } }

    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: Self.magic)
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        counts.withLock { $0.decodes += 1 }
        guard canDecode(data), data.count >= Self.magic.count + Self.height else {
            throw .badImageData(.png, "a mock progressive image needs its magic and \(Self.height) rows")
        }
        return try Self.image(rows: Self.height)
    }

    public func canEncode(to format: ImageFormat) -> Bool { false }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        throw .unsupportedFormat(format, "encode")
    }

    public func canDecodeIncrementally(_ data: Data) -> Bool {
        data.starts(with: Self.magic)
    }

    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        counts.withLock { $0.partialDecoders += 1 }
        return Decoder()
    }

    static func image(rows: Int) throws(WebImageError) -> Image {
        let pixels = try PixelBuffer(width: width, height: height, color: .white)
        let image = Image(pixels: pixels, format: .png, hasAlpha: false)
        return rows < height ? image.markedIncremental() : image
    }

    private final class Decoder: IncrementalImageDecoding {
        private let rows = Locked(0)

        func update(_ data: Data, isFinished: Bool) {
            let count = min(max(data.count - MockProgressiveCoder.magic.count, 0), MockProgressiveCoder.height)
            rows.withLock { $0 = count }
        }

        func currentImage() -> Image? {
            let rows = rows.withLock { $0 }
            guard rows > 0 else { return nil }
            return try? MockProgressiveCoder.image(rows: rows)
        }
    }
}
