#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Progressive decoding of one JPEG XL download.
///
/// Once the basic information has arrived, libjxl decodes a still image as its bytes come into a full-size
/// canvas (see ``JXLIncrementalSession``). Partial images are made with `JxlDecoderFlushImage`: a progressive
/// file (a DC frame or progressive passes) shows a blurred whole first that sharpens, others show their groups
/// as they arrive over a transparent canvas. Partial images are resampled to the size
/// ``JXLCoder/decode(_:options:)`` gives with the same options, and marked ``Image/isIncremental``.
///
/// An animation has no partial images: it is decoded whole when the data is finished. So is a still image
/// whose session (libjxl's planes, the canvas and the last partial image) would not fit in the decode memory
/// budget beside the one-shot decode of the finished data.
///
/// When the data is finished the image is ``JXLCoder/decode(_:options:)``'s. When that decode fails (data cut
/// short), the last partial image stays available, unless libjxl had already found the data malformed, which
/// makes ``currentImage()`` nil.
///
/// Run by ``PhasedIncrementalDecoder``, which keeps the phases and the one-shot decode at the end; libjxl's
/// decoder is destroyed exactly once, when the session holding it is released.
struct JXLIncrementalFormat: IncrementalDecodingFormat {
    let coder: JXLCoder
    let options: ImageDecodeOptions

    func advance(_ session: JXLIncrementalSession, with bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        try session.append(bytes)
    }

    func partialImage(of session: JXLIncrementalSession) -> Image? {
        guard let pixels = try? session.snapshot(hasAlpha: session.header.hasAlpha) else { return nil }
        return Image(
            pixels: pixels,
            scale: options.effectiveScale,
            format: .jpegxl,
            hasAlpha: session.header.hasAlpha,
            orientation: session.orientation,
            isIncremental: true
        )
    }

    func decodeWhole(_ data: Data) -> Image? {
        try? coder.decode(data, options: options)
    }

    /// A session once the basic information has arrived.
    func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> IncrementalStart<JXLIncrementalSession> {
        if bytes.count >= 12, ImageFormat.detect(bytes) != .jpegxl {
            throw .badImageData(.jpegxl, "the data starts with neither a JPEG XL codestream nor its container")
        }
        guard let header = try JXLHeader(prefix: bytes) else { return .waiting }
        if header.isAnimated { return .wholeAtEnd }
        let plan = try coder.plan(header, options: options, holdsAllFrames: true)
        // The session is still held while the finished data is decoded in one shot: both must fit the budget.
        var memory = JXLMemoryEstimate.decode(header, canvas: plan.canvas, target: plan.target, keptFrames: 1, extraFrames: 1)
        memory.add("incremental canvas", pixels: plan.canvas)
        memory.add(JXLMemoryEstimate.decode(header, canvas: plan.canvas, target: plan.target, keptFrames: 1))
        guard options.allowsDecodeMemory(memory) else { return .wholeAtEnd }
        return .partials(try JXLIncrementalSession(header: header, target: plan.target, keepingOrientation: plan.keepsOrientation))
    }
}
