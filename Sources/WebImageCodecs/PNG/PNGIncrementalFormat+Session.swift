#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebImageShims
import WebImageCore

extension PNGIncrementalFormat {
    /// One libpng progressive read and the full-size canvas it writes into.
    ///
    /// Not thread-safe: one call at a time, which its owner guarantees.
    final class Session: @unchecked Sendable {
        // Sendable because it is only ever used by one thread at a time: ``PhasedIncrementalDecoder`` takes it out
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
