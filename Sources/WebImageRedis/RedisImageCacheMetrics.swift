import CoreMetrics
import WebImageCore

/// The metrics a ``RedisImageCache`` reports through swift-metrics, next to the library's own (`ImageMetrics`).
///
/// | Label | Kind | Dimensions | Counts |
/// |---|---|---|---|
/// | `webimage_redis_lookups_total` | counter | `result`: `hit`, `miss`, `error`, `skipped` | look-ups of the cache tier (`skipped`: the breaker was open) |
/// | `webimage_redis_stores_total` | counter | `result`: `stored`, `too_large`, `error`, `skipped` | stores into the tier |
/// | `webimage_redis_fleet_waits_total` | counter | `result`: `found`, `claimed`, `passed`, `timed_out` | misses that waited for another process: the bytes came, this process took over the claim of a holder that was gone, the holder passed its claim, or the wait ran out |
/// | `webimage_redis_breaker_transitions_total` | counter | `state`: `open`, `closed` | the circuit breaker opening and closing |
/// | `webimage_redis_lookup_duration` | timer | `result`: `hit`, `miss` | one look-up's round trip (a fleet wait excluded) |
///
/// Made only when the factory records: with swift-metrics' no-op factory the cache makes no metric.
public enum RedisImageCacheMetrics {
    /// Look-ups by result.
    public static let lookups = "webimage_redis_lookups_total"
    /// Stores by result.
    public static let stores = "webimage_redis_stores_total"
    /// Fleet waits by result.
    public static let fleetWaits = "webimage_redis_fleet_waits_total"
    /// Circuit breaker transitions by the state entered.
    public static let breakerTransitions = "webimage_redis_breaker_transitions_total"
    /// The time of each look-up's round trip.
    public static let lookupDuration = "webimage_redis_lookup_duration"
}

/// The metric objects of one cache, made once from its factory. Thread-safe.
final class RedisMetricsRecorder: Sendable {
    enum Lookup: String, CaseIterable { case hit, miss, error, skipped }
    enum Store: String, CaseIterable { case stored, too_large, error, skipped }
    enum Wait: String, CaseIterable { case found, claimed, passed, timed_out }

    private let lookups: [String: Counter]
    private let stores: [String: Counter]
    private let waits: [String: Counter]
    private let opened: Counter
    private let closed: Counter
    private let hitTimer: Timer
    private let missTimer: Timer

    /// A recorder over `factory`, or nil when `factory` is swift-metrics' no-op one.
    static func make(_ factory: any MetricsFactory) -> RedisMetricsRecorder? {
        factory is NOOPMetricsHandler ? nil : RedisMetricsRecorder(factory: factory)
    }

    private init(factory: any MetricsFactory) {
        func counters(_ label: String, _ values: [String]) -> [String: Counter] {
            Dictionary(uniqueKeysWithValues: values.map { ($0, Counter(label: label, dimensions: [("result", $0)], factory: factory)) })
        }
        lookups = counters(RedisImageCacheMetrics.lookups, Lookup.allCases.map(\.rawValue))
        stores = counters(RedisImageCacheMetrics.stores, Store.allCases.map(\.rawValue))
        waits = counters(RedisImageCacheMetrics.fleetWaits, Wait.allCases.map(\.rawValue))
        opened = Counter(label: RedisImageCacheMetrics.breakerTransitions, dimensions: [("state", "open")], factory: factory)
        closed = Counter(label: RedisImageCacheMetrics.breakerTransitions, dimensions: [("state", "closed")], factory: factory)
        hitTimer = Timer(label: RedisImageCacheMetrics.lookupDuration, dimensions: [("result", "hit")], factory: factory)
        missTimer = Timer(label: RedisImageCacheMetrics.lookupDuration, dimensions: [("result", "miss")], factory: factory)
    }

    func record(_ lookup: Lookup, duration: Duration? = nil) {
        lookups[lookup.rawValue]?.increment()
        guard let duration else { return }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if lookup == .hit { hitTimer.recordNanoseconds(nanoseconds) } else if lookup == .miss { missTimer.recordNanoseconds(nanoseconds) }
    }

    func record(_ store: Store) {
        stores[store.rawValue]?.increment()
    }

    func record(_ wait: Wait) {
        waits[wait.rawValue]?.increment()
    }

    func record(_ transition: RedisCircuitBreaker.Transition) {
        switch transition {
        case .opened: opened.increment()
        case .closed: closed.increment()
        }
    }
}
