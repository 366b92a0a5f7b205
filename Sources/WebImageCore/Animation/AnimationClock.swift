/// What drives an ``AnimatedImagePlayer``: something that calls back with the time elapsed since its previous
/// call, as a display link does.
///
/// A clock drives one player. ``start(_:)`` replaces any earlier callback; after ``stop()`` returns no new tick
/// starts. Ticks of one clock never overlap.
public protocol AnimationClock: AnyObject, Sendable {
    /// Starts calling `tick` with the seconds elapsed since the previous tick (for the first, since the start).
    func start(_ tick: @escaping @Sendable (_ elapsed: Double) -> Void)
    /// Stops the ticks.
    func stop()
}
