import CCurl

/// Easy handles kept between transfers: a finished transfer's handle is reset (`curl_easy_reset` clears every
/// option, but keeps the handle's share, cookies and TLS session cache, so the engine frees rather than returns the
/// handles of transfers that used cookies or skipped certificate checks) and handed to the next transfer, so that a
/// steady stream of transfers does not make and free a handle each.
///
/// Curl thread only. Keeps at most ``capacity`` idle handles; ``drain()`` frees them at shutdown.
final class CurlEasyPool {
    private var idle: [UnsafeMutableRawPointer] = []
    private let counters: CurlLiveCounters
    /// The most idle handles kept.
    let capacity: Int

    init(capacity: Int, counters: CurlLiveCounters) {
        self.capacity = max(0, capacity)
        self.counters = counters
    }

    /// An idle handle, or a new one; nil when curl cannot make one.
    func take() -> UnsafeMutableRawPointer? {
        if let easy = idle.popLast() { return easy }
        guard let easy = curl_easy_init() else { return nil }
        counters.handleOpened()
        return easy
    }

    /// Takes back a handle that is out of the multi handle: reset and kept, or freed when the pool is full.
    func give(_ easy: UnsafeMutableRawPointer) {
        guard idle.count < capacity else {
            Self.free(easy, counters)
            return
        }
        curl_easy_reset(easy)
        idle.append(easy)
    }

    /// Frees every idle handle.
    func drain() {
        for easy in idle { Self.free(easy, counters) }
        idle.removeAll()
    }

    /// Frees a handle this pool made (or one handed to a transfer that never gave it back).
    static func free(_ easy: UnsafeMutableRawPointer, _ counters: CurlLiveCounters) {
        curl_easy_cleanup(easy)
        counters.handleClosed()
    }
}
