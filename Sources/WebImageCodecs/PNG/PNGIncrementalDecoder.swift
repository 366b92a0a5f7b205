#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebImageShims
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

extension PNGIncrementalDecoder {
    /// What the chunks before the first `IDAT` say, read from a prefix of the file without libpng.
    struct Layout {
        /// The `IHDR` chunk.
        var header: PNGHeader
        /// The `acTL` chunk of an APNG.
        var animation: APNGAnimation.AnimationControl?
        /// Whether an `fcTL` chunk comes before the first `IDAT`: the default image is frame 0.
        var defaultImageIsFirstFrame = false

        /// Reads the chunks of `prefix` up to the first `IDAT`; nil when the data ends before it.
        ///
        /// - Throws: `badImageData` when the data is not a PNG or the chunks before the image data are damaged.
        init?(prefix bytes: UnsafeRawBufferPointer) throws(WebImageError) {
            let signature = PNGHeader.signature
            guard bytes.prefix(signature.count).elementsEqual(signature.prefix(bytes.count)) else {
                throw .badImageData(.png, "the data does not start with the PNG signature")
            }
            // The signature and a whole IHDR chunk.
            guard bytes.count >= signature.count + 25 else { return nil }
            header = try PNGHeader(parsing: bytes)
            var offset = header.chunk.whole.upperBound
            while bytes.count - offset >= 8 {
                let length = bytes.bigEndianUInt32(at: offset)
                let type = bytes.bigEndianUInt32(at: offset + 4)
                guard length <= 0x7FFF_FFFF else {
                    throw .badImageData(
                        .png,
                        "the \(PNGChunk.name(of: type)) chunk at byte \(offset) declares \(length) bytes, over PNG's maximum"
                    )
                }
                if type == PNGChunk.idat { return }
                let end = offset + 12 + Int(length)
                guard end <= bytes.count else { return nil }
                let chunk = PNGChunk(type: type, start: offset, data: (offset + 8)..<(end - 4))
                if type == PNGChunk.actl, animation == nil {
                    animation = try APNGAnimation.readAnimationControl(chunk, in: bytes)
                } else if type == PNGChunk.fctl, animation != nil {
                    defaultImageIsFirstFrame = true
                } else if type == PNGChunk.iend {
                    throw .badImageData(.png, "the file ends before any image data")
                }
                offset = end
            }
            return nil
        }
    }

    /// One libpng progressive read and the full-size canvas it writes into.
    ///
    /// Not thread-safe: one call at a time, which its owner guarantees.
    final class Session: @unchecked Sendable {
        // Sendable because it is only ever used by one thread at a time: ``PNGIncrementalDecoder`` takes it out
        // of its locked state for the length of one update, and uses it in `currentImage()` (which caches the
        // last partial image in it) only between updates; its callers never overlap calls
        // (``IncrementalImageDecoding``'s contract). It may move between threads between calls.

        /// The canvas libpng writes rows into, full size, transparent where no row has come yet.
        private let canvas: PixelBuffer
        /// The size partial images have.
        private let targetSize: PixelSize
        /// libpng's state, owned by the session and destroyed in `deinit`, before the canvas it points to.
        private let decoder: OpaquePointer
        /// Bytes of the data already given to libpng.
        private var consumed = 0
        /// The last partial image, with the progress it was made at.
        private var lastPartial: (rowsWritten: UInt64, image: Image)?

        /// Starts a progressive read of an image with `header`, whose partial images have `targetSize`.
        ///
        /// - Throws: `imageTooLarge` when the canvas cannot be allocated; `badImageData` when libpng cannot
        ///   set up its state.
        init(header: PNGHeader, targetSize: PixelSize) throws(WebImageError) {
            let size = header.size
            let canvas = try PixelBuffer(uninitializedWidth: size.width, height: size.height)
            canvas.mutableBaseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: canvas.byteCount)
            var limits = webimage_png_limits(
                max_width: UInt32(clamping: size.width),
                max_height: UInt32(clamping: size.height),
                max_cached_chunks: PNGRowStream.maxCachedChunks,
                max_chunk_bytes: PNGRowStream.maxChunkBytes
            )
            var message = [CChar](repeating: 0, count: 200)
            let decoder = message.withUnsafeMutableBufferPointer { text in
                webimage_png_incremental_create(
                    &limits,
                    canvas.mutableBaseAddress.assumingMemoryBound(to: UInt8.self),
                    UInt32(clamping: size.width),
                    UInt32(clamping: size.height),
                    canvas.bytesPerRow,
                    text.baseAddress,
                    text.count
                )
            }
            guard let decoder else {
                try LibPNG.check(false, Session.text(of: message))
                throw .badImageData(.png, "libpng could not start a progressive read")
            }
            self.canvas = canvas
            self.targetSize = targetSize
            self.decoder = decoder
        }

        deinit {
            webimage_png_incremental_destroy(decoder)
        }

        /// Gives libpng the bytes of `data` (the whole file so far) that it has not had yet.
        ///
        /// - Throws: `badImageData` with libpng's message when the data is malformed, now or before.
        func append(from data: UnsafeRawBufferPointer) throws(WebImageError) {
            guard data.count > consumed, let base = data.baseAddress else { return }
            var message = [CChar](repeating: 0, count: 200)
            let result = message.withUnsafeMutableBufferPointer { text in
                webimage_png_incremental_feed(
                    decoder,
                    (base + consumed).assumingMemoryBound(to: UInt8.self),
                    data.count - consumed,
                    text.baseAddress,
                    text.count
                )
            }
            consumed = data.count
            try LibPNG.check(result == WEBIMAGE_PNG_INCREMENTAL_OK, Session.text(of: message))
        }

        /// How far libpng has come.
        var progress: webimage_png_incremental_progress {
            var progress = webimage_png_incremental_progress()
            webimage_png_incremental_get_progress(decoder, &progress)
            return progress
        }

        /// The canvas as a partial image of the target size; nil before the first row. Made again only when
        /// rows were written since the last one.
        func partialImage(scale: Double) throws(WebImageError) -> Image? {
            let rows = progress.rows_written
            guard rows > 0 else { return nil }
            if let lastPartial, lastPartial.rowsWritten == rows { return lastPartial.image }
            // The canvas cannot be published while libpng still writes into it, hence the copy.
            let pixels = try canvas.resampled(to: targetSize, hasAlpha: true)
            let image = Image(pixels: pixels, scale: scale, format: .png, hasAlpha: true, isIncremental: true)
            lastPartial = (rows, image)
            return image
        }

        /// The NUL-terminated text in `message`.
        private static func text(of message: [CChar]) -> String {
            String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
