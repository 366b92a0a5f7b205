#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Decodes and encodes GIF (GIF87a and GIF89a), still and animated, over giflib.
///
/// ```swift
/// let coder = GIFCoder()
/// let animation = try coder.decode(data)                     // every frame, composited
/// let poster = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
/// let gif = try coder.encode(animation, as: .gif, options: ImageEncodeOptions())
/// ```
///
/// Decoding walks the file record by record with giflib's low-level reader, so memory is what the result keeps
/// plus a canvas and a few rows. A first pass over the records, which skips the image data without decoding it,
/// counts the frames, so an animation over the pixel limit is refused before any frame is decoded.
///
/// - Frames are composited as browsers do: transparent pixels leave the canvas as it is; disposal 0 and 1 leave
///   the frame, 2 clears its rectangle to transparent, 3 restores what was there before. Frames are clipped to
///   the logical screen; a frame wholly outside it leaves the canvas unchanged and shares the previous frame's
///   buffer.
/// - Colour indices beyond the frame's colour table are shown as opaque black.
/// - Durations are the delays in centiseconds; delays under 0.011 s show for 0.1 s. The loop count is the
///   NETSCAPE2.0 extension's (0 = forever), or 1 (play once) when the file has none, as SDWebImage.
/// - `hasAlpha` is true when a frame has a transparent colour index, the first frame does not cover the
///   canvas, or a frame before the last clears its rectangle.
/// - A file must end with its trailer: truncated data is `badImageData`, as is a frame with no colour table.
///
/// Thumbnails and scale-down limits composite at the canvas size and resample each frame: an animation always
/// holds a full-size canvas (and a copy of it when a frame is disposed to the previous canvas), which the decode
/// memory budget must allow. A still GIF is decoded reduced row by row, without a full-size buffer, unless it
/// is interlaced; one whose logical screen is over the pixel limit is decoded that way only when its frame
/// covers the screen, and refused otherwise.
///
/// Thread-safe: the coder is a stateless value; every call works on its own state. Calls are synchronous and
/// cannot be cancelled once started.
public struct GIFCoder: ImageCoding, AnimatedImageCoding {
    /// Creates a GIF coder.
    public init() {}

    /// Whether `data` starts with a GIF signature (`GIF87a` or `GIF89a`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .gif
    }

    /// Decodes a GIF: every frame (or the first with ``ImageDecodeOptions/firstFrameOnly``), at the size the
    /// options ask for.
    ///
    /// - Parameters:
    ///   - data: The encoded GIF.
    ///   - options: First frame only, thumbnail size, scale-down limit, pixel limit, scale.
    /// - Returns: An image of format `.gif`; one frame with a duration of 0 for a still, else every frame with its
    ///   duration and the loop count.
    /// - Throws: `badImageData` for empty, malformed or truncated data; `imageTooLarge` when the frames, the
    ///   canvas or a frame larger than the canvas are over ``ImageDecodeOptions/maxPixelCount`` (every frame
    ///   counts as at least 64 pixels, for what it costs beyond its pixels), or when the canvas, its copy for
    ///   frames disposed to the previous canvas and the frames are over ``ImageDecodeOptions/maxDecodeMemory``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData(.gif, "the data is empty (0 bytes)") }
        return try data.withBytes { bytes throws(WebImageError) in
            let structure = try GIFStructure.scan(bytes, for: options)
            let frameCount = structure.frameCount
            try structure.checkFrameAreas(options)
            let target = try options.targetSize(for: structure.canvasSize, frameCount: frameCount, format: .gif)
            let hasAlpha = structure.hasAlpha
            if frameCount == 1 {
                try options.checkDecodeMemory(
                    GIFMemoryEstimate.still(canvas: structure.canvasSize, target: target, isInterlaced: structure.frames[0].isInterlaced),
                    format: .gif
                )
                let pixels = try GIFStillDecoder.decode(bytes, structure: structure, target: target, hasAlpha: hasAlpha, options: options)
                return Image(pixels: pixels, scale: options.effectiveScale, format: .gif, hasAlpha: hasAlpha)
            }
            // Frames are composited at the canvas size: that canvas is allocated whole.
            try options.checkPixelLimit(structure.canvasSize, format: .gif)
            try options.checkDecodeMemory(
                GIFMemoryEstimate.animation(structure, target: target, keptFrames: frameCount),
                format: .gif
            )
            let frames = try GIFAnimationDecoder.decode(bytes, structure: structure, frameCount: frameCount, target: target, hasAlpha: hasAlpha)
            return Image(
                frames: frames,
                loopCount: structure.loopCount,
                scale: options.effectiveScale,
                format: .gif,
                hasAlpha: hasAlpha
            )
        }
    }

    /// Reads the logical screen size, frame count, loop count and alpha from the records, without decoding any
    /// image data.
    ///
    /// - Throws: `badImageData` for empty, malformed or truncated data.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        guard !data.isEmpty else { throw .badImageData(.gif, "the data is empty (0 bytes)") }
        let structure = try data.withBytes { bytes throws(WebImageError) in try GIFStructure.scan(bytes) }
        return ImageInfo(
            format: .gif,
            pixelSize: structure.canvasSize,
            frameCount: structure.frameCount,
            loopCount: structure.frameCount > 1 ? structure.loopCount : 0,
            hasAlpha: structure.hasAlpha
        )
    }

    /// Whether `format` is `.gif`.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }

    /// Encodes `image` as a GIF: every frame (or the first with ``ImageEncodeOptions/firstFrameOnly``), each
    /// with its own colour table of at most 256 colours.
    ///
    /// Images with at most 256 colours a frame keep their exact colours; others are reduced by median cut,
    /// refined by a few Lloyd iterations, without dithering. When the image has alpha, pixels with alpha under
    /// 128 become transparent and the rest opaque; a frame is disposed to background when the frame after it has
    /// transparent pixels. Delays are whole centiseconds: a duration of 0 is written as 0 (players show 0.1 s);
    /// a positive one is rounded, at least 2 (players show 0 and 1 as 0.1 s), at most 65535. Animations carry a
    /// NETSCAPE2.0 extension with the image's loop count; the file is GIF87a when it needs no extension.
    /// ``ImageEncodeOptions/quality`` does not apply to GIF and is ignored.
    ///
    /// - Throws: `unsupportedFormat` for any format but `.gif`; `encodingFailed` for an image wider or higher
    ///   than 65535 pixels or when giflib fails.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard format == .gif else { throw .unsupportedFormat(format, "encode") }
        return try GIFEncoder.encode(image, options: options)
    }
}
