#if canImport(Dispatch)
import Dispatch
#endif

/// An ``AnimationClock`` on a dispatch timer: `framesPerSecond` ticks a second on a serial queue of its own,
/// each reporting the time actually elapsed (measured with the monotonic clock), so a late tick reports more.
///
/// Thread-safe. The ticks run on the clock's queue, one at a time. ``stop()`` cancels the timer; a tick already
/// running finishes.
public final class TimerAnimationClock: AnimationClock {
    private struct State {
        var timer: (any DispatchSourceTimer)?
        var last: DispatchTime?
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "webimage.animation-clock", qos: .userInteractive)
    /// Ticks a second.
    public let framesPerSecond: Double

    /// Creates a stopped clock ticking `framesPerSecond` times a second (60 by default, at least 1).
    public init(framesPerSecond: Double = 60) {
        self.framesPerSecond = max(framesPerSecond, 1)
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    public func start(_ tick: @escaping @Sendable (Double) -> Void) {
        let interval = DispatchTimeInterval.nanoseconds(Int(1e9 / framesPerSecond))
        let step = 1 / framesPerSecond
        // The timer is made, swapped in and resumed under the lock (none of these calls runs the handler), so
        // that the non-Sendable timer never leaves the lock's region.
        state.withLock { state in
            state.timer?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                let now = DispatchTime.now()
                let elapsed = self.state.withLock { state -> Double in
                    defer { state.last = now }
                    guard let last = state.last else { return step }
                    return Double(now.uptimeNanoseconds &- last.uptimeNanoseconds) / 1e9
                }
                tick(elapsed)
            }
            state.timer = timer
            state.last = nil
            timer.resume()
        }
    }

    public func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.last = nil
        }
    }
}
