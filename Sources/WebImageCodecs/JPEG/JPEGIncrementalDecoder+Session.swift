#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebImageShims
import WebImageCore

extension JPEGIncrementalDecoder {
    /// libjpeg's incremental decoder (the C shim's handle) and the buffer it decodes into.
    ///
    /// Not thread-safe: one call at a time, which its owner guarantees.
    final class Session: @unchecked Sendable {
        // Sendable because it is only ever used by one thread at a time: ``JPEGIncrementalDecoder`` takes it out of
        // its locked state for the length of one call, and its callers never overlap calls
        // (``IncrementalImageDecoding``'s contract). It may move between threads between calls.

        /// TurboJPEG's limit on scans, which the one-shot decode applies too.
        static let maxScans: UInt32 = 500
        /// Room for libjpeg's messages.
        static let messageCapacity = 200

        private let handle: OpaquePointer
        private let options: ImageDecodeOptions
        /// The decode's sizes and steps, once the header is read.
        private var plan: JPEGDecodePlan?
        /// The DCT-scaled image in the stored orientation, zeroed (transparent) before libjpeg writes its rows.
        private var canvas: PixelBuffer?
        private var progress = webimage_jpeg_progress()
        /// Counts changes to the canvas, so that an image is copied once per change.
        private var generation = 0
        private var lastImage: (generation: Int, image: Image)?
        /// Whether decoding stopped for good (unsupported, over the limits, damaged data).
        private(set) var isStopped = false

        /// Starts a decode bounded by `options`' pixel limit; nil when libjpeg cannot allocate its state.
        init?(options: ImageDecodeOptions) {
            var limits = webimage_jpeg_limits(
                max_width: Self.maxSide(options),
                max_height: Self.maxSide(options),
                max_memory: Self.maxMemory(options),
                max_scans: Self.maxScans
            )
            guard let handle = webimage_jpeg_decoder_create(&limits) else { return nil }
            self.handle = handle
            self.options = options
        }

        deinit {
            webimage_jpeg_decoder_destroy(handle)
        }

        /// Whether any rows (or a first scan) have been decoded.
        var hasPixels: Bool { canvas != nil && progress.rows_valid > 0 }

        /// Decodes as far as `data`, all the bytes so far, allows; an error stops the session.
        func advance(_ data: Data, isFinished: Bool) {
            guard !isStopped else { return }
            do {
                try data.withBytes { bytes throws(WebImageError) in
                    var status = feed(bytes, isFinished: isFinished)
                    if status.code == WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY {
                        try start(bytes)
                        status = feed(bytes, isFinished: isFinished)
                    }
                    try Self.check(status)
                }
            } catch {
                isStopped = true
            }
        }

        /// Feeds the shim, and counts a change when it wrote rows or a scan.
        private func feed(
            _ bytes: UnsafeRawBufferPointer,
            isFinished: Bool
        ) -> (code: webimage_jpeg_incremental_status, message: String) {
            let before = (progress.rows_valid, progress.scans_shown)
            let status = callFeed(bytes, isFinished: isFinished)
            if before != (progress.rows_valid, progress.scans_shown) { generation += 1 }
            return status
        }

        /// The partial image, or nil before the first pixels.
        func image(scale: Double) -> Image? {
            guard let canvas, let plan, progress.rows_valid > 0 else { return nil }
            if let lastImage, lastImage.generation == generation { return lastImage.image }
            let isWhole = Int(progress.rows_valid) >= canvas.height
            guard let pixels = try? Self.render(canvas, plan: plan, hasAlpha: !isWhole) else { return nil }
            let image = Image(
                pixels: pixels,
                scale: scale,
                format: .jpeg,
                hasAlpha: !isWhole,
                orientation: plan.reportedOrientation,
                isIncremental: true
            )
            lastImage = (generation, image)
            return image
        }

        /// Plans the decode from the header as ``JPEGCoder/decode(_:options:)`` does, sets libjpeg's scale and
        /// allocates the canvas.
        ///
        /// - Throws: `imageTooLarge` over the pixel limit; `badImageData` when libjpeg disagrees with the plan.
        private func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
            let scan = try JPEGMarkerScan(bytes, extent: .header)
            let storedSize = PixelSize(width: Int(progress.width), height: Int(progress.height))
            let plan = try JPEGDecodePlan(
                storedSize: storedSize,
                orientation: scan.orientation(in: bytes),
                frame: scan.frameHeader(size: storedSize, componentCount: 3),
                needsWholeImageCoefficients: progress.has_multiple_scans != 0,
                options: options
            )
            try options.checkDecodeMemory(Self.memory(of: plan), format: .jpeg)
            let status = Self.withMessage { text, capacity in
                webimage_jpeg_decoder_set_scale(
                    handle,
                    UInt32(plan.factor.numerator),
                    UInt32(plan.factor.denominator),
                    &progress,
                    text,
                    capacity
                )
            }
            try Self.check(status)
            let output = PixelSize(width: Int(progress.output_width), height: Int(progress.output_height))
            guard output == plan.scaledSize else {
                throw .badImageData(.jpeg, "libjpeg scales to \(output) where TurboJPEG gives \(plan.scaledSize)")
            }
            let canvas = try PixelBuffer(uninitializedWidth: output.width, height: output.height)
            canvas.mutableBaseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: canvas.byteCount)
            self.plan = plan
            self.canvas = canvas
        }

        /// One call to the shim's feed with the canvas (none before the scale is set).
        private func callFeed(
            _ bytes: UnsafeRawBufferPointer,
            isFinished: Bool
        ) -> (code: webimage_jpeg_incremental_status, message: String) {
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return Self.withMessage { text, capacity in
                webimage_jpeg_decoder_feed(
                    handle,
                    base,
                    bytes.count,
                    isFinished ? 1 : 0,
                    canvas?.mutableBaseAddress.assumingMemoryBound(to: UInt8.self),
                    canvas?.bytesPerRow ?? 0,
                    canvas?.byteCount ?? 0,
                    &progress,
                    text,
                    capacity
                )
            }
        }

        /// Turns a status of the shim into a typed error with libjpeg's message, for a failure.
        private static func check(
            _ status: (code: webimage_jpeg_incremental_status, message: String)
        ) throws(WebImageError) {
            switch status.code {
            case WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA, WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY,
                 WEBIMAGE_JPEG_INCREMENTAL_UPDATED, WEBIMAGE_JPEG_INCREMENTAL_COMPLETE:
                return
            case WEBIMAGE_JPEG_INCREMENTAL_UNSUPPORTED:
                throw WebImageError(.unsupportedFormat, "JPEG: \(status.message)")
            default:
                let message = status.message.isEmpty ? "libjpeg stopped without a message" : status.message
                throw .badImageData(.jpeg, message)
            }
        }

        /// Runs `body` with a message buffer for the shim and returns its status with the message.
        private static func withMessage(
            _ body: (UnsafeMutablePointer<CChar>?, Int) -> webimage_jpeg_incremental_status
        ) -> (code: webimage_jpeg_incremental_status, message: String) {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: messageCapacity) { text in
                text.initialize(repeating: 0)
                let code = body(text.baseAddress, text.count)
                let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return (code, message)
            }
        }
        /// The canvas finished as the one-shot decode finishes its decode: resampled to the output size, then
        /// turned upright, into a new buffer. Transparent rows not yet decoded are resampled with alpha, so that
        /// their black never bleeds into the decoded rows.
        private static func render(
            _ canvas: PixelBuffer,
            plan: JPEGDecodePlan,
            hasAlpha: Bool
        ) throws(WebImageError) -> PixelBuffer {
            let final = try PixelBuffer(uninitializedWidth: plan.finalSize.width, height: plan.finalSize.height)
            if plan.decodesIntoFinalBuffer {
                final.mutableBaseAddress.copyMemory(from: canvas.baseAddress, byteCount: canvas.byteCount)
            } else if !plan.resamples {
                plan.orientation.makeUpright(
                    canvas.baseAddress,
                    size: canvas.size,
                    bytesPerRow: canvas.bytesPerRow,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
            } else if !plan.turnsUpright {
                PixelResampler.resample(
                    canvas.baseAddress,
                    size: canvas.size,
                    bytesPerRow: canvas.bytesPerRow,
                    hasAlpha: hasAlpha,
                    into: final.mutableBaseAddress,
                    size: plan.outputSize,
                    bytesPerRow: final.bytesPerRow
                )
            } else {
                let small = try canvas.resampled(to: plan.outputSize, hasAlpha: hasAlpha)
                plan.orientation.makeUpright(
                    small.baseAddress,
                    size: small.size,
                    bytesPerRow: small.bytesPerRow,
                    into: final.mutableBaseAddress,
                    bytesPerRow: final.bytesPerRow
                )
            }
            return final
        }

        /// What a progressive decode holds at its peak, when the finished data is decoded in one shot beside the
        /// session: libjpeg's state (the coefficients and row buffers the one-shot decode needs too), the canvas,
        /// the last partial image, and the one-shot decode itself.
        static func memory(of plan: JPEGDecodePlan) -> DecodeMemoryEstimate {
            var memory = DecodeMemoryEstimate()
            memory.add("partial images' coefficients", bytes: plan.coefficientBytes)
            memory.add("partial images' row buffers", bytes: plan.rowBufferBytes)
            memory.add("partial images' canvas", pixels: plan.scaledSize)
            memory.add("last partial image", pixels: plan.finalSize)
            memory.add(plan.memory)
            return memory
        }

        /// The widest or tallest stored image the shim reads a header for: JPEG's own 65500, or less when even
        /// the smallest DCT scale (1/8) of a longer side would be over the pixel limit, which the plan refuses.
        private static func maxSide(_ options: ImageDecodeOptions) -> UInt32 {
            let jpegLimit = 65_500
            guard options.maxPixelCount > 0, options.maxPixelCount < jpegLimit / 8 else { return UInt32(jpegLimit) }
            return UInt32(options.maxPixelCount * 8)
        }

        /// The most memory libjpeg may take for its whole-image buffers, a bound behind the plan's estimate: the
        /// decode memory budget, or with none, room for a CMYK file's coefficients (8 bytes a stored pixel)
        /// within the pixel limit, with room for its other buffers; no bound without either.
        private static func maxMemory(_ options: ImageDecodeOptions) -> Int {
            if options.maxDecodeMemory > 0 { return options.maxDecodeMemory }
            guard options.maxPixelCount > 0 else { return 0 }
            return DecodeMemoryEstimate.sum(DecodeMemoryEstimate.product(options.maxPixelCount, 8), 64 << 20)
        }
    }
}
