#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes and encodes images of one or more formats.
///
/// Coders are values shared between threads: every method may be called from any thread, at the same time as
/// any other. A coder keeps no state between calls beyond what it guards itself. Decoding and encoding run
/// synchronously on the caller's thread and cannot be cancelled once started; call them from a decode queue.
///
/// Every failure is a ``WebImageError``: `badImageData` for malformed data (the message names the format and
/// what was wrong), `imageTooLarge` for images over the pixel limit, `unsupportedFormat` for formats the coder
/// does not handle.
public protocol ImageCoding: Sendable {
    /// Whether this coder can decode `data`, judged from its leading bytes.
    func canDecode(_ data: Data) -> Bool

    /// Decodes `data` to an image.
    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image

    /// Reads the header: format, size, frames, loop count, alpha, orientation; no pixels are decoded.
    func info(for data: Data) throws(WebImageError) -> ImageInfo

    /// Reads the header from `prefix`, the first bytes of data that are `totalByteCount` bytes long, or says how
    /// many bytes from the start it needs (``ImagePrefixInfo/needsMoreBytes(atLeast:)``).
    ///
    /// The result is the one ``info(for:)`` gives for the whole data: a coder answers
    /// ``ImagePrefixInfo/complete(_:)`` only when the bytes it has not seen cannot change the header, and throws
    /// only an error the whole data would throw too; when unsure, it asks for the whole data. When `prefix` holds
    /// all `totalByteCount` bytes the answer is ``info(for:)``'s. The default asks for the whole data.
    func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo

    /// The coder that decodes `data`: a single coder answers itself, a composite (``ImageCoderRegistry``) the one
    /// of its coders that would, or nil when none would.
    func decoder(for data: Data) -> (any ImageCoding)?

    /// Whether this coder can encode to `format`.
    func canEncode(to format: ImageFormat) -> Bool

    /// Encodes `image` as `format`.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data
}

extension ImageCoding {
    /// This coder itself.
    public func decoder(for data: Data) -> (any ImageCoding)? {
        self
    }

    /// Reads the header by decoding the first frame; coders override this with a header-only read.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        let image = try decode(data, options: ImageDecodeOptions(firstFrameOnly: true, keepsOriginalOrientation: true))
        return ImageInfo(
            format: image.format,
            pixelSize: image.pixelSize,
            hasAlpha: image.hasAlpha,
            orientation: image.orientation
        )
    }

    /// Reads the header of the whole data only: ``info(for:)`` once `prefix` holds all `totalByteCount` bytes,
    /// else a request for them.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        return .needsMoreBytes(atLeast: totalByteCount)
    }

    /// Decodes with the default options.
    public func decode(_ data: Data) throws(WebImageError) -> Image {
        try decode(data, options: ImageDecodeOptions())
    }

    /// The format to encode `image` as when the caller names none: the image's own format when this coder
    /// encodes it, else GIF for an animation, PNG for an image with alpha, JPEG otherwise.
    public func encodingFormat(for image: Image) -> ImageFormat {
        if image.format != .undefined, canEncode(to: image.format) { return image.format }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }
}

extension Image {
    /// The frames an encoder writes for `options`: only the first when ``ImageEncodeOptions/firstFrameOnly`` is
    /// set (or the format cannot animate), every frame of an animation decoded on demand otherwise, each scaled down to fit ``ImageEncodeOptions/maxPixelSize``.
    ///
    /// Frames that shared a buffer still share one after scaling.
    package func framesForEncoding(_ options: ImageEncodeOptions, animated: Bool) throws(WebImageError) -> [ImageFrame] {
        let source = options.firstFrameOnly || !animated ? [frames[0]] : try withAllFrames().frames
        guard let limit = options.maxPixelSize, !limit.isEmpty else { return source }
        let target = pixelSize.scaled(toFit: limit, preserveAspectRatio: true)
        guard target != pixelSize else { return source }
        var scaled: [ObjectIdentifier: PixelBuffer] = [:]
        var result: [ImageFrame] = []
        for frame in source {
            let key = ObjectIdentifier(frame.pixels)
            if scaled[key] == nil {
                scaled[key] = try frame.pixels.resampled(to: target, hasAlpha: hasAlpha)
            }
            result.append(ImageFrame(pixels: scaled[key]!, duration: frame.duration))
        }
        return result
    }
}
