/// Where the time of one load went, step by step, as Nuke's `ImageTaskMetrics`: on
/// ``ImageLoadResult/metrics`` and on the ``ImageManagerEvent/loadFinished(_:)`` event, for every API, the async
/// one included, and on ``ImageDataResult/metrics`` for the bytes of a variant. The wait in the downloader's queue is
/// ``download``'s ``ImageDownloadMetrics/queued``.
///
/// A step the load did not take is nil. A memory hit completed during the call has no metrics: it takes well under a
/// microsecond, less than reading a clock twice would add.
public struct ImageLoadMetrics: Sendable, Hashable {
    /// From the call to the final result.
    public var total: Duration
    /// Asking the cache tiers: the image's key, then the original's for a thumbnail or a transformed image; a disk
    /// hit's read and decode included.
    public var cacheLookup: Duration?
    /// The loader's part, from the request to the decoded image: waiting for a connection, the transfer, decoding.
    public var load: Duration?
    /// The transfer's own timings (DNS, connect, TLS, first byte, total, bytes), when a downloader loaded the bytes.
    public var download: ImageDownloadMetrics?
    /// Decoding the loaded bytes, when the loader says how long it took (the library's loaders do).
    public var decode: Duration?
    /// Running the transformer.
    public var transform: Duration?
    /// Writing to the cache tiers, encoding a thumbnail or a transformed image included, for a load that waits
    /// for its stores (`waitStoreCache`); nil for one that does not, which completes before its stores end.
    public var store: Duration?
    /// Encoding a variant's bytes (``ImageManager/loadImageData(url:options:context:completion:)``); an image load
    /// encodes only to store, inside ``store``.
    public var encode: Duration?

    public init(
        total: Duration = .zero, cacheLookup: Duration? = nil, load: Duration? = nil,
        download: ImageDownloadMetrics? = nil, decode: Duration? = nil, transform: Duration? = nil,
        store: Duration? = nil, encode: Duration? = nil
    ) {
        self.total = total
        self.cacheLookup = cacheLookup
        self.load = load
        self.download = download
        self.decode = decode
        self.transform = transform
        self.store = store
        self.encode = encode
    }
}
