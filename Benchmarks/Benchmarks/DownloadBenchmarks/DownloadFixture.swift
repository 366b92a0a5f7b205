import BenchmarkNetwork
import Foundation
import Synchronization
import WebImage

/// The loopback server (a child process) and both clients of one benchmark: made in the benchmark's setup hook,
/// closed in its teardown, so that connections stay open from one iteration to the next on both sides.
final class DownloadFixture: Sendable {
    /// The fixture of the benchmark running now.
    static let current = Mutex<DownloadFixture?>(nil)

    let server: LoopbackServerProcess
    let downloader: ImageDownloader
    let raw: RawCurlSession
    /// Transfers in flight at once, on both sides.
    let concurrency: Int
    private let iterations = Atomic<Int>(0)

    private init(server: LoopbackServerProcess, concurrency: Int, maxConnectionsPerHost: Int, maxTotalConnections: Int) {
        self.server = server
        self.concurrency = concurrency
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = concurrency
        config.maxConnectionsPerHost = maxConnectionsPerHost
        config.maxTotalConnections = maxTotalConnections
        downloader = ImageDownloader(config: config, coder: NoDecodeCoder.shared)
        raw = RawCurlSession(
            maxHostConnections: maxConnectionsPerHost, maxTotalConnections: maxTotalConnections,
            headers: config.httpHeaders
        )
    }

    /// A setup hook that starts a server and makes the clients: at most `concurrency` transfers in flight, as many
    /// connections to the host, and at least 64 in all (the downloader's default).
    static func setUp(concurrency: Int) -> @Sendable () async throws -> Void {
        {
            let server = try LoopbackServerProcess()
            let fixture = DownloadFixture(
                server: server, concurrency: concurrency,
                maxConnectionsPerHost: concurrency, maxTotalConnections: max(64, concurrency)
            )
            let previous = current.withLock { current in
                defer { current = fixture }
                return current
            }
            await previous?.close()
        }
    }

    /// The teardown hook: closes the current fixture.
    static let tearDown: @Sendable () async throws -> Void = {
        let fixture = current.withLock { current in
            defer { current = nil }
            return current
        }
        await fixture?.close()
    }

    /// The current fixture; the benchmark fails without one.
    static func get() -> DownloadFixture {
        guard let fixture = current.withLock({ $0 }) else { fatalError("the download benchmark's setup did not run") }
        return fixture
    }

    /// `count` URLs of 20 KB bodies (`seed` 0..<count, or all `seed` 0 when `distinct` is false), with an
    /// `iteration` number no other call returns, so that no two calls share a URL. The server answers each after
    /// `delayMilliseconds`.
    func urls(count: Int, distinct: Bool = true, bytes: Int = 20_480, delayMilliseconds: Int = 0) -> [URL] {
        let iteration = iterations.wrappingAdd(1, ordering: .relaxed).newValue
        let delay = delayMilliseconds > 0 ? "&delay_ms=\(delayMilliseconds)" : ""
        return (0..<count).map { index in
            server.url("/generated?bytes=\(bytes)&seed=\(distinct ? index : 0)&iteration=\(iteration)\(delay)")
        }
    }

    private func close() async {
        downloader.invalidate()
        raw.close()
        server.stop()
    }
}
