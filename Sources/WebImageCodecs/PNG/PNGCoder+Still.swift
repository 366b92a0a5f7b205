internal import CPNG

extension PNGCoder {
    /// How a still image reaches its final size.
    private enum StillPlan {
        /// The image was decoded, at full size or reduced through a scratch buffer.
        case decoded(Image)
        /// A reduced decode of a non-interlaced image: streamed row by row into a reduced buffer.
        case stream(source: PixelSize, target: PixelSize, hasAlpha: Bool)
    }

    /// Decodes the image data of a PNG (the default image of an APNG) as one still image.
    ///
    /// At full size libpng writes straight into the image's buffer. Reduced, a non-interlaced image is streamed
    /// row by row into the resampler, so no full-size buffer exists whatever its size (up to
    /// ``ImageDecodeOptions/reducedSourceFactor`` times the pixel limit); an interlaced one, whose passes need
    /// the whole image, is decoded into a reused scratch buffer, which the pixel limit must allow. The memory of
    /// the chosen way is checked against the decode memory budget before anything is allocated.
    func decodeStill(
        _ bytes: UnsafeRawBufferPointer,
        header: PNGHeader,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        let plan = try LibPNG.withImage(reading: bytes) { image throws(WebImageError) -> StillPlan in
            let size = image.pixelSize
            let hasAlpha = image.hasAlpha
            // Checks the pixel limit against the result before anything is allocated.
            let target = try options.targetSize(for: size, format: .png)
            if target != size, !header.isInterlaced {
                return .stream(source: size, target: target, hasAlpha: hasAlpha)
            }
            if target != size, options.maxPixelCount > 0, size.pixelCount > options.maxPixelCount {
                throw PNGRowStream.interlacedTooLarge(size)
            }
            try options.checkDecodeMemory(
                PNGMemoryEstimate.still(size: size, target: target, isInterlaced: header.isInterlaced),
                format: .png
            )
            let pixels = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
            if target == size {
                try LibPNG.finishReadingRGBA(&image, into: pixels.mutableBaseAddress, bytesPerRow: pixels.bytesPerRow)
                return .decoded(still(pixels, hasAlpha: hasAlpha, options: options))
            }
            // Interlaced: decode whole into a reused scratch buffer, then resample into the result.
            let (rowBytes, o1) = size.width.multipliedReportingOverflow(by: 4)
            let (byteCount, o2) = rowBytes.multipliedReportingOverflow(by: size.height)
            guard !o1, !o2 else { throw .imageTooLarge(.png, size: size, limit: options.maxPixelCount) }
            try ScratchBufferPool.shared.withBuffer(byteCount: byteCount) { scratch throws(WebImageError) in
                guard let base = scratch.baseAddress else { return }
                try LibPNG.finishReadingRGBA(&image, into: base, bytesPerRow: rowBytes)
                PixelResampler.resample(
                    UnsafeRawPointer(base),
                    size: size,
                    bytesPerRow: rowBytes,
                    hasAlpha: hasAlpha,
                    into: pixels.mutableBaseAddress,
                    size: target,
                    bytesPerRow: pixels.bytesPerRow
                )
            }
            return .decoded(still(pixels, hasAlpha: hasAlpha, options: options))
        }

        switch plan {
        case .decoded(let image):
            return image
        case .stream(let source, let target, let hasAlpha):
            // libpng's simplified reader is released first: the stream runs its own.
            try options.checkDecodeMemory(
                PNGMemoryEstimate.still(size: source, target: target, isInterlaced: false),
                format: .png
            )
            let pixels = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
            try PNGRowStream.decode(bytes, size: source, hasAlpha: hasAlpha, into: pixels)
            return still(pixels, hasAlpha: hasAlpha, options: options)
        }
    }

    /// A still image of format PNG with the options' scale.
    private func still(_ pixels: PixelBuffer, hasAlpha: Bool, options: ImageDecodeOptions) -> Image {
        Image(pixels: pixels, scale: options.effectiveScale, format: .png, hasAlpha: hasAlpha)
    }
}
