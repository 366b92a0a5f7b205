import CoreMetrics

/// The metrics the library reports through swift-metrics: their labels, kinds and dimensions.
///
/// The manager, the cache and the downloader each take a `MetricsFactory` (by default `MetricsSystem.factory`, read
/// when they are made) and report to it. Until the application bootstraps the metrics system the factory is
/// swift-metrics' no-op one, and the library then makes no metric and records nothing: a component made before
/// the bootstrap stays silent, as swift-metrics' own metric objects made before it do.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
/// let manager = ImageManager(cache: cache, loader: downloader)   // reports to the registry
/// ```
///
/// | Label | Kind | Dimensions | Reported by |
/// |---|---|---|---|
/// | `webimage_loads_total` | counter | `source`: `memory`, `disk`, `network`; `kind`: `image`, `data` | manager, for every final result |
/// | `webimage_load_failures_total` | counter | `code`: the error code's name (``WebImageError/Code``) | manager |
/// | `webimage_decodes_total` | counter | | manager: each image decoded for a load (body or disk data) |
/// | `webimage_encodes_total` | counter | | cache and manager: each image encoded to be stored or served |
/// | `webimage_store_failures_total` | counter | `tier`: `memory`, `disk` | manager |
/// | `webimage_downloaded_bytes_total` | counter | | downloader: body bytes of finished transfers |
/// | `webimage_cache_evictions_total` | counter | `tier`: `memory`, `disk`, `encoded_memory` | cache; manager for `encoded_memory`: entries evicted by a limit |
/// | `webimage_stage_duration` | timer | `stage`: `queue`, `download`, `decode`, `transform`, `encode`, `disk_read`, `disk_write` | see below |
/// | `webimage_cache_bytes` | gauge | `tier`: `memory`, `disk`, `encoded_memory` | cache; manager for `encoded_memory` |
/// | `webimage_cache_entries` | gauge | `tier`: `memory`, `disk`, `encoded_memory` | cache; manager for `encoded_memory` |
/// | `webimage_transfers_in_flight` | gauge | | downloader: transfers started and not finished, queued ones included |
///
/// A `loadImageData` call that makes its variant loads the image through `loadImage`, which counts as an `image`
/// load of its own; the call's result counts as a `data` load (`network` when the variant was made).
///
/// The stages: `queue` and `download` come from the downloader (the wait in its queue, then libcurl's whole
/// transfer); `decode` and `transform` from the manager's loads; `encode` from the cache and the manager;
/// `disk_read` is the manager's cache look-up that the disk tier answered (reading and decoding included);
/// `disk_write` is the cache's write of one entry, its encoding excluded.
///
/// Gauges are set when their tier changes (the memory tier on each store, the disk tier after each write), not on
/// a timer: nothing runs in the background for them.
public enum ImageMetrics {
    /// Loads that ended with an image, by where it came from.
    public static let loads = "webimage_loads_total"
    /// Loads that ended with an error, by error code (cancelled loads included, as `cancelled`).
    public static let loadFailures = "webimage_load_failures_total"
    /// Images decoded for loads.
    public static let decodes = "webimage_decodes_total"
    /// Images encoded to be stored or served.
    public static let encodes = "webimage_encodes_total"
    /// Stores into a cache tier that failed.
    public static let storeFailures = "webimage_store_failures_total"
    /// Body bytes of the transfers that finished.
    public static let downloadedBytes = "webimage_downloaded_bytes_total"
    /// Entries a cache tier evicted to keep within its limits.
    public static let evictions = "webimage_cache_evictions_total"
    /// The time each stage of a load took.
    public static let stageDuration = "webimage_stage_duration"
    /// The bytes a cache tier holds (its cost, for the memory tier).
    public static let cacheBytes = "webimage_cache_bytes"
    /// The entries a cache tier holds.
    public static let cacheEntries = "webimage_cache_entries"
    /// Transfers the downloader has started and not finished.
    public static let transfersInFlight = "webimage_transfers_in_flight"
}
