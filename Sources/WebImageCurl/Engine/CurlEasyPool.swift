import CCurl

/// Easy handles kept between transfers, so that a steady stream of transfers does not make and free a handle each.
///
/// A handle that served a plain request (see ``CurlHandleSettings``) comes back with its options in place; the
/// next request with equal settings takes it and sets only what belongs to the transfer. Any other handle is reset
/// (`curl_easy_reset` clears every option, but keeps the handle's share, cookies and TLS session cache, so the engine
/// frees rather than returns the handles of transfers that used cookies or skipped certificate checks) before a
/// request sets all its options on it.
///
/// On libcurl before 8.1.0 a handle that performed a transfer never serves another (see
/// ``reusesPerformedHandles``): the pool keeps a copy with the same options instead.
///
/// Curl thread only. Keeps at most ``capacity`` idle handles; ``drain()`` frees them at shutdown.
final class CurlEasyPool {
    private struct Idle {
        let easy: UnsafeMutableRawPointer
        /// The settings still on the handle; nil once it has been reset.
        var settings: CurlHandleSettings?
    }

    private var idle: [Idle] = []
    private let counters: CurlLiveCounters
    /// The most idle handles kept.
    let capacity: Int

    /// Whether a handle that performed a transfer may perform another. libcurl before 8.1.0 keeps, in a handle's
    /// state, a pointer to the last response header it stored and frees the headers when the handle's next transfer
    /// starts without clearing that pointer (`curl_easy_reset` leaves it too); a reply whose first header line is
    /// folded (starts with a space) then makes curl append to freed memory (curl issue 11101, fixed in 8.1.0). Any
    /// server can send such a reply, so on those versions the pool keeps, of a used handle, a copy made by
    /// `curl_easy_duphandle` (the same options, a state of its own that no transfer has touched), and frees the
    /// used one; connections, kept by the multi handle, are reused as before.
    static let reusesPerformedHandles = CurlRuntime.versionNumber >= 0x08_01_00

    init(capacity: Int, counters: CurlLiveCounters) {
        self.capacity = max(0, capacity)
        self.counters = counters
    }

    /// A handle for a request with `settings`: an idle one that has them in place (`settingsInPlace`), else an idle
    /// one reset, else a new one; nil when curl cannot make one.
    func take(for settings: CurlHandleSettings?) -> (easy: UnsafeMutableRawPointer, settingsInPlace: Bool)? {
        if let settings, let index = idle.lastIndex(where: { $0.settings == settings }) {
            return (idle.remove(at: index).easy, true)
        }
        if let handle = idle.popLast() {
            if handle.settings != nil { curl_easy_reset(handle.easy) }
            return (handle.easy, false)
        }
        guard let easy = curl_easy_init() else { return nil }
        counters.handleOpened()
        return (easy, false)
    }

    /// Takes back a handle that is out of the multi handle: kept with `settings` in place (nothing of its last
    /// transfer may still point into it), or reset and kept when `settings` is nil, or freed when the pool is full.
    /// Where a used handle must not perform again, a copy of it is kept instead when `settings` is set, and nothing
    /// when it is nil.
    func give(_ easy: UnsafeMutableRawPointer, settings: CurlHandleSettings?) {
        guard idle.count < capacity else {
            Self.free(easy, counters)
            return
        }
        if Self.reusesPerformedHandles {
            if settings == nil { curl_easy_reset(easy) }
            idle.append(Idle(easy: easy, settings: settings))
            return
        }
        guard settings != nil, let copy = curl_easy_duphandle(easy) else {
            Self.free(easy, counters)
            return
        }
        // One handle out, one in: the live count stays as it is.
        curl_easy_cleanup(easy)
        idle.append(Idle(easy: copy, settings: settings))
    }

    /// Frees every idle handle.
    func drain() {
        for handle in idle { Self.free(handle.easy, counters) }
        idle.removeAll()
    }

    /// Frees a handle this pool made (or one handed to a transfer that never gave it back).
    static func free(_ easy: UnsafeMutableRawPointer, _ counters: CurlLiveCounters) {
        curl_easy_cleanup(easy)
        counters.handleClosed()
    }
}
