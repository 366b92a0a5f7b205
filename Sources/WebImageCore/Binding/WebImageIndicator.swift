/// Shows that a target is loading: a spinner, a progress bar, a line in a terminal (SDWebImage's
/// `SDWebImageIndicator`).
///
/// Set one on a target's ``WebImageTargetState/indicator``. Every call comes on the target's callback queue, from
/// the current load of some operation key only: a load that a later one replaced never touches it.
public protocol WebImageIndicator: Sendable {
    /// A load has started.
    func startAnimating()
    /// The load has finished: with an image, an error, or cancelled.
    func stopAnimating()
    /// The load's progress, from 0 to 1 (clamped; 0 while the size is unknown).
    func updateIndicatorProgress(_ fraction: Double)
}
