#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Decodes and encodes AVIF over libavif: still images at 8, 10 and 12 bits, with alpha, turned upright for their
/// `irot`/`imir` transforms, and image sequences (`avis`) as animations, whole or frame by frame.
///
/// ```swift
/// let coder = AVIFCoder()
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)   // decoded at full size, then resampled
/// let thumbnail = try coder.decode(data, options: options)
/// let encoded = try coder.encode(thumbnail, as: .avif, options: ImageEncodeOptions(quality: 0.7))
/// ```
///
/// libavif (0.11) decodes only at full size: a thumbnail costs a full-size decode followed by a resample, and
/// the full size must be within ``ImageDecodeOptions/maxPixelCount``. It does not read a sequence's loop count
/// either: every animation plays forever. The clean aperture (`clap`) and pixel aspect ratio (`pasp`) are not
/// applied.
///
/// A coder is a value that holds only its settings: every method may be called from any thread at the same time
/// as any other. Decoding and encoding run synchronously on the caller's thread, on that thread alone, and cannot
/// be cancelled once started.
public struct AVIFCoder: ImageCoding, AnimatedImageCoding {
    /// The encoder speed used unless another is given to ``init(encoderSpeed:)``: 8, fast enough for a server
    /// to encode on request.
    public static let defaultEncoderSpeed = 8

    /// The encoder's speed, from 0 (slowest, smallest files) to 10 (fastest).
    public let encoderSpeed: Int

    /// Creates a coder.
    ///
    /// - Parameter encoderSpeed: The AV1 encoder's speed, from 0 (slowest, smallest files) to 10 (fastest);
    ///   clamped to that range.
    public init(encoderSpeed: Int = AVIFCoder.defaultEncoderSpeed) {
        self.encoderSpeed = min(10, max(0, encoderSpeed))
    }

    /// Whether `data` starts with a file type box whose brands include `avif` or `avis`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .avif
    }

    /// Whether `format` is AVIF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .avif
    }

    /// Decodes an AVIF file: a still image, or every frame of an image sequence (only the first with
    /// ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// The limits are checked from the container before any AV1 data is decoded: the full-size frame libavif
    /// converts must be within the pixel limit, and so must the output over all frames; the frame count within
    /// ``ImageDecodeOptions/maxFrameCount``; the decoded planes, the full-size frame, the output and the
    /// resampler's scratch within the decode memory budget. The pixels are turned upright for the `irot`/`imir`
    /// transforms unless ``ImageDecodeOptions/keepsOriginalOrientation`` is set.
    ///
    /// - Throws: `badImageData` for data that is not AVIF, malformed or truncated; `imageTooLarge` over the
    ///   limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try checkSignature(data)
        let decoder = try AVIFDecoder(copying: data)
        let plan = try AVIFDecodePlan(header: decoder.header, fileByteCount: data.count, holding: .allFrames, options: options)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(plan.frames)
        for index in 0..<plan.frames {
            let pixels = try decoder.nextFrame(plan)
            let duration = plan.frames > 1 ? ImageFrame.normalizedDuration(decoder.duration(ofFrameAt: index)) : 0
            frames.append(ImageFrame(pixels: pixels, duration: duration))
        }
        return Image(
            frames: frames,
            scale: options.effectiveScale,
            format: .avif,
            hasAlpha: decoder.header.hasAlpha,
            orientation: plan.reportedOrientation
        )
    }

    /// Reads size, bit depth, alpha, orientation and frame count from the container; no AV1 data is decoded.
    ///
    /// The loop count is 0 (forever): libavif 0.11 does not read it.
    ///
    /// - Throws: `badImageData` when the container is malformed or truncated.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        try checkSignature(data)
        let header = try AVIFDecoder(copying: data).header
        return ImageInfo(
            format: .avif,
            pixelSize: header.size,
            frameCount: header.frameCount,
            hasAlpha: header.hasAlpha,
            orientation: header.orientation
        )
    }

    /// Throws `badImageData` unless `data` starts with an AVIF file type box.
    func checkSignature(_ data: Data) throws(WebImageError) {
        guard !data.isEmpty else {
            throw .badImageData(.avif, "the data is empty")
        }
        guard canDecode(data) else {
            throw .badImageData(.avif, "the data does not start with a file type box of brand avif or avis")
        }
    }
}
