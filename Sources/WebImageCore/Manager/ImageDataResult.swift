#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``ImageManager/loadImageData(url:options:context:completion:)`` delivers: the encoded bytes of the
/// variant asked for, with what a server sends with them.
public struct ImageDataResult: Sendable {
    /// The bytes.
    public var data: Data
    /// Their format (for `Content-Type`, see ``ImageFormat/mimeType``).
    public var format: ImageFormat
    /// The pixel size of the image they hold (of the first frame, for an animation).
    public var pixelSize: PixelSize
    /// Where the bytes were found: `.memory` (the encoded memory tier), `.disk`, or `.none` when they were loaded
    /// or made for this call.
    public var cacheType: ImageCacheType
    /// The URL asked for.
    public var url: URL
    /// The key the variant is stored under.
    public var key: String
    /// Why the variant could not be stored, when it was made or loaded for this call and storing failed; the
    /// bytes are good all the same.
    public var storeError: WebImageError?
    /// Where the time went when the bytes were read from disk, loaded or made: from the start of the work (which
    /// concurrent calls for one variant share) to the bytes. The disk look-up is ``ImageLoadMetrics/cacheLookup``;
    /// a variant made from an image carries that image load's steps, then ``ImageLoadMetrics/encode`` and, with
    /// `waitStoreCache`, ``ImageLoadMetrics/store``. Nil for a hit in the encoded memory tier.
    public var metrics: ImageLoadMetrics?

    public init(
        data: Data, format: ImageFormat, pixelSize: PixelSize, cacheType: ImageCacheType, url: URL, key: String,
        storeError: WebImageError? = nil
    ) {
        self.data = data
        self.format = format
        self.pixelSize = pixelSize
        self.cacheType = cacheType
        self.url = url
        self.key = key
        self.storeError = storeError
    }

    /// The bytes with their format and size.
    public var encodedImage: EncodedImage {
        EncodedImage(data: data, format: format, pixelSize: pixelSize)
    }
}

/// Called once with the outcome of ``ImageManager/loadImageData(url:options:context:completion:)``.
public typealias ImageDataResultHandler = @Sendable (Result<ImageDataResult, WebImageError>) -> Void

/// One call of ``ImageManager/loadImageData(url:options:context:completion:)``, to cancel it by.
///
/// The completion runs exactly once: with the bytes, an error, or `cancelled` when ``cancel()`` comes first,
/// whatever the race. Cancelling leaves the other callers of the same variant their result; the work stops when
/// the last of them has cancelled. Thread-safe.
public final class ImageDataOperation: Sendable {
    /// The URL asked for.
    public let url: URL?
    /// The call's latch; nil for a call whose result was delivered during it, which has nothing left to cancel.
    let latch: CompletionLatch<ImageDataResult>?

    init(url: URL?, latch: CompletionLatch<ImageDataResult>?) {
        self.url = url
        self.latch = latch
    }

    /// Completes the call at once with `cancelled`, unless it has completed; returns at once.
    public func cancel() {
        latch?.cancel()
    }

    /// Whether ``cancel()`` came before the result.
    public var isCancelled: Bool { latch?.isCancelled ?? false }

    /// Whether the result has been delivered or claimed by a cancellation.
    public var isFinished: Bool { latch?.isDone ?? true }
}
