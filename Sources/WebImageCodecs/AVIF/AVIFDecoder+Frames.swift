import WebImageCore

extension AVIFDecoder {
    /// Decodes the next frame into a new buffer of the plan's final size: converted by libavif straight into it,
    /// or through a pooled full-size scratch buffer that is then resampled and turned upright. Nothing is
    /// allocated before libavif has decoded the frame and its size has been checked against the container.
    ///
    /// - Throws: `badImageData` when the frame cannot be decoded; `imageTooLarge` when its memory cannot be had.
    func nextFrame(_ plan: AVIFDecodePlan) throws(WebImageError) -> PixelBuffer {
        let frame = try decodeFrame()
        let final = try PixelBuffer(uninitializedWidth: plan.finalSize.width, height: plan.finalSize.height)
        if plan.decodesIntoFinalBuffer {
            try convert(frame, into: final.mutableBaseAddress, bytesPerRow: final.bytesPerRow)
            return final
        }
        let stored = header.size
        let storedRowBytes = stored.width * 4
        try ScratchBufferPool.shared.withBuffer(byteCount: storedRowBytes * stored.height) { scratch throws(WebImageError) in
            guard let decoded = scratch.baseAddress else { throw Self.noScratchMemory }
            try convert(frame, into: decoded, bytesPerRow: storedRowBytes)
            guard plan.resamples else {
                header.orientation.makeUpright(
                    decoded,
                    size: stored,
                    bytesPerRow: storedRowBytes,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
                return
            }
            guard plan.turnsUpright else {
                PixelResampler.resample(
                    decoded,
                    size: stored,
                    bytesPerRow: storedRowBytes,
                    hasAlpha: header.hasAlpha,
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
                guard let resampled = small.baseAddress else { throw Self.noScratchMemory }
                PixelResampler.resample(
                    decoded,
                    size: stored,
                    bytesPerRow: storedRowBytes,
                    hasAlpha: header.hasAlpha,
                    into: resampled,
                    size: output,
                    bytesPerRow: outputRowBytes
                )
                header.orientation.makeUpright(
                    resampled,
                    size: output,
                    bytesPerRow: outputRowBytes,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
            }
        }
        return final
    }

    /// For a scratch buffer without memory, which the pool never hands out for a size above zero.
    static let noScratchMemory = WebImageError(.imageTooLarge, "AVIF: no scratch memory for the decode")
}
