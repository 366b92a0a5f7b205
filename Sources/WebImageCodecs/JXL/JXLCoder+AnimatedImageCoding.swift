#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension JXLCoder {
    /// A frame source that decodes an animation's frames on demand, keeping one libjxl decoder over a copy of
    /// the data.
    ///
    /// The frames have the size a full decode with `options` would give them (thumbnail, scale-down limit over
    /// all frames); libjxl composites them on the full canvas (coalescing), which must be within the pixel
    /// limit, as must one frame. The frame limit (``ImageDecodeOptions/maxFrameCount``) applies as to a full
    /// decode. The decode memory budget applies to what the provider holds: libjxl's float planes and canvas,
    /// the scratch canvas of reduced frames, and two frames.
    ///
    /// A still JPEG XL gives a provider of one frame, decoded when the provider is made exactly as
    /// ``decode(_:options:)`` decodes it, with its limits.
    ///
    /// - Throws: `badImageData` for data that is not JPEG XL or is malformed; `imageTooLarge` over the limits.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        try checkSignature(data)
        let plan = try data.withBytes { bytes throws(WebImageError) -> DecodePlan in
            try self.plan(bytes, options: options, holdsAllFrames: false)
        }
        guard plan.header.isAnimated, plan.frames > 1 else {
            return JXLAnimatedImageProvider(data: data, still: try decode(data, options: options))
        }
        let decoder = try JXLFrameDecoder(copying: data, header: plan.header, keepingOrientation: plan.keepsOrientation)
        return try JXLAnimatedImageProvider(data: data, decoder: decoder, frameSize: plan.target, frameCount: plan.frames)
    }
}
