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
    public static var defaultCostLimit: Int { ProcessMemory.defaultCacheBudget }

    /// The smallest default cost limit: 1 MiB.
    package static var minimumDefaultCostLimit: Int { ProcessMemory.minimumCacheBudget }
    /// The largest default cost limit: 1 GiB.
    package static var maximumDefaultCostLimit: Int { ProcessMemory.maximumCacheBudget }

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
        ProcessMemory.cacheBudget(cgroupLimit: cgroupLimit, physicalMemory: physicalMemory)
    }

    /// The memory limit of the process's control group (cgroup), in bytes, or nil when there is none or it
    /// cannot be read.
    ///
    /// cgroup v2 is tried first: `memory.max` under `cgroupRoot` (`max` means no limit). When no `memory.max`
    /// can be read, cgroup v1: `memory/memory.limit_in_bytes` under `cgroupRoot`, where values near `Int64.max`
    /// mean no limit. When `/proc/self/cgroup` places the process in a nested group, the group's own file and
    /// those of its parents are read as well, and the smallest limit wins, as the kernel enforces it.
    ///
    /// Reads a few small files synchronously; call it once and keep the result.
    public static func cgroupMemoryLimit(cgroupRoot: String = "/sys/fs/cgroup") -> Int? {
        ProcessMemory.cgroupMemoryLimit(cgroupRoot: cgroupRoot)
    }

    /// ``cgroupMemoryLimit(cgroupRoot:)`` with the text of `/proc/self/cgroup` given, for tests.
    package static func cgroupMemoryLimit(cgroupRoot: String, membership: String) -> Int? {
        ProcessMemory.cgroupMemoryLimit(cgroupRoot: cgroupRoot, membership: membership)
    }
}
