#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes PNG and APNG, and encodes PNG, over libpng 1.6.
///
/// ```swift
/// let coder = PNGCoder()
/// let image = try coder.decode(data)                       // every frame of an APNG
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)
/// let thumbnail = try coder.decode(data, options: options) // decoded reduced
/// let png = try coder.encode(image, as: .png, options: ImageEncodeOptions())
/// ```
///
/// - Decoding reads every colour type and bit depth, interlaced or not, into 8-bit sRGB RGBA; 16-bit files that
///   carry no gamma information are taken as sRGB. The pixel limit and the decode memory budget are checked
///   from the header before any pixels are allocated. A thumbnail or scale-down is streamed row by row into
///   the resampler, so no full-size buffer exists, whatever the source's size; an interlaced image, whose
///   passes need the whole image, is decoded into a reused scratch buffer and resampled (refused with
///   `imageTooLarge` over the pixel limit).
/// - APNG animations are composited frame by frame; ``makeAnimatedImageProvider(for:options:)`` decodes
///   frames on demand.
/// - Encoding writes 8-bit RGBA for images with alpha and 8-bit RGB for opaque ones; an animation becomes an
///   APNG (every frame covering the canvas) unless only its first frame is asked for.
///
/// Threading: a value with no state; every method may run on any thread at the same time as any other.
/// Decoding and encoding run synchronously on the caller's thread and cannot be cancelled once started.
public struct PNGCoder: ImageCoding, AnimatedImageCoding {
    /// Creates a coder.
    public init() {}

    /// Whether `data` starts with the PNG signature (APNG files start with it too).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .png
    }

    /// Whether `format` is PNG.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .png
    }

    /// Decodes a PNG, or every frame of an APNG (only the first with ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// - Parameters:
    ///   - data: A whole PNG or APNG file.
    ///   - options: Frames, size (thumbnail, scale-down limit), scale and pixel limit.
    /// - Returns: An image of format `.png`; an animation has one frame per APNG frame, each the full canvas.
    /// - Throws: `badImageData` with libpng's or the parser's message for damaged, truncated (no `IEND`) or
    ///   empty data; `imageTooLarge` when the result, or a full-size intermediate that cannot be avoided, is
    ///   over ``ImageDecodeOptions/maxPixelCount`` (an interlaced source over the limit cannot be streamed), or
    ///   when the decode's memory is over ``ImageDecodeOptions/maxDecodeMemory``: an APNG holds its canvas (and
    ///   a copy of it for frames disposed to the previous state) and every frame.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try data.withBytes { bytes throws(WebImageError) in
            let header = try PNGHeader(parsing: bytes)
            if let animation = try APNGAnimation(parsing: bytes, header: header) {
                return try decodeAnimation(animation, bytes: bytes, options: options)
            }
            try PNGChunkReader.checkComplete(bytes)
            return try decodeStill(bytes, header: header, options: options)
        }
    }

    /// Reads the size, alpha, and for an APNG the frame and loop counts, from the chunks before the image data.
    ///
    /// No pixels are decoded and libpng is not involved; the data after the first `IDAT` is not read.
    /// - Throws: `badImageData` for a missing signature or a damaged `IHDR`, `acTL` or chunk layout.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        try data.withBytes { bytes throws(WebImageError) in
            let header = try PNGHeader(parsing: bytes)
            guard case .complete(let info) = try Self.readInfo(bytes, header: header, totalCount: bytes.count) else {
                // A reader over the whole file holds every chunk header it walks.
                throw .badImageData(.png, "the chunks before the image data could not be read")
            }
            return info
        }
    }

    /// Reads the header from the first bytes of a PNG of `totalByteCount` bytes, or says how many it needs.
    ///
    /// The chunks before the first `IDAT` are walked as ``info(for:)`` walks them, but only their lengths and
    /// types are read, and the data of the few that matter (`IHDR`, `acTL`): a large text or profile chunk is
    /// passed over without being read. When the signature and `IHDR` cannot be read from the prefix, the whole
    /// data is asked for, so that any failure is the one of the whole file.
    ///
    /// - Throws: `badImageData` when a chunk before the image data is damaged.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        return try prefix.withBytes { bytes throws(WebImageError) -> ImagePrefixInfo in
            guard let header = try? PNGHeader(parsing: bytes) else { return .needsMoreBytes(atLeast: totalByteCount) }
            return try Self.readInfo(bytes, header: header, totalCount: totalByteCount)
        }
    }

    /// Walks the chunks after `IHDR` up to the first `IDAT` or `IEND` in `bytes`, the first bytes of a file of
    /// `totalCount` bytes; asks for more where a chunk it reads is not held.
    private static func readInfo(
        _ bytes: UnsafeRawBufferPointer,
        header: PNGHeader,
        totalCount: Int
    ) throws(WebImageError) -> ImagePrefixInfo {
        var reader = PNGChunkReader(bytes, totalCount: totalCount)
        _ = try reader.next()
        var hasTransparentColor = false
        var frameCount = 1
        var loopCount = 0
        while true {
            if let needed = reader.bytesNeededForNextChunk { return .needsMoreBytes(atLeast: needed) }
            guard let chunk = try reader.next() else { break }
            if chunk.type == PNGChunk.idat || chunk.type == PNGChunk.iend { break }
            if chunk.type == PNGChunk.trns {
                hasTransparentColor = true
            } else if chunk.type == PNGChunk.actl {
                guard chunk.whole.upperBound <= bytes.count else { return .needsMoreBytes(atLeast: chunk.whole.upperBound) }
                let control = try APNGAnimation.readAnimationControl(chunk, in: bytes)
                frameCount = control.frameCount
                loopCount = control.loopCount
            }
        }
        return .complete(ImageInfo(
            format: .png,
            pixelSize: header.size,
            frameCount: frameCount,
            loopCount: loopCount,
            hasAlpha: header.hasAlphaChannel || hasTransparentColor
        ))
    }
}
