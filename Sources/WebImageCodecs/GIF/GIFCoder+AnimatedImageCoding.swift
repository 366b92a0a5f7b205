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
    /// decode would give); the limits are those of ``ImageDecodeOptions/frameSize(forCanvas:frameCount:format:)``,
    /// since the source holds one frame at a time, and the frame records count 64 pixels each.
    /// With ``ImageDecodeOptions/firstFrameOnly`` the source has one frame.
    ///
    /// - Throws: `badImageData` for empty, malformed or truncated data; `imageTooLarge` when the canvas or a
    ///   frame is over the pixel limit, or the canvas (with its copy for frames disposed to the previous canvas)
    ///   and two frames are over the decode memory budget.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        guard !data.isEmpty else { throw .badImageData(.gif, "the data is empty (0 bytes)") }
        let structure = try data.withBytes { bytes throws(WebImageError) in
            try GIFStructure.scan(bytes, for: options, frameSource: true)
        }
        try structure.checkFrameAreas(options)
        let target = try options.frameSize(forCanvas: structure.canvasSize, frameCount: structure.frameCount, format: .gif)
        // The provider keeps the frame it handed out last while it makes the next.
        try options.checkDecodeMemory(GIFMemoryEstimate.animation(structure, target: target, keptFrames: 2), format: .gif)
        return GIFAnimatedImageProvider(data: data, structure: structure, frameSize: target)
    }
}
