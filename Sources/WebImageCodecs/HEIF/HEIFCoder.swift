#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CHEIF
import WebImageCore

/// Decodes HEIF and HEIC images over libheif (HEVC through libde265), and encodes HEIC where libheif has an HEVC
/// encoder.
///
/// ```swift
/// let coder = HEIFCoder()
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)   // from the embedded thumbnail when it is large enough
/// let thumbnail = try coder.decode(data, options: options)
/// if coder.canEncode(to: .heic) {
///     let encoded = try coder.encode(thumbnail, as: .heic, options: ImageEncodeOptions(quality: 0.8))
/// }
/// ```
///
/// The coder claims data that ``ImageFormat/detect(_:)-(Data)`` calls `.heic` or `.heif` from the `ftyp` box,
/// never AVIF, although libheif reads AVIF too: the AVIF coder handles that. It decodes the primary image, the
/// one a viewer shows, to RGBA with 8 bits a channel (10- and 12-bit images are reduced by libheif). The other
/// top-level images of a collection (a burst, say) follow as further frames, as SDWebImage's ImageIO coder
/// gives them, each shown for 0.1 s: ``ImageInfo/frameCount`` counts them. Image sequences (`msf1` tracks) are
/// not read by libheif 1.15: such a file decodes to its primary image when it has one.
///
/// Orientation: libheif applies the rotation (`irot`), mirroring (`imir`) and clean aperture (`clap`) of the
/// file when it decodes, and reports the size they give. These are not EXIF orientation, which HEIF files
/// carry only as metadata that viewers ignore, so the decoded image is always upright with orientation `.up`,
/// ``ImageInfo/pixelSize`` is the displayed size, and ``ImageDecodeOptions/keepsOriginalOrientation`` changes
/// nothing.
///
/// A coder is a value that holds only its settings: every method may be called from any thread at the same time
/// as any other (each call has its own libheif context). Decoding and encoding run synchronously on the caller's
/// thread, including the tiles of a grid image, and cannot be cancelled once started.
public struct HEIFCoder: ImageCoding {
    /// Creates a coder.
    public init() {}

    /// Whether `data` starts with an `ftyp` box whose brands say HEIC or HEIF (see ``ImageFormat/detect(_:)-(Data)``).
    public func canDecode(_ data: Data) -> Bool {
        Self.format(of: data) != nil
    }

    /// Whether `format` is HEIC and libheif has an HEVC encoder in this process (libheif's x265 plugin, built in
    /// or installed); asked of libheif once.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .heic && Self.hasHEVCEncoder
    }

    /// Whether libheif can encode HEVC here: `heif_have_encoder_for_format`, asked once.
    static let hasHEVCEncoder: Bool = {
        _ = HEIFLibrary.isInitialised
        return heif_have_encoder_for_format(heif_compression_HEVC) != 0
    }()

    /// Decodes the primary image of a HEIF or HEIC file to RGBA, followed by the file's other top-level images
    /// as frames (only the primary image with ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// The limits are checked from the headers before libheif decodes anything: the decoded size against
    /// ``ImageDecodeOptions/maxPixelCount`` (libheif always decodes at full size), and the decode's memory (see
    /// ``HEIFMemoryEstimate``) against ``ImageDecodeOptions/maxDecodeMemory``. Both are taken at the sizes libheif
    /// allocates, which the boxes may set above the size it reports: a grid's canvas, the HEVC decoder's pictures
    /// (see ``HEIFItemSizes``). With a thumbnail size or a
    /// scale-down limit, an embedded thumbnail at least as large as the result is decoded instead of the image,
    /// then resampled; without one, the image is decoded whole and resampled.
    ///
    /// - Throws: `badImageData` for data that is not HEIF or HEIC, malformed or truncated, or whose grid
    ///   descriptors or parameter sets cannot be read to bound the decode; `imageTooLarge` when
    ///   the image (or the thumbnail used) is over a limit, there are more images than
    ///   ``ImageDecodeOptions/maxFrameCount``, or libheif's own security limits refuse the file.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let format = try checkSignature(data)
        return try data.withBytes { bytes throws(WebImageError) in
            try HEIFContext.withPrimaryImage(bytes, format: format) { file throws(WebImageError) in
                try decodeImages(file, options: options)
            }
        }
    }

    /// Reads the primary image's displayed size and alpha, and the number of top-level images (the frames a
    /// decode gives), from the boxes; no pixels are decoded.
    ///
    /// - Throws: `badImageData` when the boxes are malformed or truncated, or there is no primary image.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        let format = try checkSignature(data)
        return try data.withBytes { bytes throws(WebImageError) in
            try HEIFContext.withPrimaryImage(bytes, format: format) { file throws(WebImageError) in
                let header = try HEIFHeader(file.primary, id: file.primaryID, in: file)
                return ImageInfo(
                    format: format,
                    pixelSize: header.size,
                    frameCount: file.topLevelImageCount,
                    hasAlpha: header.hasAlpha
                )
            }
        }
    }

    /// `.heic` or `.heif` for data of those formats, nil for anything else (AVIF included).
    static func format(of data: Data) -> ImageFormat? {
        let format = ImageFormat.detect(data)
        return format == .heic || format == .heif ? format : nil
    }

    /// The format of `data`; throws `badImageData` unless it is HEIC or HEIF.
    func checkSignature(_ data: Data) throws(WebImageError) -> ImageFormat {
        guard !data.isEmpty else {
            throw .badImageData(.heif, "the data is empty")
        }
        guard let format = Self.format(of: data) else {
            throw .badImageData(.heif, "the data does not start with an ftyp box of a HEIF or HEIC brand")
        }
        return format
    }
}
