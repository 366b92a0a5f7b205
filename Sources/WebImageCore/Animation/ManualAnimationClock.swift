/// An ``AnimationClock`` that ticks only when told: tests drive a player frame by frame with it, and a tool
/// that renders an animation without a display steps it as fast as it likes.
///
/// ```swift
/// let clock = ManualAnimationClock()
/// let player = AnimatedImagePlayer(animation: animation, clock: clock)!
/// player.startPlaying()
/// clock.advance(by: 0.1)        // the player's tick runs during this call
/// ```
///
/// Thread-safe; the tick runs on the thread that calls ``advance(by:)``, outside the clock's lock.
public final class ManualAnimationClock: AnimationClock {
    private let tick = Locked<(@Sendable (Double) -> Void)?>(nil)

    /// Creates a stopped clock.
    public init() {}

    public func start(_ tick: @escaping @Sendable (Double) -> Void) {
        self.tick.withLock { $0 = tick }
    }

    public func stop() {
        tick.withLock { $0 = nil }
    }

    /// Whether the clock has a callback to tick.
    public var isRunning: Bool { tick.withLock { $0 != nil } }

    /// Ticks once with `seconds` elapsed, when running.
    public func advance(by seconds: Double) {
        let current = tick.withLock { $0 }
        current?(seconds)
    }

    /// Ticks `count` times with `seconds` elapsed each.
    public func advance(by seconds: Double, times count: Int) {
        for _ in 0..<count { advance(by: seconds) }
    }
}
