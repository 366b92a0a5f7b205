#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension AVIFCoder {
    /// A frame source that decodes an image sequence's frames on demand, in order, keeping one libavif decoder.
    ///
    /// The frames have the size a full decode with `options` would give them (thumbnail, scale-down limit over
    /// all frames, turned upright). The pixel limit applies to the full-size frame libavif converts and to one
    /// output frame, since the provider holds one frame at a time; the frame limit
    /// (``ImageDecodeOptions/maxFrameCount``) applies as to a full decode. The decode memory budget applies to
    /// what the provider holds: the file's copy, libavif's planes, a full-size frame and two output frames.
    ///
    /// A still AVIF gives a provider of one frame, decoded when the provider is made exactly as
    /// ``decode(_:options:)`` decodes it, with its limits.
    ///
    /// - Throws: `badImageData` for data that is not AVIF or is malformed; `imageTooLarge` over the limits.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        try checkSignature(data)
        let decoder = try AVIFDecoder(copying: data)
        guard decoder.header.frameCount > 1 else {
            return AVIFAnimatedImageProvider(data: data, still: try decode(data, options: options))
        }
        let plan = try AVIFDecodePlan(header: decoder.header, fileByteCount: data.count, holding: .oneFrame, options: options)
        return AVIFAnimatedImageProvider(data: data, decoder: decoder, plan: plan)
    }
}
