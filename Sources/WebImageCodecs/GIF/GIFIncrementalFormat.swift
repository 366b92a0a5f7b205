#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Progressive decoding of one GIF download: frames as they complete.
///
/// Once the header has arrived, every update decodes the frames whose image data has fully arrived since the
/// last one, onto a canvas kept between updates (``GIFIncrementalSession``), so no frame is decoded twice.
/// ``currentImage()`` is nil until the first frame is complete, then a still image of it, then an animation of
/// the frames completed so far with their durations (only the first frame with
/// ``ImageDecodeOptions/firstFrameOnly``). Partial images are marked ``Image/isIncremental``; their frames are
/// the frames ``GIFCoder/decode(_:options:)`` gives, pixel for pixel, at its size (see
/// ``GIFIncrementalSession`` for scale-down limits, where the whole frame count decides the size).
///
/// When the data is finished the image is ``GIFCoder/decode(_:options:)``'s. When that decode fails (data cut
/// short), the frames completed so far stay available, unless the data was found malformed or over the limits,
/// which makes ``currentImage()`` nil. A logical screen over the pixel limit, or whose canvas would not fit in the
/// decode memory budget beside the one-shot decode, gets no partial images; it is decoded whole (a still reduced
/// row by row) when the data is finished. Frames that arrive beyond what the budget allows beside the one-shot
/// decode stop the partial images; the finished data is then decoded alone.
///
/// Run by ``PhasedIncrementalDecoder``, which keeps the phases and the one-shot decode at the end.
struct GIFIncrementalFormat: IncrementalDecodingFormat {
    let coder: GIFCoder
    let options: ImageDecodeOptions

    func advance(_ session: GIFIncrementalSession, with bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        try session.advance(bytes)
    }

    func partialImage(of session: GIFIncrementalSession) -> Image? {
        session.image
    }

    func decodeWhole(_ data: Data) -> Image? {
        try? coder.decode(data, options: options)
    }

    /// A session once the header has arrived.
    func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> IncrementalStart<GIFIncrementalSession> {
        guard let length = try Self.headerLength(prefix: bytes) else { return .waiting }
        let canvasSize = try GIFRecordReader.read(UnsafeRawBufferPointer(rebasing: bytes[..<length])) { reader in
            reader.canvasSize
        }
        guard !canvasSize.isEmpty else {
            throw .badImageData(.gif, "the logical screen is \(canvasSize) pixels")
        }
        // Frames are composited on a full-size canvas: over the pixel limit, no partial images.
        if options.maxPixelCount > 0, canvasSize.pixelCount > options.maxPixelCount { return .wholeAtEnd }
        let session = GIFStructure(canvasSize: canvasSize, headerLength: length)
        guard options.allowsDecodeMemory(GIFIncrementalSession.memory(session, frameSize: canvasSize)) else { return .wholeAtEnd }
        return .partials(try GIFIncrementalSession(canvasSize: canvasSize, headerLength: length, options: options))
    }

    /// The length of the header (signature, logical screen descriptor, global colour table) at the start of
    /// `prefix`, or nil when it has not all arrived.
    ///
    /// - Throws: `badImageData` when the data does not start with `GIF87a` or `GIF89a`.
    static func headerLength(prefix bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Int? {
        let signatures: [[UInt8]] = [Array("GIF87a".utf8), Array("GIF89a".utf8)]
        let start = bytes.prefix(6)
        guard signatures.contains(where: { start.elementsEqual($0.prefix(start.count)) }) else {
            throw .badImageData(.gif, "the data does not start with GIF87a or GIF89a")
        }
        guard bytes.count >= 13 else { return nil }
        let flags = bytes[10]
        let length = 13 + (flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0)
        return bytes.count >= length ? length : nil
    }
}
