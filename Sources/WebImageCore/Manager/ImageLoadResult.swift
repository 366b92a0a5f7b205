#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``ImageManager/loadImage(url:options:context:progress:completion:)`` delivers.
public struct ImageLoadResult: Sendable {
    /// How the image was obtained.
    public enum Outcome: Sendable, Hashable {
        /// Found in a cache tier (``ImageLoadResult/cacheType`` says which).
        case cached
        /// Loaded by the loader (the network, a `data:` or a `file:` URL).
        case loaded
        /// With `refreshCached`: the cached image, delivered at once; a final result follows when the server has
        /// answered. Not final.
        case refreshing
        /// With `progressiveLoad`: an image decoded from the part of the data received so far (SDWebImage's
        /// `finished == NO`), transformed as the final one will be, never stored. Not final: the final result
        /// follows, or an error or cancellation.
        case partial
        /// With `refreshCached`: the server said the cached image is still current (a `304`, or the same bytes).
        case notModified
    }

    /// The image (a thumbnail or a transformed image when the context asked for one).
    public var image: Image
    /// The bytes the image was decoded from; nil for thumbnails and transformed images, and for memory hits
    /// unless `queryMemoryData` was asked for.
    public var data: Data? {
        get { extras?.data }
        set { change { $0.data = newValue } }
    }
    /// The tier that held the image; `.none` for an image that was loaded.
    public var cacheType: ImageCacheType
    /// The URL asked for.
    public var url: URL
    /// How the image was obtained.
    public var outcome: Outcome
    /// With `waitStoreCache`: why the image or its bytes could not be stored (`diskIO` for a full or read-only
    /// disk, or an encoder's error), the first failure when several stores were made; nil when every store
    /// succeeded. Always nil for a load that did not wait for its stores: ``ImageManager/events(bufferingNewest:)``
    /// reports those failures.
    public var storeError: WebImageError? {
        get { extras?.storeError }
        set { change { $0.storeError = newValue } }
    }
    /// Where the load's time went, step by step; nil for a memory hit completed during the call, and for partial
    /// and refreshing results.
    public var metrics: ImageLoadMetrics? {
        get { extras?.metrics }
        set { change { $0.metrics = newValue } }
    }
    /// ``data``, ``storeError`` and ``metrics`` in one immutable box of their own: a result without any (every
    /// memory hit) is then copied and destroyed with two references and one empty one, with no call into `Data`'s
    /// representation for its missing bytes.
    private var extras: Extras?

    /// Replaces ``extras`` with a changed copy, or with nothing when nothing is left in it.
    private mutating func change(_ edit: (inout Extras.Fields) -> Void) {
        var fields = extras?.fields ?? Extras.Fields()
        edit(&fields)
        extras = fields.isEmpty ? nil : Extras(fields)
    }

    /// A result, for loaders and caches of one's own and for tests.
    public init(
        image: Image, data: Data?, cacheType: ImageCacheType, url: URL, outcome: Outcome, storeError: WebImageError? = nil
    ) {
        self.image = image
        self.cacheType = cacheType
        self.url = url
        self.outcome = outcome
        if data != nil || storeError != nil { extras = Extras(Extras.Fields(data: data, storeError: storeError)) }
    }

    /// The result of a memory hit: the image as the memory tier holds it, without data.
    static func memoryHit(_ image: Image, url: URL) -> ImageLoadResult {
        ImageLoadResult(memoryHit: image, url: url)
    }

    /// A memory hit, made field by field: nothing optional to test, nothing extra to box.
    private init(memoryHit image: Image, url: URL) {
        self.image = image
        cacheType = .memory
        self.url = url
        outcome = .cached
        extras = nil
    }

    /// Whether this is the operation's last result: false for ``Outcome/refreshing`` and ``Outcome/partial``.
    public var isFinal: Bool { outcome != .refreshing && outcome != .partial }
}

/// Called with a load's result: once with the final result, after, for `refreshCached` with a cached image, a
/// ``ImageLoadResult/Outcome/refreshing`` result, and for `progressiveLoad`, ``ImageLoadResult/Outcome/partial``
/// results. Results never overlap and none comes after the final one.
public typealias ImageLoadResultHandler = @Sendable (Result<ImageLoadResult, WebImageError>) -> Void

/// The rarely set parts of an ``ImageLoadResult``, immutable.
private final class Extras: Sendable {
    struct Fields: Sendable {
        var data: Data?
        var storeError: WebImageError?
        var metrics: ImageLoadMetrics?

        var isEmpty: Bool { data == nil && storeError == nil && metrics == nil }
    }

    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }

    var data: Data? { fields.data }
    var storeError: WebImageError? { fields.storeError }
    var metrics: ImageLoadMetrics? { fields.metrics }
}
