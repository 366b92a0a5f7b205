internal import CHEIF
import WebImageCore

extension HEIFCoder {
    /// Decodes the primary image to `target`, from an embedded thumbnail of it when one is at least that large.
    ///
    /// libheif decodes at full size only, so the size decoded (the image's or the thumbnail's) must be within
    /// the pixel limit, and the decode's memory within the budget, before libheif is asked.
    func decodePrimary(
        _ file: HEIFContext,
        header: HEIFHeader,
        target: PixelSize,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> PixelBuffer {
        let format = file.format
        guard target != header.size, let thumbnail = header.thumbnail(covering: target) else {
            return try Self.decodeRGBA(file.primary, header: header, target: target, options: options, format: format)
        }
        return try file.withThumbnail(thumbnail.id) { handle throws(WebImageError) in
            let thumbnailHeader = try HEIFHeader(handle, id: thumbnail.id, in: file)
            return try Self.decodeRGBA(handle, header: thumbnailHeader, target: target, options: options, format: format)
        }
    }

    /// Checks the limits for decoding the image behind `handle` at its size (with `keptFrames` frames of
    /// `target` already held), then decodes it to RGBA and resamples it to `target` when that differs.
    ///
    /// At full size the image adopts libheif's RGBA plane, freed with the `heif_image` when the pixel buffer
    /// goes: the pixels are never copied. Reduced, they are resampled once from libheif's plane into the output.
    static func decodeRGBA(
        _ handle: OpaquePointer,
        header: HEIFHeader,
        target: PixelSize,
        options: ImageDecodeOptions,
        format: ImageFormat,
        keptFrames: Int = 0
    ) throws(WebImageError) -> PixelBuffer {
        let size = header.size
        guard header.isBounded else {
            throw .badImageData(
                format,
                "a grid descriptor or HEVC parameter set of the file cannot be read, or the image is made of itself through its tiles or auxiliary images, so the decode has no bound"
            )
        }
        try options.checkPixelLimit(size, format: format)
        if header.canvas.pixelCount > size.pixelCount {
            try options.checkPixelLimit(header.canvas, format: format)
        }
        let memory = HEIFMemoryEstimate.still(header, decoded: size, target: target, keptFrames: keptFrames)
        try options.checkDecodeMemory(memory, format: format)

        let action = "decoding the image"
        guard let decoding = heif_decoding_options_alloc() else {
            throw WebImageError(.imageTooLarge, "\(format.name.uppercased()): libheif could not allocate its options")
        }
        defer { heif_decoding_options_free(decoding) }
        // convert_hdr_to_8bit came with version 2 of the options (libheif 1.7); the result is checked below too.
        guard decoding.pointee.version >= 2 else {
            throw HEIFLibrary.failure("libheif is too old to reduce HDR images to 8 bits", .decoding, format: format, while: action)
        }
        decoding.pointee.convert_hdr_to_8bit = 1
        decoding.pointee.ignore_transformations = 0

        var decoded: OpaquePointer?
        let error = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding)
        try HEIFLibrary.check(error, .decoding, format: format, while: action)
        guard let decoded else {
            throw HEIFLibrary.failure("libheif returned no image", .decoding, format: format, while: action)
        }
        // Owned here until the pixel buffer adopts it.
        var owned: OpaquePointer? = decoded
        defer { if let owned { heif_image_release(owned) } }

        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        guard width == size.width, height == size.height else {
            throw .badImageData(format, "libheif decoded \(width) x \(height) pixels, not the \(size) of the header")
        }
        let depth = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
        guard depth == 8 else {
            throw .badImageData(format, "libheif decoded \(depth) bits a channel where 8 were asked for")
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
              Int(stride) >= width * 4 else {
            throw HEIFLibrary.failure("the decoded image has no RGBA plane", .decoding, format: format, while: action)
        }

        guard target == size else {
            let output = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
            PixelResampler.resample(
                plane, size: size, bytesPerRow: Int(stride), hasAlpha: header.hasAlpha,
                into: output.mutableBaseAddress, size: target, bytesPerRow: output.bytesPerRow
            )
            return output
        }
        let address = UInt(bitPattern: decoded)
        owned = nil
        return PixelBuffer(
            adopting: UnsafeMutableRawPointer(mutating: plane),
            width: width,
            height: height,
            bytesPerRow: Int(stride)
        ) { _ in
            heif_image_release(OpaquePointer(bitPattern: address))
        }
    }
}
