extension JPEGCoder {
    /// Decodes a whole JPEG file held in `bytes`; see ``decode(_:options:)``.
    ///
    /// Memory: the final pixel buffer, plus, only when a resample or a turn is needed, the DCT-scaled decode in
    /// a pooled scratch buffer (and the resampled image in a second one when both are needed). CMYK is
    /// converted in place, in whichever buffer libjpeg wrote. libjpeg adds its row buffers, and the whole
    /// image's coefficients for a progressive or multi-scan file; the plan checks the sum against the decode
    /// memory budget before any of it is allocated.
    func decodeImage(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let scan = try JPEGMarkerScan(bytes, extent: .wholeImage)
        guard scan.reachesEndOfImage else {
            throw .badImageData(.jpeg, "the data ends before the end-of-image marker (truncated)")
        }
        let orientation = scan.orientation(in: bytes)
        let (pixels, plan) = try TurboJPEGHandlePool.shared.withHandle(.decompressor) {
            handle throws(WebImageError) -> (PixelBuffer, JPEGDecodePlan) in
            let header = try handle.readHeader(bytes)
            let plan = try JPEGDecodePlan(
                storedSize: header.size,
                orientation: orientation,
                frame: scan.frameHeader(size: header.size, componentCount: header.isCMYK ? 4 : 3),
                needsWholeImageCoefficients: scan.needsWholeImageCoefficients,
                options: options
            )
            let decoder = Decoder(
                handle: handle,
                bytes: bytes,
                layout: header.isCMYK ? .cmyk : .rgba,
                storesInvertedCMYK: scan.hasAdobeSegment,
                size: plan.scaledSize
            )
            let final = try PixelBuffer(uninitializedWidth: plan.finalSize.width, height: plan.finalSize.height)
            if plan.decodesIntoFinalBuffer {
                try decoder.decode(into: final.mutableBaseAddress, bytesPerRow: final.bytesPerRow)
            } else {
                try decodeThroughScratch(decoder, plan: plan, into: final)
            }
            return (final, plan)
        }
        return Image(
            pixels: pixels,
            scale: options.effectiveScale,
            format: .jpeg,
            hasAlpha: false,
            orientation: plan.reportedOrientation
        )
    }

    /// Decodes at the DCT-scaled size into a scratch buffer, then resamples and turns into `final`.
    private func decodeThroughScratch(_ decoder: Decoder, plan: JPEGDecodePlan, into final: PixelBuffer) throws(WebImageError) {
        let scaled = plan.scaledSize
        let scaledRowBytes = scaled.width * 4
        try ScratchBufferPool.shared.withBuffer(byteCount: scaledRowBytes * scaled.height) { scratch throws(WebImageError) in
            guard let decoded = scratch.baseAddress else { throw JPEGCoder.noScratchMemory }
            try decoder.decode(into: decoded, bytesPerRow: scaledRowBytes)
            if !plan.resamples {
                plan.orientation.makeUpright(
                    decoded,
                    size: scaled,
                    bytesPerRow: scaledRowBytes,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
                return
            }
            guard plan.turnsUpright else {
                PixelResampler.resample(
                    decoded,
                    size: scaled,
                    bytesPerRow: scaledRowBytes,
                    hasAlpha: false,
                    into: final.mutableBaseAddress,
                    size: plan.outputSize,
                    bytesPerRow: final.bytesPerRow
                )
                return
            }
            // Resample first, then turn the small image.
            let output = plan.outputSize
            let outputRowBytes = output.width * 4
            try ScratchBufferPool.shared.withBuffer(byteCount: outputRowBytes * output.height) { small throws(WebImageError) in
                guard let resampled = small.baseAddress else { throw JPEGCoder.noScratchMemory }
                PixelResampler.resample(
                    decoded,
                    size: scaled,
                    bytesPerRow: scaledRowBytes,
                    hasAlpha: false,
                    into: resampled,
                    size: output,
                    bytesPerRow: outputRowBytes
                )
                plan.orientation.makeUpright(
                    resampled,
                    size: output,
                    bytesPerRow: outputRowBytes,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
            }
        }
    }

    /// For a scratch buffer without memory, which the pool never hands out for a size above zero.
    static let noScratchMemory = WebImageError(.imageTooLarge, "JPEG: no scratch memory for the decode")

    /// One decompression into RGBA: libjpeg's output, and for CMYK sources the conversion in place.
    private struct Decoder {
        let handle: TurboJPEGHandle
        let bytes: UnsafeRawBufferPointer
        let layout: TurboJPEGHandle.PixelLayout
        let storesInvertedCMYK: Bool
        let size: PixelSize

        func decode(into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(WebImageError) {
            try handle.decompress(bytes, size: size, layout: layout, into: destination, bytesPerRow: bytesPerRow)
            if layout == .cmyk {
                JPEGCMYKConversion.convertToRGBA(destination, size: size, bytesPerRow: bytesPerRow, inverted: storesInvertedCMYK)
            }
        }
    }
}
