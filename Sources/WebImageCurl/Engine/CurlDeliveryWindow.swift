/// When the curl thread sends the completions it has gathered (see ``WebImageCore/DeliveryBatch``): at once after
/// a quiet spell, so that a lone download is not delayed, and at most once per window during a burst, so that a
/// burst costs one thread wake-up per window rather than one per completion.
struct CurlDeliveryWindow {
    /// The least time between two sends, in nanoseconds; zero sends every time.
    let length: Int64
    /// When completions were last sent.
    private var lastSend: CurlInstant

    init(length: Duration, now: CurlInstant = .now) {
        self.length = max(0, CurlInstant.nanoseconds(length))
        // A window that has already passed: the first completion is sent at once.
        lastSend = CurlInstant(nanoseconds: now.nanoseconds &- self.length)
    }

    /// Whether gathered completions may be sent at `now` (nil, and the send is recorded), or else how many
    /// nanoseconds until they may.
    mutating func wait(at now: CurlInstant) -> Int64? {
        let due = lastSend + length
        if now < due { return due - now }
        lastSend = now
        return nil
    }
}
