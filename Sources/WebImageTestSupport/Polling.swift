/// Polls `condition` every 5 ms until it holds or `timeout` passes; returns whether it held.
///
/// For tests that wait for work on other threads: it suspends between polls (never blocks a thread), so it is safe
/// on Swift's cooperative pool, which shares libdispatch's few threads on Linux.
public func waitUntil(timeout: Duration, _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
