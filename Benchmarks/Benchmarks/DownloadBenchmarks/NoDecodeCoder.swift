import Foundation
import WebImage

/// A coder that decodes nothing: any data "decodes" to the same 1 x 1 image, so that a download benchmark measures
/// the transfer and the downloader's own work, not a codec.
final class NoDecodeCoder: ImageCoding {
    static let shared = NoDecodeCoder()

    private let image: Image?

    private init() {
        image = try? Image(pixels: PixelBuffer(width: 1, height: 1, color: .white), scale: 1, format: .undefined, hasAlpha: false)
    }

    func canDecode(_ data: Data) -> Bool {
        true
    }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        guard let image else { throw .badImageData(.undefined, "the benchmark's 1 x 1 image could not be made") }
        return image
    }

    func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        throw .unsupportedFormat(format, "encode")
    }
}
