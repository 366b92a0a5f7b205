#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much memory the process may use, for the budgets that must stay bounded on a system that sends no memory
/// warnings: the memory cache's default cost limit and the animation frame pools' default budget. At the bottom
/// floor, so that neither has to ask the other.
package enum ProcessMemory {
    /// The budget of a cache made without one: 15% of the process's memory limit (the cgroup limit when one is set
    /// and smaller than physical memory, else physical memory), at least 1 MiB and at most 1 GiB. Computed once,
    /// the first time it is read.
    package static let defaultCacheBudget: Int = cacheBudget(
        cgroupLimit: cgroupMemoryLimit(),
        physicalMemory: Int(clamping: ProcessInfo.processInfo.physicalMemory)
    )

    /// The smallest default cache budget: 1 MiB.
    package static let minimumCacheBudget = 1 << 20
    /// The largest default cache budget: 1 GiB.
    package static let maximumCacheBudget = 1 << 30

    /// The rule behind ``defaultCacheBudget``: 15% of the memory the process may use, at least 1 MiB and at most
    /// 1 GiB. The memory the process may use is the smaller of `cgroupLimit` and `physicalMemory`; values of 0 or
    /// less count as unknown, and when neither is known the result is the 1 MiB floor.
    package static func cacheBudget(cgroupLimit: Int?, physicalMemory: Int) -> Int {
        let known = [cgroupLimit, physicalMemory].compactMap { $0 }.filter { $0 > 0 }
        guard let memory = known.min() else { return minimumCacheBudget }
        // 15% without overflowing for sizes near Int.max.
        let share = memory / 100 * 15 + memory % 100 * 15 / 100
        return min(max(share, minimumCacheBudget), maximumCacheBudget)
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
    ///
    /// - Parameter cgroupRoot: Where the cgroup file system is mounted.
    /// - Returns: The limit in bytes, or nil.
    package static func cgroupMemoryLimit(cgroupRoot: String = "/sys/fs/cgroup") -> Int? {
        cgroupMemoryLimit(cgroupRoot: cgroupRoot, membership: readSmallFile("/proc/self/cgroup") ?? "")
    }

    /// ``cgroupMemoryLimit(cgroupRoot:)`` with the text of `/proc/self/cgroup` given, for tests.
    package static func cgroupMemoryLimit(cgroupRoot: String, membership: String) -> Int? {
        var unifiedPath = "/"
        var memoryPath = "/"
        for line in membership.split(separator: "\n") {
            // "hierarchy-ID:controller-list:cgroup-path"; v2 is "0::path", v1's memory hierarchy lists "memory".
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty {
                unifiedPath = String(fields[2])
            } else if fields[1].split(separator: ",").contains("memory") {
                memoryPath = String(fields[2])
            }
        }
        let unified = lowestLimit(
            in: directories(root: cgroupRoot, path: unifiedPath),
            file: "memory.max",
            parse: parseVersion2Limit
        )
        // v1 only when no v2 file could be read: a readable `memory.max` saying `max` is an answer.
        let limit = unified ?? lowestLimit(
            in: directories(root: cgroupRoot + "/memory", path: memoryPath),
            file: "memory.limit_in_bytes",
            parse: parseVersion1Limit
        )
        guard case .bytes(let bytes) = limit else { return nil }
        return bytes
    }

    /// What a limit file says.
    private enum CgroupLimit {
        case unlimited
        case bytes(Int)
    }

    /// The smallest limit among the files in `directories` that can be read; `.unlimited` when every readable
    /// file says so, nil when none can be read.
    private static func lowestLimit(
        in directories: [String],
        file: String,
        parse: (Substring) -> CgroupLimit?
    ) -> CgroupLimit? {
        var lowest: CgroupLimit?
        for directory in directories {
            guard let text = readSmallFile(directory + "/" + file),
                let value = parse(text.split(whereSeparator: \.isWhitespace).first ?? "")
            else { continue }
            switch (lowest, value) {
            case (.bytes(let current), .bytes(let bytes)): lowest = .bytes(min(current, bytes))
            case (.bytes, .unlimited): break
            default: lowest = value
            }
        }
        return lowest
    }

    /// `memory.max`: a number of bytes, or `max`.
    private static func parseVersion2Limit(_ text: Substring) -> CgroupLimit? {
        if text == "max" { return .unlimited }
        guard let bytes = Int(text), bytes > 0 else { return nil }
        return .bytes(bytes)
    }

    /// `memory.limit_in_bytes`: a number of bytes; no limit reads as `Int64.max` rounded down to a page.
    private static func parseVersion1Limit(_ text: Substring) -> CgroupLimit? {
        guard let bytes = Int64(text) else { return nil }
        if bytes < 0 || bytes >= 1 << 62 { return .unlimited }
        guard bytes > 0 else { return nil }
        return .bytes(Int(bytes))
    }

    /// The group's directory and its parents' up to `root`, deepest first; only `root` when the path is not a
    /// plain absolute path (a group outside this cgroup namespace reads as `/../..`).
    private static func directories(root: String, path: String) -> [String] {
        let components = path.split(separator: "/")
        guard path.hasPrefix("/"), !components.contains(where: { $0 == ".." || $0 == "." }) else { return [root] }
        return (0...components.count).reversed().map { depth in
            ([root] + components.prefix(depth).map(String.init)).joined(separator: "/")
        }
    }

    /// The contents of a small text file (at most 64 KiB are read), or nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let capacity = 64 << 10
        var bytes = [UInt8](repeating: 0, count: capacity)
        var length = 0
        while length < capacity {
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + length, capacity - length)
            }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { return nil }
            if result == 0 { break }
            length += result
        }
        return String(decoding: bytes[..<length], as: UTF8.self)
    }
}
