import WebImageCore

extension HEIFCoder {
    /// How long each image of a collection is shown when it is decoded as frames: HEIF items carry no timing,
    /// and 0.1 s is what SDWebImage gives a frame without a duration.
    static let collectionFrameDuration = 0.1

    /// Decodes the primary image, then, unless ``ImageDecodeOptions/firstFrameOnly`` is set, every other
    /// top-level image of the file as a further frame, as SDWebImage does with ImageIO's images of a HEIF.
    ///
    /// Every frame has the size of the first (the primary image's, reduced as the options say); an image of
    /// another size is resampled to it. The frame and pixel limits apply to all the frames together, from the
    /// headers, before anything is decoded.
    func decodeImages(_ file: HEIFContext, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let format = file.format
        let header = try HEIFHeader(file.primary, id: file.primaryID, in: file)
        let others = options.firstFrameOnly ? [] : file.secondaryImageIDs
        let target = try options.targetSize(for: header.size, frameCount: 1 + others.count, format: format)
        let first = try decodePrimary(file, header: header, target: target, options: options)
        guard !others.isEmpty else {
            return Image(pixels: first, scale: options.effectiveScale, format: format, hasAlpha: header.hasAlpha)
        }

        var frames = [ImageFrame(pixels: first, duration: Self.collectionFrameDuration)]
        var hasAlpha = header.hasAlpha
        for id in others {
            let pixels = try file.withImage(id) { handle throws(WebImageError) in
                let imageHeader = try HEIFHeader(handle, id: id, in: file)
                hasAlpha = hasAlpha || imageHeader.hasAlpha
                return try Self.decodeRGBA(
                    handle, header: imageHeader, target: target, options: options, format: format,
                    keptFrames: frames.count
                )
            }
            frames.append(ImageFrame(pixels: pixels, duration: Self.collectionFrameDuration))
        }
        return Image(frames: frames, loopCount: 0, scale: options.effectiveScale, format: format, hasAlpha: hasAlpha)
    }
}
