#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes and encodes JPEG with libjpeg-turbo's TurboJPEG API.
///
/// Decoding reads baseline and progressive files, greyscale, RGB, YCbCr, CMYK and YCCK. Pixels are written by
/// libjpeg straight into the image's buffer when no reduction or turn is needed. A thumbnail size or scale-down
/// limit is met with libjpeg's DCT scaling (1/8 to 1/1, the smallest factor that still covers the target) and
/// finished with a high-quality resample, so a large photo never becomes a full-size bitmap. The EXIF
/// orientation is applied (the image is upright and reports `up`) unless the options keep it.
///
/// ```swift
/// let coder = JPEGCoder()
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)
/// let thumbnail = try coder.decode(data, options: options)     // decoded at 1/8 .. 1/1, then resampled
/// let jpeg = try coder.encode(thumbnail, as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
/// ```
///
/// Bad data: a file that does not start as a JPEG, a damaged header, and a truncated file (one that ends before
/// its end-of-image marker) are `badImageData`. libjpeg's warnings about damaged pixel data fail the decode
/// too; its warnings about harmless irregularities (padding bytes before a marker, a newer JFIF version) do not.
///
/// Threading: the coder is a value with no state of its own; it may be used from any number of threads at once.
/// TurboJPEG instances, which are not thread-safe, serve one call at a time: each decode has a new decompressor,
/// so that no table left by an earlier file changes how a damaged one decodes (the same bytes always give the
/// same pixels), and encodes take compressors from a small locked pool.
/// Every call runs synchronously on the caller's thread and cannot be cancelled once started.
public struct JPEGCoder: ImageCoding {
    /// Creates a JPEG coder.
    public init() {}

    /// Whether `data` starts with the JPEG signature `FF D8 FF`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .jpeg
    }

    /// Whether `format` is JPEG.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Reads the size and EXIF orientation from the header, without decoding pixels.
    ///
    /// The size is that of the stored pixels; ``ImageInfo/uprightSize`` gives the size once turned upright.
    /// A JPEG has one frame and no alpha. Data cut after its header still gives its information.
    /// - Throws: `badImageData` when the data is not a JPEG or its header is damaged.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        guard !data.isEmpty else { throw .badImageData(.jpeg, "the data is empty") }
        return try data.withBytes { bytes throws(WebImageError) in
            let scan = try JPEGMarkerScan(bytes, extent: .header)
            let header = try TurboJPEGHandlePool.shared.withHandle(.decompressor) { handle throws(WebImageError) in
                try handle.readHeader(bytes)
            }
            return ImageInfo(
                format: .jpeg,
                pixelSize: header.size,
                frameCount: 1,
                hasAlpha: false,
                orientation: scan.orientation(in: bytes)
            )
        }
    }

    /// Reads the header from the first bytes of a JPEG of `totalByteCount` bytes, or says how many it needs.
    ///
    /// The segments are walked up to the first start-of-scan segment, as ``info(for:)`` walks them; a segment
    /// that runs past `prefix` (a large EXIF block before the frame header) asks for the bytes up to its end.
    /// Only the segments before the first scan are read, however long the file. When libjpeg cannot read the
    /// header from the prefix, the whole data is asked for, so that any failure is the one of the whole file.
    ///
    /// - Throws: `badImageData` when the data does not start as a JPEG or a segment before the first scan is
    ///   damaged.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        return try prefix.withBytes { bytes throws(WebImageError) -> ImagePrefixInfo in
            let scan = try JPEGMarkerScan(bytes, extent: .header, totalByteCount: totalByteCount)
            if let needed = scan.bytesNeeded { return .needsMoreBytes(atLeast: needed) }
            let header: TurboJPEGHandle.Header
            do throws(WebImageError) {
                header = try TurboJPEGHandlePool.shared.withHandle(.decompressor) { handle throws(WebImageError) in
                    try handle.readHeader(bytes)
                }
            } catch {
                return .needsMoreBytes(atLeast: totalByteCount)
            }
            return .complete(ImageInfo(
                format: .jpeg,
                pixelSize: header.size,
                frameCount: 1,
                hasAlpha: false,
                orientation: scan.orientation(in: bytes)
            ))
        }
    }

    /// Decodes `data` to an upright RGBA image (alpha 255), reduced as the options ask.
    ///
    /// - Parameters:
    ///   - data: A complete JPEG file.
    ///   - options: The thumbnail size or scale-down limit (met by DCT scaling, then resampling), the pixel
    ///     limit (applied to what is allocated: the full size without a reduction, the DCT-scaled size with one),
    ///     whether to keep the stored orientation, the scale to report.
    /// - Throws: `badImageData` for data that is not a complete, readable JPEG; `imageTooLarge` when the decode
    ///   would be over ``ImageDecodeOptions/maxPixelCount``, found from the header before any pixel memory is
    ///   allocated.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData(.jpeg, "the data is empty") }
        return try data.withBytes { bytes throws(WebImageError) in
            try decodeImage(bytes, options: options)
        }
    }

    /// Encodes the first frame of `image` as a baseline JPEG.
    ///
    /// - Parameters:
    ///   - image: The image; an animation gives its first frame. Transparent pixels are laid over
    ///     ``ImageEncodeOptions/backgroundColor`` when the image has alpha.
    ///   - format: Must be `.jpeg`.
    ///   - options: ``ImageEncodeOptions/quality`` 0...1 becomes libjpeg's quality 1...100 (1 gives 100); at 0.9
    ///     and above colour is kept at full resolution (4:4:4), below it is halved both ways (4:2:0), which
    ///     makes photographs much smaller at little visible cost. ``ImageEncodeOptions/maxPixelSize`` scales the
    ///     image down first. ``ImageEncodeOptions/maxFileSize`` replaces the quality with a search for the
    ///     highest quality that fits, then for the largest size that fits at
    ///     ``ImageEncodeOptions/fileSizeQualityFloor``; when nothing fits, the smallest file made is returned.
    /// - Throws: `unsupportedFormat` for a format other than JPEG; `encodingFailed` with TurboJPEG's message.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard canEncode(to: format) else { throw .unsupportedFormat(format, "encode") }
        return try encodeImage(image, options: options)
    }
}
