import WebImageCore

extension GIFStructure {
    /// What one frame costs beyond its pixels (its buffer object, its frame record), counted against the pixel
    /// limit as this many pixels, so that a file of millions of tiny frames cannot cost unbounded memory.
    static let minimumFrameCost = 64

    /// Scans `bytes` as far as a decode with `options` needs: the first frame for a first-frame decode, else
    /// every frame, stopping as soon as there are more than the pixel limit or the frame limit can hold (the
    /// frame limit itself is enforced by ``ImageDecodeOptions/targetSize(for:frameCount:format:)``).
    ///
    /// - Parameters:
    ///   - frameSource: Scan for a frame source, which keeps every frame's record but holds one frame's pixels at
    ///     a time; a decode holds every frame's pixels and keeps only the first record.
    /// - Throws: `imageTooLarge` when the frames are more than the limit allows: each costs the pixels of its
    ///   decoded size (unknown before the frame count under a scale-down limit) and at least
    ///   ``minimumFrameCost``; `badImageData` as ``scan(_:frameLimit:keepsFrames:)``.
    static func scan(
        _ bytes: UnsafeRawBufferPointer,
        for options: ImageDecodeOptions,
        frameSource: Bool = false
    ) throws(WebImageError) -> GIFStructure {
        if options.firstFrameOnly {
            return try scan(bytes, frameLimit: { _ in 1 }, keepsFrames: frameSource)
        }
        var capacity: Int?
        var frameCost = minimumFrameCost
        let frameCap = options.maxFrameCount > 0 ? options.maxFrameCount + 1 : Int.max
        let structure = try scan(bytes, frameLimit: { canvas in
            guard options.maxPixelCount > 0 else { return frameCap }
            if !frameSource, options.scaleDownLimitBytes == nil {
                // Without a scale-down limit every frame has the size a single frame would have.
                var sizing = options
                sizing.maxPixelCount = 0
                sizing.firstFrameOnly = true
                let size = (try? sizing.targetSize(for: canvas, format: .gif)) ?? canvas
                frameCost = max(frameCost, size.pixelCount)
            }
            capacity = options.maxPixelCount / frameCost
            return min(capacity! + 1, frameCap)
        }, keepsFrames: frameSource)
        if let capacity, structure.frameCount > capacity {
            throw WebImageError(
                .imageTooLarge,
                "GIF: more than \(capacity) frames of \(frameCost) pixels each are over the limit of \(options.maxPixelCount) pixels"
            )
        }
        return structure
    }
}
