import CoreMetrics
import Synchronization

/// The metric objects of one component (a manager, a cache or a downloader), made once from its factory so that
/// recording costs one call into the backend and no look-up. See ``ImageMetrics`` for what each one means.
///
/// Made only for a factory that records: ``make(_:)`` answers nil for swift-metrics' no-op factory, and a
/// component without a recorder skips every metric at the cost of one nil check. Thread-safe.
package final class ImageMetricsRecorder: Sendable {
    private let factory: any MetricsFactory

    /// Loads by source, of images then of encoded data.
    private let memoryImageLoads: Counter
    private let diskImageLoads: Counter
    private let networkImageLoads: Counter
    private let memoryDataLoads: Counter
    private let diskDataLoads: Counter
    private let networkDataLoads: Counter
    package let decodes: Counter
    package let encodes: Counter
    package let downloadedBytes: Counter
    private let memoryStoreFailures: Counter
    private let diskStoreFailures: Counter
    private let queueTimer: Timer
    private let downloadTimer: Timer
    private let decodeTimer: Timer
    private let transformTimer: Timer
    private let encodeTimer: Timer
    private let diskReadTimer: Timer
    private let diskWriteTimer: Timer
    package let transfersInFlight: Meter
    /// Each tier's bytes and entries gauges and its evictions counter, by ``Tier/rawValue``.
    private let tiers: [(bytes: Gauge, entries: Gauge, evictions: Counter)]
    /// The failure counters made so far, by error code: made on first use, as most codes never happen.
    private let failures = Mutex<[WebImageError.Code: Counter]>([:])
    /// The evictions each tier had counted when last reported, by ``Tier/rawValue``, for the counters' increments.
    private let reportedEvictions = Mutex<[Int]>(Array(repeating: 0, count: Tier.allCases.count))

    /// A cache tier, as its metrics' `tier` dimension names it.
    package enum Tier: Int, CaseIterable, Sendable {
        case memory
        case disk
        /// The manager's memory tier of encoded variants.
        case encodedMemory

        var dimension: String {
            switch self {
            case .memory: "memory"
            case .disk: "disk"
            case .encodedMemory: "encoded_memory"
            }
        }
    }

    /// A recorder over `factory`, or nil when `factory` is swift-metrics' no-op one.
    package static func make(_ factory: any MetricsFactory) -> ImageMetricsRecorder? {
        factory is NOOPMetricsHandler ? nil : ImageMetricsRecorder(factory: factory)
    }

    private init(factory: any MetricsFactory) {
        self.factory = factory
        func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        func timer(_ stage: String) -> Timer {
            Timer(label: ImageMetrics.stageDuration, dimensions: [("stage", stage)], factory: factory)
        }
        memoryImageLoads = counter(ImageMetrics.loads, [("source", "memory"), ("kind", "image")])
        diskImageLoads = counter(ImageMetrics.loads, [("source", "disk"), ("kind", "image")])
        networkImageLoads = counter(ImageMetrics.loads, [("source", "network"), ("kind", "image")])
        memoryDataLoads = counter(ImageMetrics.loads, [("source", "memory"), ("kind", "data")])
        diskDataLoads = counter(ImageMetrics.loads, [("source", "disk"), ("kind", "data")])
        networkDataLoads = counter(ImageMetrics.loads, [("source", "network"), ("kind", "data")])
        decodes = counter(ImageMetrics.decodes)
        encodes = counter(ImageMetrics.encodes)
        downloadedBytes = counter(ImageMetrics.downloadedBytes)
        memoryStoreFailures = counter(ImageMetrics.storeFailures, [("tier", "memory")])
        diskStoreFailures = counter(ImageMetrics.storeFailures, [("tier", "disk")])
        queueTimer = timer("queue")
        downloadTimer = timer("download")
        decodeTimer = timer("decode")
        transformTimer = timer("transform")
        encodeTimer = timer("encode")
        diskReadTimer = timer("disk_read")
        diskWriteTimer = timer("disk_write")
        transfersInFlight = Meter(label: ImageMetrics.transfersInFlight, dimensions: [], factory: factory)
        tiers = Tier.allCases.map { tier in
            let dimensions = [("tier", tier.dimension)]
            return (
                Gauge(label: ImageMetrics.cacheBytes, dimensions: dimensions, factory: factory),
                Gauge(label: ImageMetrics.cacheEntries, dimensions: dimensions, factory: factory),
                counter(ImageMetrics.evictions, dimensions)
            )
        }
    }

    // MARK: Loads

    /// A load of an image that the memory tier answered during its call: the hot path, one call into the backend.
    package func recordMemoryHit() {
        memoryImageLoads.increment(by: 1 as Int64)
    }

    /// A load of an image that ended with one from `cacheType` (`.none`: loaded).
    package func recordImageLoad(from cacheType: ImageCacheType) {
        switch cacheType {
        case .memory: memoryImageLoads.increment()
        case .disk: diskImageLoads.increment()
        default: networkImageLoads.increment()
        }
    }

    /// A load of encoded data that ended with bytes from `cacheType` (`.none`: made).
    package func recordDataLoad(from cacheType: ImageCacheType) {
        switch cacheType {
        case .memory: memoryDataLoads.increment()
        case .disk: diskDataLoads.increment()
        default: networkDataLoads.increment()
        }
    }

    /// A load that ended with an error of `code`.
    package func recordFailure(_ code: WebImageError.Code) {
        let counter = failures.withLock { counters in
            if let counter = counters[code] { return counter }
            let counter = Counter(label: ImageMetrics.loadFailures, dimensions: [("code", "\(code)")], factory: factory)
            counters[code] = counter
            return counter
        }
        counter.increment()
    }

    /// A store into `cacheType`'s tier that failed.
    package func recordStoreFailure(in cacheType: ImageCacheType) {
        (cacheType.includesDisk ? diskStoreFailures : memoryStoreFailures).increment()
    }

    // MARK: Stages

    package func recordQueueWait(_ duration: Duration) { queueTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordDownload(_ duration: Duration) { downloadTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordDecode(_ duration: Duration) { decodeTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordTransform(_ duration: Duration) { transformTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordEncode(_ duration: Duration) { encodeTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordDiskRead(_ duration: Duration) { diskReadTimer.recordNanoseconds(Self.nanoseconds(duration)) }
    package func recordDiskWrite(_ duration: Duration) { diskWriteTimer.recordNanoseconds(Self.nanoseconds(duration)) }

    // MARK: Tiers

    /// `tier` holds `bytes` in `entries` and has evicted `evictions` entries in all (a running total, of which the
    /// counter gets what it has not had yet).
    package func recordTier(_ tier: Tier, bytes: Int, entries: Int, evictions: Int) {
        let metrics = tiers[tier.rawValue]
        metrics.bytes.record(bytes)
        metrics.entries.record(entries)
        let new = reportedEvictions.withLock { reported in
            defer { reported[tier.rawValue] = max(reported[tier.rawValue], evictions) }
            return evictions - reported[tier.rawValue]
        }
        if new > 0 { metrics.evictions.increment(by: new) }
    }

    /// `duration` in whole nanoseconds, clamped to what an `Int64` holds.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? (seconds < 0 ? .min : .max) : total
    }
}
