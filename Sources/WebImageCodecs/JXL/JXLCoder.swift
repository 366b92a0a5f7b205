#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CJXL
import WebImageCore

/// Decodes and encodes JPEG XL over libjxl 0.7: still images (lossy, lossless, with alpha, any bit depth, shown
/// at 8 bits), animations, and progressive display of data still arriving.
///
/// ```swift
/// let coder = JXLCoder()
/// let image = try coder.decode(data, options: ImageDecodeOptions())
/// var encode = ImageEncodeOptions(quality: 0.8)
/// encode.custom[JXLCoder.effortKey] = .int(5)   // slower, smaller
/// let encoded = try coder.encode(image, as: .jpegxl, options: encode)
/// ```
///
/// libjxl 0.7 has no reduced-size decoding: thumbnails and scale-down are decoded at full size, then resampled.
/// The pixel limit therefore applies to the full size too.
///
/// A coder is a value that holds only its settings: every method may be called from any thread at the same time
/// as any other. Decoding and encoding run synchronously on the caller's thread (libjxl is given no thread
/// runner) and cannot be cancelled once started.
public struct JXLCoder: ImageCoding, ProgressiveImageCoding, AnimatedImageCoding {
    /// Creates a coder.
    public init() {}

    /// Whether `data` starts with a JPEG XL signature: a bare codestream (`FF 0A`) or the container's signature
    /// box.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .jpegxl
    }

    /// Whether `format` is JPEG XL.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpegxl
    }

    /// Decodes a JPEG XL file: a still image, or every frame of an animation (only the first with
    /// ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// The orientation the file declares is applied by libjxl unless
    /// ``ImageDecodeOptions/keepsOriginalOrientation`` is set, in which case the image reports it. Samples of
    /// more than 8 bits come out converted to 8.
    ///
    /// The limits are checked from the headers before any pixels are allocated: the frame count, the full size
    /// (which libjxl always decodes), the output, and libjxl's float planes against the decode memory budget
    /// (see ``JXLMemoryEstimate``).
    ///
    /// - Throws: `badImageData` for data that is not JPEG XL, malformed or truncated; `imageTooLarge` when the
    ///   image, or its animation, is over the limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try checkSignature(data)
        return try data.withBytes { bytes throws(WebImageError) in
            try decodeFrames(bytes, options: options)
        }
    }

    /// Reads size, alpha, orientation and, for an animation, the frame and loop counts, from the headers: libjxl
    /// walks the frame headers without decoding pixels.
    ///
    /// - Throws: `badImageData` when the headers are malformed or truncated.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        try checkSignature(data)
        let header = try data.withBytes { bytes throws(WebImageError) in
            try JXLHeader(bytes: bytes, walk: .all(keepingDurations: 0))
        }
        return ImageInfo(
            format: .jpegxl,
            pixelSize: header.size,
            frameCount: header.frameCount,
            loopCount: header.loopCount,
            hasAlpha: header.hasAlpha,
            orientation: header.orientation
        )
    }

    /// Reads the header of a still image from the first bytes of a JPEG XL file of `totalByteCount` bytes, or
    /// says how many it needs: libjxl's basic information lies in the first bytes (twice as many are asked for
    /// each time it needs more). An animation's frame count needs its frames, spread through the file: the
    /// whole data is asked for; so is it when the first bytes are not JPEG XL or are malformed, so that any
    /// failure is the one of the whole file.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        guard canDecode(prefix) else { return .needsMoreBytes(atLeast: totalByteCount) }
        let header: JXLHeader?
        do throws(WebImageError) {
            header = try prefix.withBytes { bytes throws(WebImageError) in try JXLHeader(prefix: bytes) }
        } catch {
            return .needsMoreBytes(atLeast: totalByteCount)
        }
        guard let header else {
            return .needsMoreBytes(atLeast: min(totalByteCount, max(prefix.count * 2, 64)))
        }
        guard !header.isAnimated else { return .needsMoreBytes(atLeast: totalByteCount) }
        return .complete(ImageInfo(
            format: .jpegxl,
            pixelSize: header.size,
            hasAlpha: header.hasAlpha,
            orientation: header.orientation
        ))
    }

    /// Throws `badImageData` unless `data` starts with a JPEG XL signature.
    func checkSignature(_ data: Data) throws(WebImageError) {
        guard !data.isEmpty else {
            throw .badImageData(.jpegxl, "the data is empty")
        }
        guard canDecode(data) else {
            throw .badImageData(.jpegxl, "the data starts with neither a JPEG XL codestream nor its container")
        }
    }
}
