#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

extension ImageCache {
    /// Stores `image` and its encoded `data` under `key` in the tiers `cacheType` names.
    ///
    /// - The memory write (cost: the image's ``Image/memoryCost``) happens during the call: the image is
    ///   visible to queries before this method returns. It is skipped when the config keeps no images in memory.
    /// - The disk write happens on the IO queue, atomically. Without `data`, an animation decoded on demand
    ///   (``Image/animation``) at full size is written as the bytes it was decoded from, as SDWebImage writes an
    ///   `SDAnimatedImage`'s `animatedImageData`, unless the encode options ask for fewer frames or pixels; any
    ///   other image is encoded first, on the executor, with the context's coder and encode options, in the
    ///   image's own format, else GIF for an animation, PNG with alpha, JPEG otherwise. The image's
    ///   ``Image/extendedObject``, when it has one, goes into the entry's extended data after the write, as
    ///   SDWebImage archives `sd_extendedObject`.
    ///
    /// - Parameter completion: Runs once the tiers asked for are written (during the call when memory alone was
    ///   asked for), on the context's callback queue; a failed disk write or encode is `diskIO` or the
    ///   encoder's error, naming the key. Nothing already stored is lost by a failed write.
    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        cacheType: ImageCacheType = .all,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)? = nil
    ) {
        let callbackQueue = context.callbackQueue ?? .default
        let complete: @Sendable (Result<Void, WebImageError>, Bool) -> Void = { result, duringCall in
            guard let completion else { return }
            callbackQueue.execute(duringCall: duringCall) { completion(result) }
        }
        guard !key.isEmpty, image != nil || data != nil else {
            complete(.success(()), true)
            return
        }
        if let image, cacheType.includesMemory, config.shouldCacheImagesInMemory {
            memoryCache.setImage(image, forKey: key)
            if let metrics {
                let statistics = memoryCache.statistics
                metrics.recordTier(.memory, bytes: statistics.totalCost, entries: statistics.count, evictions: statistics.evictions)
            }
        }
        guard cacheType.includesDisk else {
            complete(.success(()), true)
            return
        }
        let extendedObject = image?.extendedObject
        if let data {
            write(data, forKey: key, extendedObject: extendedObject, complete: complete)
            return
        }
        guard let image else { return }
        let encodeOptions = context.encodeOptions ?? ImageEncodeOptions()
        if let original = Self.originalData(of: image, encodeOptions: encodeOptions) {
            write(original, forKey: key, extendedObject: extendedObject, complete: complete)
            return
        }
        let coder = context.imageCoder ?? self.coder
        let ticket = pendingEncodes.begin()
        executor.submit { [self] in
            // Ended once the write is on the IO queue (or the encode failed), for `flush()`.
            defer { pendingEncodes.end(ticket) }
            let format = coder.encodingFormat(for: image)
            let encoding = ContinuousClock.now
            do throws(WebImageError) {
                let data = try coder.encode(image, as: format, options: encodeOptions)
                if let metrics {
                    metrics.encodes.increment()
                    metrics.recordEncode(ContinuousClock.now - encoding)
                }
                write(data, forKey: key, extendedObject: extendedObject, complete: complete)
            } catch {
                warningLog?.warning("encoding for the disk failed", metadata: [
                    "key": LogMetadata.key(key), "error_code": "\(error.code)", "error": "\(CredentialRedaction.redacting(error.message))",
                ])
                complete(.failure(WebImageError(error.code, "encoding the image for key \(key) failed: \(error.message)")), false)
            }
        }
    }

    /// The bytes an animation decoded on demand was decoded from, when they are what encoding `image` would
    /// stand for: SDWebImage stores an `SDAnimatedImage`'s `animatedImageData` as it is. Nil (encode instead)
    /// when the frames were decoded reduced (a thumbnail or a scale-down limit), when the image is not the
    /// animation's own size (a transformed image), or when the encode options ask for fewer frames or pixels, or
    /// for fewer bytes than the original has.
    package static func originalData(of image: Image, encodeOptions: ImageEncodeOptions) -> Data? {
        guard let animation = image.animation, !encodeOptions.firstFrameOnly, encodeOptions.maxPixelSize == nil,
              image.pixelSize == animation.frameSize else { return nil }
        let decoded = animation.decodeOptions
        if let thumbnail = decoded.thumbnailPixelSize, !thumbnail.isEmpty { return nil }
        guard decoded.scaleDownLimitBytes == nil else { return nil }
        let data = animation.data
        // Bytes over the encode options' size limit are encoded to meet it (for the lossy formats).
        if let limit = encodeOptions.maxFileSize, limit > 0, data.count > limit { return nil }
        return data.isEmpty ? nil : data
    }

    private func write(
        _ data: Data,
        forKey key: String,
        extendedObject: Data?,
        complete: @escaping @Sendable (Result<Void, WebImageError>, Bool) -> Void
    ) {
        diskCache.perform { [metrics, debugLog, warningLog] store in
            let writing = ContinuousClock.now
            let evictedBefore = store.evictions
            do throws(WebImageError) {
                try store.setData(data, forKey: key)
                if let extendedObject {
                    // A new entry has no extended data: the object is all there is to keep.
                    var extras = ImageCacheEntryExtras()
                    extras.extendedObject = extendedObject
                    try store.setExtendedData(extras.encoded, forKey: key)
                }
                if let metrics {
                    metrics.recordDiskWrite(ContinuousClock.now - writing)
                    metrics.recordTier(.disk, bytes: store.totalSize, entries: store.totalCount, evictions: store.evictions)
                }
                if let debugLog {
                    debugLog.debug("stored on disk", metadata: [
                        "key": LogMetadata.key(key), "bytes": "\(data.count)",
                        "duration_ms": LogMetadata.milliseconds(ContinuousClock.now - writing),
                    ])
                    if store.evictions > evictedBefore {
                        debugLog.debug("evicted from disk", metadata: [
                            "entries": "\(store.evictions - evictedBefore)", "total_bytes": "\(store.totalSize)",
                        ])
                    }
                }
                complete(.success(()), false)
            } catch {
                warningLog?.warning("disk write failed", metadata: [
                    "key": LogMetadata.key(key), "error_code": "\(error.code)", "error": "\(CredentialRedaction.redacting(error.message))",
                ])
                complete(.failure(error), false)
            }
        }
    }
}
