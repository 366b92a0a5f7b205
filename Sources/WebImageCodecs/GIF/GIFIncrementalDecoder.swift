#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
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
/// which makes ``currentImage()`` nil. A logical screen over the pixel limit gets no partial images; it is decoded
/// whole (a still reduced row by row) when the data is finished.
///
/// Calls may come from any thread but must not overlap (``IncrementalImageDecoding``'s contract). The lock only
/// hands the state from one call to the next: decoding runs outside it.
final class GIFIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase {
        /// Waiting for the header: signature, logical screen and global colour table.
        case readingHeaders
        /// Frames being decoded as they complete.
        case decoding(GIFIncrementalSession)
        /// No partial images for this file; decoded whole once the data is finished.
        case awaitingEnd
        /// The complete image, or the frames completed before data that was cut short.
        case finished(Image)
        /// Malformed data or over the limits.
        case failed
        /// An update is working on the state (a call that overlaps it, against the contract, sees nothing).
        case busy
    }

    private let coder: GIFCoder
    private let options: ImageDecodeOptions
    private let phase = Mutex(Phase.readingHeaders)

    /// Creates a decoder for one download, decoding as `coder` does with `options`.
    init(coder: GIFCoder, options: ImageDecodeOptions) {
        self.coder = coder
        self.options = options
    }

    /// Gives the decoder all the data received so far; only frames completed since the last call are decoded.
    func update(_ data: Data, isFinished: Bool) {
        var current = phase.withLock { phase in
            let taken = phase
            phase = .busy
            return taken
        }
        if case .busy = current { return }
        do {
            try advance(&current, with: data)
        } catch {
            current = .failed
        }
        if isFinished {
            current = finish(current, data: data)
        }
        phase.withLock { $0 = current }
    }

    /// The frames completed so far: nil before the first, a partial image while the data is arriving, the
    /// complete image once it is finished.
    func currentImage() -> Image? {
        switch phase.withLock({ $0 }) {
        case .finished(let image):
            return image
        case .decoding(let session):
            // Outside the lock: no update runs during this call, by the contract.
            return session.image
        case .readingHeaders, .awaitingEnd, .failed, .busy:
            return nil
        }
    }

    private func advance(_ phase: inout Phase, with data: Data) throws(WebImageError) {
        if case .readingHeaders = phase {
            phase = try data.withBytes { bytes throws(WebImageError) in try start(bytes) }
        }
        if case .decoding(let session) = phase {
            try data.withBytes { bytes throws(WebImageError) in try session.advance(bytes) }
        }
    }

    /// The phase once the header has arrived, or `readingHeaders` while it has not.
    private func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Phase {
        guard let length = try GIFIncrementalDecoder.headerLength(prefix: bytes) else { return .readingHeaders }
        let canvasSize = try GIFRecordReader.read(UnsafeRawBufferPointer(rebasing: bytes[..<length])) { reader in
            reader.canvasSize
        }
        guard !canvasSize.isEmpty else {
            throw .badImageData(.gif, "the logical screen is \(canvasSize) pixels")
        }
        // Frames are composited on a full-size canvas: over the pixel limit, no partial images.
        if options.maxPixelCount > 0, canvasSize.pixelCount > options.maxPixelCount { return .awaitingEnd }
        return .decoding(try GIFIncrementalSession(canvasSize: canvasSize, headerLength: length, options: options))
    }

    /// The phase once the data is finished: the one-shot decode, else the frames completed so far when nothing
    /// was found wrong with them.
    private func finish(_ phase: Phase, data: Data) -> Phase {
        if case .finished = phase { return phase }
        if let image = try? coder.decode(data, options: options) { return .finished(image) }
        if case .decoding(let session) = phase, let partial = session.image {
            return .finished(partial)
        }
        return .failed
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
