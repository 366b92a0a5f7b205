#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Progressive decoding of one PNG download.
///
/// Once the chunks before the image data have arrived, libpng's progressive reader (in the C shim) decodes the
/// bytes as they come into a full-size canvas that starts transparent. A non-interlaced image gains rows from
/// the top; an interlaced one shows each Adam7 pass as browsers do, every pixel of an early pass filling the
/// block of the grid it stands for, so the partial images are coarse versions of the whole that sharpen pass
/// by pass. Partial images are copies of the canvas, resampled to the size ``PNGCoder/decode(_:options:)``
/// gives with the same options (thumbnail, scale-down limit); they are marked ``Image/isIncremental`` and
/// report alpha.
///
/// APNG: with ``ImageDecodeOptions/framesOnDemand`` (and not ``ImageDecodeOptions/firstFrameOnly``), the partial
/// images are animations of the frames that have fully come, read from those frames as a file of their own
/// (``APNGAnimationPrefix``) as loads decode the finished file, frames on demand. Otherwise they show the default
/// image's rows when the default image is the animation's first frame; when it is not part of the animation there
/// are no partial images. Either way the finished image is the whole animation.
///
/// When the data is finished the image is ``PNGCoder/decode(_:options:)``'s, so its pixels equal a one-shot
/// decode's. When that decode fails (data cut short), the last partial image stays available, unless libpng had
/// already found the data malformed, which makes ``currentImage()`` nil. A source whose canvas is over the pixel
/// limit, or whose session (the canvas and the last partial image) would not fit in the decode memory budget
/// beside the one-shot decode of the finished data, gets no partial images; it is decoded whole (or reduced row
/// by row) when the data is finished.
///
/// Run by ``PhasedIncrementalDecoder``, which keeps the phases and the one-shot decode at the end; libpng's state
/// is freed exactly once, when the session holding it is released.
struct PNGIncrementalFormat: IncrementalDecodingFormat {
    let coder: PNGCoder
    let options: ImageDecodeOptions

    func advance(_ session: Session, with bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        try session.append(from: bytes)
    }

    func partialImage(of session: Session) -> Image? {
        try? session.partialImage(scale: options.effectiveScale)
    }

    func decodeWhole(_ data: Data) -> Image? {
        try? coder.decode(data, options: options)
    }

    func partialAnimation(of data: Data, beyond frameCount: Int) -> (image: Image, frameCount: Int)? {
        guard let (file, count) = APNGAnimationPrefix.completeFrames(of: data), count > frameCount,
              let image = try? coder.decodeForLoad(file, options: options)
        else { return nil }
        return (image.markedIncremental(), count)
    }

    /// A session once the chunks before the image data have arrived.
    func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> IncrementalStart<Session> {
        guard let layout = try Layout(prefix: bytes) else { return .waiting }
        if layout.animation != nil, options.framesOnDemand, !options.firstFrameOnly { return .growingAnimation }
        if layout.animation != nil, !layout.defaultImageIsFirstFrame { return .wholeAtEnd }
        let size = layout.header.size
        // The size the one-shot decode gives: a still, or every frame of an APNG (one with firstFrameOnly).
        let target = try options.targetSize(for: size, frameCount: layout.animation?.frameCount ?? 1, format: .png)
        // The canvas is full size: over the pixel limit, no partial images (the final decode may stream).
        if options.maxPixelCount > 0, size.pixelCount > options.maxPixelCount { return .wholeAtEnd }
        // The session is still held while the finished data is decoded in one shot: both must fit the budget.
        var memory = PNGMemoryEstimate.progressiveSession(size: size, target: target)
        if let animation = layout.animation {
            let frames = options.firstFrameOnly ? 1 : animation.frameCount
            memory.add(PNGMemoryEstimate.animation(
                canvas: size,
                target: target,
                frameCount: frames,
                isInterlaced: layout.header.isInterlaced
            ))
        } else {
            memory.add(PNGMemoryEstimate.still(size: size, target: target, isInterlaced: layout.header.isInterlaced))
        }
        guard options.allowsDecodeMemory(memory) else { return .wholeAtEnd }
        return .partials(try Session(header: layout.header, targetSize: target))
    }
}
