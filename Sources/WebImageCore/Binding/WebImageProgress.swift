/// How far a target's load has come, as the unit counts of SDWebImage's `sd_imageProgress`.
///
/// Reset to zero when a load starts; updated from the loader's byte counts as they arrive; set to 1 of 1 when a
/// load finishes without the size ever being known (SDWebImage's `SDWebImageProgressUnitCountUnknown`).
public struct WebImageProgress: Sendable, Hashable {
    /// The bytes received so far.
    public var completedUnitCount: Int64
    /// The bytes expected; 0 while the size is unknown.
    public var totalUnitCount: Int64

    /// A progress of `completed` out of `total`.
    public init(completedUnitCount: Int64 = 0, totalUnitCount: Int64 = 0) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
    }

    /// The share done, clamped to 0…1; 0 while the total is unknown.
    public var fractionCompleted: Double {
        guard totalUnitCount > 0 else { return 0 }
        return min(1, max(0, Double(completedUnitCount) / Double(totalUnitCount)))
    }
}
