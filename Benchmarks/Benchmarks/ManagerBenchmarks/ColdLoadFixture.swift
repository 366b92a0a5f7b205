import BenchmarkNetwork
import Foundation
import Synchronization
import WebImage

/// The loopback server (a child process, serving `photo-256.jpg` at `/files/photo-256.jpg`) and both clients of
/// the cold-load benchmark: made in its setup hook, closed in its teardown, so that connections stay open from one
/// iteration to the next on both sides.
final class ColdLoadFixture: Sendable {
    /// The fixture of the cold-load benchmark while it runs.
    static let slot = FixtureSlot<ColdLoadFixture>()

    /// Transfers in flight at once and connections to the host, on both sides.
    static let concurrency = 6

    let server: LoopbackServerProcess
    /// Downloads and decodes with the shared coder registry.
    let downloader: ImageDownloader
    let raw: RawCurlSession
    /// The bytes every URL serves.
    let jpeg: Data
    private let calls = Atomic<Int>(0)
    /// The caches the iterations filled, removed when the fixture closes rather than between iterations: on ext4,
    /// creating a file soon after many were deleted makes the kernel step over each recently deleted inode
    /// (`recently_deleted` in the inode allocator), about 0.8 ms of system time a file on the test machine, a cost
    /// of the benchmark's own clean-up rather than of the load.
    private let filled = Mutex<[ScratchCache]>([])

    private init() throws {
        server = try LoopbackServerProcess(serving: [BenchmarkInput.photo256])
        jpeg = BenchmarkInput.photo256Data()
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = Self.concurrency
        config.maxConnectionsPerHost = Self.concurrency
        config.maxTotalConnections = 64
        downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        raw = RawCurlSession(
            maxHostConnections: config.maxConnectionsPerHost, maxTotalConnections: config.maxTotalConnections,
            headers: config.httpHeaders
        )
    }

    /// The setup hook: starts a server and makes the clients.
    static let setUp: @Sendable () async throws -> Void = {
        let previous = slot.replace(with: try ColdLoadFixture())
        previous?.close()
    }

    /// The teardown hook: closes the fixture.
    static let tearDown: @Sendable () async throws -> Void = {
        slot.replace(with: nil)?.close()
    }

    /// `count` distinct URLs of the JPEG, with a call number no other call returns, so that no two calls share a
    /// URL.
    func urls(count: Int) -> [URL] {
        let call = calls.wrappingAdd(1, ordering: .relaxed).newValue
        return (0..<count).map { index in server.url("/files/photo-256.jpg?call=\(call)&n=\(index)") }
    }

    /// Keeps `scratch` until the fixture closes, then removes its directory.
    func removeOnClose(_ scratch: ScratchCache) {
        filled.withLock { $0.append(scratch) }
    }

    private func close() {
        for scratch in filled.withLock({ $0 }) { scratch.remove() }
        downloader.invalidate()
        raw.close()
        server.stop()
    }
}
