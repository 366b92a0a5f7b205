/// The order an ``AnimatedImagePlayer`` shows frames in, as SDWebImage's `SDAnimatedImagePlaybackMode`.
public enum AnimationPlaybackMode: Sendable, Hashable, CaseIterable {
    /// 0, 1, …, n−1, then 0 again.
    case normal
    /// n−1, n−2, …, 0, then n−1 again.
    case reverse
    /// 0, 1, …, n−1, n−2, …, 1, then 0 again: one loop is there and back.
    case bounce
    /// n−1, …, 0, 1, …, n−2, then n−1 again.
    case reversedBounce

    /// The frame a loop starts and ends on.
    func startIndex(frameCount: Int) -> Int {
        switch self {
        case .normal, .bounce: 0
        case .reverse, .reversedBounce: frameCount - 1
        }
    }

    /// The direction a loop starts in: +1 forwards, −1 backwards.
    var startDirection: Int {
        switch self {
        case .normal, .bounce: 1
        case .reverse, .reversedBounce: -1
        }
    }

    /// The frame after `index` moving in `direction`, and the direction after it.
    func step(from index: Int, direction: Int, frameCount n: Int) -> (index: Int, direction: Int) {
        switch self {
        case .normal: return ((index + 1) % n, 1)
        case .reverse: return (index == 0 ? n - 1 : index - 1, -1)
        case .bounce, .reversedBounce:
            if direction > 0 {
                return index >= n - 1 ? (max(n - 2, 0), -1) : (index + 1, 1)
            } else {
                return index <= 0 ? (min(1, n - 1), 1) : (index - 1, -1)
            }
        }
    }
}
