internal import CHEIF
import WebImageCore

/// What libheif's reading of the boxes says about one image (the primary image, or a thumbnail): no pixels are
/// decoded.
struct HEIFHeader {
    /// One thumbnail embedded for the image.
    struct Thumbnail {
        /// Its item ID, for `heif_image_handle_get_thumbnail`.
        var id: UInt32
        /// Its size as displayed, with its own rotation and mirroring applied.
        var size: PixelSize
    }

    /// The size as displayed: libheif applies the image's clean aperture, rotation (`irot`) and mirroring
    /// (`imir`) when it decodes, and reports the size they give.
    var size: PixelSize
    /// The size of the coded image (`ispe`), before any transformation; a grid image's whole canvas.
    var codedSize: PixelSize
    /// Bits per luma sample: 8, or 10 or 12 for HDR images (decoded to 8 bits).
    var bitDepth: Int
    /// Whether the image has an alpha plane (an auxiliary image).
    var hasAlpha: Bool
    /// The embedded thumbnails, as listed.
    var thumbnails: [Thumbnail]
    /// What libheif allocates for the image as a whole: a grid's or overlay's canvas as its descriptor gives it,
    /// which a hostile file sets above ``codedSize``; else ``codedSize``.
    var canvas: PixelSize
    /// The largest picture the HEVC decoder may be asked to hold while decoding the image: its own, its tiles' or
    /// its alpha plane's (see ``HEIFItemSizes``); nil when no parameter set was found.
    var largestCodedPicture: PixelSize?
    /// False when a descriptor or parameter set libheif would read could not be, or the image is made, through
    /// its tiles and auxiliary images, of itself: either way the decode has no bound.
    var isBounded: Bool

    /// Reads the header of image `id` of `file`, whose handle is `handle`.
    ///
    /// - Throws: `badImageData` when the size is empty or the bit depth unknown.
    init(_ handle: OpaquePointer, id: UInt32, in file: HEIFContext) throws(WebImageError) {
        let format = file.format
        let width = Int(heif_image_handle_get_width(handle))
        let height = Int(heif_image_handle_get_height(handle))
        guard width > 0, height > 0 else {
            throw .badImageData(format, "the image's header declares an empty image of \(width) x \(height)")
        }
        size = PixelSize(width: width, height: height)
        let codedWidth = Int(heif_image_handle_get_ispe_width(handle))
        let codedHeight = Int(heif_image_handle_get_ispe_height(handle))
        codedSize = codedWidth > 0 && codedHeight > 0 ? PixelSize(width: codedWidth, height: codedHeight) : size
        let luma = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        guard (1...16).contains(luma) else {
            throw .badImageData(format, "the image's header gives no valid bit depth (\(luma))")
        }
        bitDepth = luma
        hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        thumbnails = Self.thumbnails(of: handle)
        canvas = file.sizes.canvas(of: id, declared: codedSize)
        largestCodedPicture = file.sizes.largestCodedPicture(of: id)
        isBounded = file.sizes.isComplete && !file.sizes.hasReferenceCycle(from: id)
    }

    /// The most pixels libheif holds in one plane while decoding the image: its displayed size, or its canvas
    /// when that is larger.
    var allocatedPixelCount: Int {
        max(size.pixelCount, canvas.pixelCount)
    }

    /// The thumbnails embedded for the image behind `handle`, without those that cannot be opened or are empty.
    private static func thumbnails(of handle: OpaquePointer) -> [Thumbnail] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        var result: [Thumbnail] = []
        for id in ids.prefix(max(0, min(listed, count))) {
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else {
                continue
            }
            defer { heif_image_handle_release(thumbnail) }
            let width = Int(heif_image_handle_get_width(thumbnail))
            let height = Int(heif_image_handle_get_height(thumbnail))
            if width > 0, height > 0 {
                result.append(Thumbnail(id: id, size: PixelSize(width: width, height: height)))
            }
        }
        return result
    }

    /// The smallest embedded thumbnail at least `target` in both sides, for a decode to `target` that costs the
    /// thumbnail's pixels instead of the image's; nil when none is large enough.
    ///
    /// A thumbnail's aspect ratio may differ from the image's by a rounding of its sides, which resampling to
    /// `target` absorbs.
    func thumbnail(covering target: PixelSize) -> Thumbnail? {
        thumbnails
            .filter { $0.size.width >= target.width && $0.size.height >= target.height && $0.size.pixelCount < size.pixelCount }
            .min { $0.size.pixelCount < $1.size.pixelCount }
    }
}
