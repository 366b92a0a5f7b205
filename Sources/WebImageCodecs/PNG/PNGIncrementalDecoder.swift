#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
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
/// APNG: the partial images show the default image's rows when the default image is the animation's first
/// frame; when it is not part of the animation there are no partial images. Either way the finished image is
/// the whole animation.
///
/// When the data is finished the image is ``PNGCoder/decode(_:options:)``'s, so its pixels equal a one-shot
/// decode's. When that decode fails (data cut short), the last partial image stays available, unless libpng had
/// already found the data malformed, which makes ``currentImage()`` nil. A source whose canvas is over the pixel
/// limit gets no partial images; it is decoded whole (or reduced row by row) when the data is finished.
///
/// Calls may come from any thread but must not overlap (``IncrementalImageDecoding``'s contract). The lock only
/// hands the state from one call to the next: decoding and copying run outside it. libpng's state is freed
/// exactly once, when the session holding it is released.
final class PNGIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase {
        /// Waiting for the chunks before the first `IDAT`.
        case readingHeaders
        /// libpng decoding into the canvas.
        case decoding(Session)
        /// No partial images for this file; decoded whole once the data is finished.
        case awaitingEnd
        /// The complete image, or the last partial one of data that was cut short.
        case finished(Image)
        /// Malformed data or over the limits.
        case failed
        /// An update is working on the state (a call that overlaps it, against the contract, sees nothing).
        case busy
    }

    private let coder: PNGCoder
    private let options: ImageDecodeOptions
    private let phase = Mutex(Phase.readingHeaders)

    /// Creates a decoder for one download, decoding as `coder` does with `options`.
    init(coder: PNGCoder, options: ImageDecodeOptions) {
        self.coder = coder
        self.options = options
    }

    /// Gives the decoder all the data received so far; only the bytes not given before are decoded.
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

    /// The image as far as the data goes: nil before the first row, a partial image while the data is arriving,
    /// the complete image once it is finished.
    func currentImage() -> Image? {
        switch phase.withLock({ $0 }) {
        case .finished(let image):
            return image
        case .decoding(let session):
            // Outside the lock: no update runs during this call, by the contract.
            return try? session.partialImage(scale: options.effectiveScale)
        case .readingHeaders, .awaitingEnd, .failed, .busy:
            return nil
        }
    }

    private func advance(_ phase: inout Phase, with data: Data) throws(WebImageError) {
        if case .readingHeaders = phase {
            phase = try data.withBytes { bytes throws(WebImageError) in try start(bytes) }
        }
        if case .decoding(let session) = phase {
            try data.withBytes { bytes throws(WebImageError) in try session.append(from: bytes) }
        }
    }

    /// The phase after the chunks before the image data, or `readingHeaders` while they have not all arrived.
    private func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Phase {
        guard let layout = try Layout(prefix: bytes) else { return .readingHeaders }
        if layout.animation != nil, !layout.defaultImageIsFirstFrame { return .awaitingEnd }
        let size = layout.header.size
        // The size the one-shot decode gives: a still, or every frame of an APNG (one with firstFrameOnly).
        let target = try options.targetSize(for: size, frameCount: layout.animation?.frameCount ?? 1, format: .png)
        // The canvas is full size: over the pixel limit, no partial images (the final decode may stream).
        if options.maxPixelCount > 0, size.pixelCount > options.maxPixelCount { return .awaitingEnd }
        return .decoding(try Session(header: layout.header, targetSize: target))
    }

    /// The phase once the data is finished: the one-shot decode, else the last partial image when libpng had
    /// found nothing wrong.
    private func finish(_ phase: Phase, data: Data) -> Phase {
        if case .finished = phase { return phase }
        if let image = try? coder.decode(data, options: options) { return .finished(image) }
        if case .decoding(let session) = phase, let partial = try? session.partialImage(scale: options.effectiveScale) {
            return .finished(partial)
        }
        return .failed
    }
}
