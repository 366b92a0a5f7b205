#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension GIFCoder {
    /// A frame source that decodes the frames of `data` on demand, keeping one canvas between calls.
    ///
    /// The records are scanned once, here, without decoding image data; frames are decoded when asked for.
    /// The thumbnail size and scale-down limit of `options` apply to every frame (the size is the one a full
    /// decode would give); the pixel limit applies to the canvas and to one frame, since the source holds one
    /// frame at a time, and to the frame records (64 pixels each).
    ///
    /// - Throws: `badImageData` for empty, malformed or truncated data; `imageTooLarge` when the canvas or a
    ///   frame is over the pixel limit.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        guard !data.isEmpty else { throw .badImageData(.gif, "the data is empty (0 bytes)") }
        let structure = try data.withBytes { bytes throws(WebImageError) in
            try GIFStructure.scan(bytes, for: options, frameSource: true)
        }
        try structure.checkFrameAreas(options)
        try options.checkPixelLimit(structure.canvasSize, format: .gif)
        var sizing = options
        sizing.firstFrameOnly = false
        sizing.maxPixelCount = 0
        let target = try sizing.targetSize(for: structure.canvasSize, frameCount: structure.frameCount, format: .gif)
        try options.checkPixelLimit(target, format: .gif)
        return GIFAnimatedImageProvider(data: data, structure: structure, frameSize: target)
    }
}
