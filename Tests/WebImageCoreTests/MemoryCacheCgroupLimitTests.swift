import Foundation
import Testing
import WebImageCore

/// Reading the cgroup memory limit from files written in a temporary directory; the real cgroup file system is
/// never needed.
@Suite final class MemoryCacheCgroupLimitTests {
    private let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("MemoryCacheCgroupLimitTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func write(_ text: String, to relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    // MARK: - cgroup v2

    @Test func version2MaxMeansNoLimit() throws {
        try write("max\n", to: "memory.max")
        try write("1048576000\n", to: "memory/memory.limit_in_bytes")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == nil, "a readable memory.max answers")
    }

    @Test func version2Number() throws {
        try write("536870912\n", to: "memory.max")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == 536_870_912)
    }

    @Test func version2NestedGroupTakesTheSmallestLimitOnItsPath() throws {
        try write("max\n", to: "memory.max")
        try write("2147483648\n", to: "system.slice/memory.max")
        try write("max\n", to: "system.slice/app.service/memory.max")
        let membership = "0::/system.slice/app.service\n"
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path, membership: membership) == 2_147_483_648)
        try write("1073741824\n", to: "system.slice/app.service/memory.max")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path, membership: membership) == 1_073_741_824)
    }

    @Test func aGroupOutsideTheNamespaceReadsOnlyTheRoot() throws {
        try write("268435456\n", to: "memory.max")
        try write("1000\n", to: "x/memory.max")
        let limit = MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path, membership: "0::/../x\n")
        #expect(limit == 268_435_456)
    }

    // MARK: - cgroup v1

    @Test func version1Number() throws {
        try write("1048576000\n", to: "memory/memory.limit_in_bytes")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == 1_048_576_000)
    }

    @Test func version1HugeValueMeansNoLimit() throws {
        try write("9223372036854771712\n", to: "memory/memory.limit_in_bytes")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == nil)
    }

    @Test func version1NestedGroup() throws {
        try write("9223372036854771712\n", to: "memory/memory.limit_in_bytes")
        try write("8589934592\n", to: "memory/box/memory.limit_in_bytes")
        try write("9223372036854771712\n", to: "memory/box/job/memory.limit_in_bytes")
        let membership = "12:pids:/\n4:cpu,memory:/box/job\n0::/\n"
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path, membership: membership) == 8_589_934_592)
    }

    @Test func anUnparsableVersion2FileFallsBackToVersion1() throws {
        try write("garbage\n", to: "memory.max")
        try write("1048576000\n", to: "memory/memory.limit_in_bytes")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == 1_048_576_000)
    }

    // MARK: - Nothing readable

    @Test func noFilesMeansNil() {
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == nil)
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.appendingPathComponent("missing").path) == nil)
    }

    @Test func unreadableFilesMeanNil() throws {
        // Directories where the files should be: they open, but reading them fails.
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("memory.max"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("memory/memory.limit_in_bytes"), withIntermediateDirectories: true)
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.path) == nil)
        try write("", to: "other/memory.max")
        #expect(MemoryCache.cgroupMemoryLimit(cgroupRoot: root.appendingPathComponent("other").path) == nil)
    }
}
