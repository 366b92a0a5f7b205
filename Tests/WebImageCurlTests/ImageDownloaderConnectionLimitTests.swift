import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Loads beyond the connection limits wait in the downloader's queue, where no timeout runs, rather than in
/// libcurl's, where their whole-transfer timeout would run before a byte is sent. Each test gives the loads a
/// timeout shorter than the time they spend waiting for a connection, and longer than the time each needs once it
/// has one.
@Suite struct ImageDownloaderConnectionLimitTests {
    /// The codes of `urls` loaded at once as data, in the order of `urls`.
    private func failureCodes(_ downloader: ImageDownloader, _ urls: [URL]) async -> [WebImageError.Code?] {
        await withTaskGroup(of: (Int, WebImageError.Code?).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, await downloadData(downloader, url, timeout: 60).failureCode) }
            }
            var codes = [WebImageError.Code?](repeating: nil, count: urls.count)
            for await (index, code) in group { codes[index] = code }
            return codes
        }
    }

    @Test func loadsQueuedBehindStalledConnectionsGetTheirOwnTime() async throws {
        try await withTestHTTPServer { server in
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = 12
            config.stallTimeout = 3
            config.downloadTimeout = 3
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            // Six loads that get no answer hold the host's six connections until their stall timeout ends them;
            // the six loads started after them must wait for those connections, and then succeed.
            let stalled = (0..<6).map { server.url("/slow-headers?delay_ms=60000&n=\($0)") }
            let healthy = (0..<6).map { server.url("/generated?bytes=2000&seed=\($0 + 1)") }
            let codes = await failureCodes(downloader, stalled + healthy)
            #expect(codes[..<6].allSatisfy { $0 == .timedOut })
            #expect(Array(codes[6...]) == [WebImageError.Code?](repeating: nil, count: 6))
            #expect(server.requestCount(forPath: "/generated") == 6)
        }
    }

    @Test func manySlowLoadsOnOneHostAllSucceed() async throws {
        try await withTestHTTPServer { server in
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = 180
            config.downloadTimeout = 2.5
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            // Each load takes 100 ms, a 25th of its timeout; six run at once, so the last start three seconds after
            // the first.
            let urls = (0..<180).map { server.url("/generated?bytes=500&delay_ms=100&seed=\($0 + 1)") }
            let codes = await failureCodes(downloader, urls)
            #expect(codes.filter { $0 != nil }.isEmpty, "failed: \(codes.compactMap { $0 })")
            #expect(server.requestCount(forPath: "/generated") == 180)
        }
    }

    @Test func slowLoadsOnMoreHostsThanTheTotalLimitAllSucceed() async throws {
        // 66 origins (a server per port), twelve loads each, started round the origins: 792 at once against the
        // 64 connections allowed in all, which hold them back before the per-host limit does.
        let servers = try await withThrowingTaskGroup(of: TestHTTPServer.self) { group in
            for _ in 0..<66 { group.addTask { try await TestHTTPServer.start() } }
            var servers: [TestHTTPServer] = []
            for try await server in group { servers.append(server) }
            return servers
        }
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = 792
        config.downloadTimeout = 2
        #expect(config.maxTotalConnections == 64)
        let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        // Each load takes 200 ms, a tenth of its timeout; 64 run at once, so the last start more than two seconds
        // after the first.
        let urls = (0..<12).flatMap { round in
            servers.map { $0.url("/generated?bytes=500&delay_ms=200&seed=\(round + 1)") }
        }
        let codes = await failureCodes(downloader, urls)
        downloader.invalidate()
        for server in servers { try await server.shutdown() }
        #expect(codes.filter { $0 != nil }.isEmpty, "\(codes.filter { $0 != nil }.count) of \(codes.count) failed")
        #expect(servers.allSatisfy { $0.requestCount(forPath: "/generated") == 12 })
    }
}
