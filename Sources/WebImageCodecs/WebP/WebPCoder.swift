#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebP
import WebImageCore

/// Decodes and encodes WebP over libwebp: still images (lossy, lossless, with alpha), animations, thumbnails
/// through libwebp's scaled decoding, and progressive display of data still arriving.
///
/// ```swift
/// let coder = WebPCoder()
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)   // scaled by libwebp while decoding
/// let thumbnail = try coder.decode(data, options: options)
/// let encoded = try coder.encode(thumbnail, as: .webp, options: ImageEncodeOptions(quality: 0.8))
/// ```
///
/// A coder is a value that holds only its settings: every method may be called from any thread at the same time
/// as any other. Decoding and encoding run synchronously on the caller's thread and cannot be cancelled once
/// started.
public struct WebPCoder: ImageCoding, ProgressiveImageCoding, AnimatedImageCoding {
    /// Creates a coder.
    ///
    /// Animations are limited by ``ImageDecodeOptions/maxFrameCount``, which matters more here than for other
    /// formats: libwebp's demuxer finds a frame by walking its list of frames from the first, so going through
    /// `n` frames costs `n * n / 2` steps. Ten thousand frames take a fraction of a second; a hostile file of a
    /// million one-pixel frames would take hours.
    public init() {}

    /// Whether `data` starts with a WebP signature (`RIFF`, a size, `WEBP`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .webp
    }

    /// Whether `format` is WebP.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Decodes a WebP file: a still image, or every frame of an animation (only the first with
    /// ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// The limits are checked from the headers before any pixels are allocated.
    ///
    /// Still images are decoded straight into the image's buffer, scaled by libwebp when a thumbnail or
    /// scale-down is asked for. Opaque lossy images are decoded row by row, so one over the pixel limit is
    /// decoded reduced when a reduction was asked for; lossless images and images with alpha make libwebp hold a
    /// full-size plane, whose size must be within the limit.
    ///
    /// Animation frames are composited by libwebp on its canvas (which must be within the pixel limit) and each
    /// is copied, or resampled, once into its frame; at full size, frames that leave the canvas unchanged share
    /// the previous frame's buffer.
    ///
    /// - Throws: `badImageData` for data that is not WebP, malformed or truncated; `imageTooLarge` when the
    ///   result, or a full-size plane libwebp needs (an animation's canvas, a lossless image), is over
    ///   ``ImageDecodeOptions/maxPixelCount``, or an animation has more frames than
    ///   ``ImageDecodeOptions/maxFrameCount``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try checkSignature(data)
        return try data.withBytes { bytes throws(WebImageError) in
            let features = try WebPFeatures(bytes: bytes)
            if features.isAnimated {
                return try decodeAnimation(data, bytes: bytes, options: options)
            }
            return try decodeStill(bytes, features: features, options: options)
        }
    }

    /// Reads size, alpha, and for an animation the frame and loop counts, from the headers and the container;
    /// no pixels are decoded.
    ///
    /// - Throws: `badImageData` when the headers or the animation container are malformed or truncated.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        try checkSignature(data)
        return try data.withBytes { bytes throws(WebImageError) in
            let features = try WebPFeatures(bytes: bytes)
            guard features.isAnimated else {
                return ImageInfo(format: .webp, pixelSize: features.size, hasAlpha: features.hasAlpha)
            }
            // Reading frames costs quadratic time: read as many as a decode may by default, for the alpha.
            let header = try WebPAnimationHeader(bytes: bytes) { _, frameCount in
                min(frameCount, ImageDecodeOptions.defaultMaxFrameCount)
            }
            return ImageInfo(
                format: .webp,
                pixelSize: header.canvasSize,
                frameCount: header.frameCount,
                loopCount: header.loopCount,
                hasAlpha: header.hasAlpha
            )
        }
    }

    /// Reads the header of a still image from the first bytes of a WebP of `totalByteCount` bytes, or says how many
    /// it needs.
    ///
    /// libwebp reads a still image's size and alpha from the chunks at the start of the file: every chunk before
    /// the image's bitstream (a colour profile, the alpha plane), read whole, and the bitstream's first bytes.
    /// The chunks are walked to find how many bytes that is, and asked for until they are there. An animation's
    /// frame count needs its frames, spread through the file: the whole data is asked for. So is it when the
    /// chunks do not add up or libwebp cannot read the headers, so that any failure is the one of the whole
    /// file.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        guard canDecode(prefix) else { return .needsMoreBytes(atLeast: totalByteCount) }
        let extent = prefix.withUnsafeBytes { WebPFeatures.headerExtent($0, totalCount: totalByteCount) }
        switch extent {
        case .wholeFile:
            return .needsMoreBytes(atLeast: totalByteCount)
        case .atLeast(let count):
            return .needsMoreBytes(atLeast: count)
        case .bytes(let count) where count > prefix.count:
            return .needsMoreBytes(atLeast: count)
        case .bytes:
            break
        }
        let features: WebPFeatures?
        do throws(WebImageError) {
            features = try prefix.withBytes { bytes throws(WebImageError) in try WebPFeatures(prefix: bytes) }
        } catch {
            return .needsMoreBytes(atLeast: totalByteCount)
        }
        guard let features, !features.isAnimated else { return .needsMoreBytes(atLeast: totalByteCount) }
        return .complete(ImageInfo(format: .webp, pixelSize: features.size, hasAlpha: features.hasAlpha))
    }

    /// Throws `badImageData` unless `data` starts with the WebP signature.
    func checkSignature(_ data: Data) throws(WebImageError) {
        guard !data.isEmpty else {
            throw .badImageData(.webp, "the data is empty")
        }
        guard canDecode(data) else {
            throw .badImageData(.webp, "the data does not start with a RIFF header of type WEBP")
        }
    }
}
