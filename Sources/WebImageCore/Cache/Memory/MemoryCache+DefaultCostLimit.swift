#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MemoryCache {
    /// The cost limit of a cache made without one: 15% of the process's memory limit (the cgroup limit when
    /// one is set and smaller than physical memory, else physical memory), at least 1 MiB and at most 1 GiB.
    ///
    /// Linux sends no memory warnings to purge a cache with, so the default is bounded. Computed once, the
    /// first time it is read, from ``cgroupMemoryLimit(cgroupRoot:)`` and the physical memory size.
    public static let defaultCostLimit: Int = defaultCostLimit(
        cgroupLimit: cgroupMemoryLimit(),
        physicalMemory: Int(clamping: ProcessInfo.processInfo.physicalMemory)
    )

    /// The smallest default cost limit: 1 MiB.
    package static let minimumDefaultCostLimit = 1 << 20
    /// The largest default cost limit: 1 GiB.
    package static let maximumDefaultCostLimit = 1 << 30

    /// The rule behind ``defaultCostLimit``: 15% of the memory the process may use, at least 1 MiB and at most
    /// 1 GiB.
    ///
    /// The memory the process may use is the smaller of `cgroupLimit` and `physicalMemory` (a cgroup limit above
    /// the physical memory grants nothing more); values of 0 or less count as unknown. When neither is known
    /// the result is the 1 MiB floor, so that the default is never 0, which would mean no limit at all.
    ///
    /// - Parameters:
    ///   - cgroupLimit: The cgroup memory limit in bytes, or nil when there is none.
    ///   - physicalMemory: The physical memory in bytes.
    /// - Returns: A cost limit in bytes, always positive.
    public static func defaultCostLimit(cgroupLimit: Int?, physicalMemory: Int) -> Int {
        let known = [cgroupLimit, physicalMemory].compactMap { $0 }.filter { $0 > 0 }
        guard let memory = known.min() else { return minimumDefaultCostLimit }
        // 15% without overflowing for sizes near Int.max.
        let share = memory / 100 * 15 + memory % 100 * 15 / 100
        return min(max(share, minimumDefaultCostLimit), maximumDefaultCostLimit)
    }
}
