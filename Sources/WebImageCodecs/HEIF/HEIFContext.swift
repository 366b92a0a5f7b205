internal import CHEIF
import WebImageCore

/// A file parsed by libheif, for the length of one closure: its context and the handle of its primary image.
///
/// libheif reads the boxes straight from the caller's bytes (`heif_context_read_from_memory_without_copy`), so
/// the bytes, the context and the handle live exactly as long as the closure. Tiles of a grid image are decoded
/// on the calling thread (`heif_context_set_max_decoding_threads(0)`): decodes already run on a bounded decode
/// queue, and a decode must not start threads of its own behind its back.
struct HEIFContext {
    /// The context: owned by ``withPrimaryImage(_:format:_:)``, freed when its closure returns.
    let context: OpaquePointer
    /// The primary image's handle: released when the closure returns.
    let primary: OpaquePointer
    /// The format named in errors and given to images: `.heic` or `.heif`.
    let format: ImageFormat
    /// The primary image's item ID.
    let primaryID: UInt32
    /// The sizes libheif allocates that its API does not report, read from the same bytes.
    let sizes: HEIFItemSizes

    /// Parses `bytes` and calls `body` with the context and the primary image's handle.
    ///
    /// - Throws: `badImageData` when libheif cannot read the boxes or the file has no primary image;
    ///   `imageTooLarge` when libheif's own security limits refuse it (a side over its limit, boxes that would
    ///   make it allocate too much).
    static func withPrimaryImage<R>(
        _ bytes: UnsafeRawBufferPointer,
        format: ImageFormat,
        _ body: (HEIFContext) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        _ = HEIFLibrary.isInitialised
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .badImageData(format, "the data is empty")
        }
        guard let context = heif_context_alloc() else {
            throw WebImageError(.imageTooLarge, "\(format.name.uppercased()): libheif could not allocate a context")
        }
        defer { heif_context_free(context) }
        heif_context_set_max_decoding_threads(context, 0)
        let read = heif_context_read_from_memory_without_copy(context, base, bytes.count, nil)
        try HEIFLibrary.check(read, .decoding, format: format, while: "reading the file's boxes")

        var handle: OpaquePointer?
        let primary = heif_context_get_primary_image_handle(context, &handle)
        try HEIFLibrary.check(primary, .decoding, format: format, while: "finding the primary image")
        guard let handle else {
            throw HEIFLibrary.failure("the file has no primary image", .decoding, format: format, while: "finding the primary image")
        }
        defer { heif_image_handle_release(handle) }
        var primaryID: heif_item_id = 0
        let primaryIDError = heif_context_get_primary_image_ID(context, &primaryID)
        try HEIFLibrary.check(primaryIDError, .decoding, format: format, while: "finding the primary image")
        return try body(
            HEIFContext(context: context, primary: handle, format: format, primaryID: primaryID, sizes: HEIFItemSizes(bytes))
        )
    }

    /// The number of top-level images: the primary image and any others shown on their own, but not the
    /// thumbnails, alpha planes, depth maps or grid tiles. At least 1, since the primary image is one.
    var topLevelImageCount: Int {
        max(1, Int(heif_context_get_number_of_top_level_images(context)))
    }

    /// The IDs of the top-level images other than the primary one, in the order of the file.
    var secondaryImageIDs: [UInt32] {
        let count = Int(heif_context_get_number_of_top_level_images(context))
        guard count > 1 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_context_get_list_of_top_level_image_IDs(context, &ids, Int32(count)))
        return ids.prefix(max(0, min(listed, count))).filter { $0 != primaryID }
    }

    /// Calls `body` with the handle of top-level image `id`, released when `body` returns.
    func withImage<R>(
        _ id: UInt32,
        _ body: (OpaquePointer) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        var handle: OpaquePointer?
        let error = heif_context_get_image_handle(context, id, &handle)
        try HEIFLibrary.check(error, .decoding, format: format, while: "opening image \(id)")
        guard let handle else {
            throw HEIFLibrary.failure("image \(id) has no handle", .decoding, format: format, while: "opening image \(id)")
        }
        defer { heif_image_handle_release(handle) }
        return try body(handle)
    }

    /// Calls `body` with the handle of thumbnail `id` of the primary image, released when `body` returns.
    func withThumbnail<R>(
        _ id: UInt32,
        _ body: (OpaquePointer) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        var handle: OpaquePointer?
        let error = heif_image_handle_get_thumbnail(primary, id, &handle)
        try HEIFLibrary.check(error, .decoding, format: format, while: "opening the embedded thumbnail")
        guard let handle else {
            throw HEIFLibrary.failure("the thumbnail has no handle", .decoding, format: format, while: "opening the embedded thumbnail")
        }
        defer { heif_image_handle_release(handle) }
        return try body(handle)
    }
}
