import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The failed-URL list: SDWebImage's classification, expiry, retryFailed, and the manager's own rule.
@Suite struct ImageManagerFailedURLTests {
    @Test func undecodableDataIsBlockedUntilItExpires() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness(failedURLLifetime: .seconds(60))
            let url = server.url("/generated?bytes=500")
            #expect(await harness.load(url).failureCode == .badImageData)
            let entry = try #require(harness.manager.failedURLs[url])
            #expect(entry.error.code == .badImageData)
            #expect(entry.expiresAt.timeIntervalSince(entry.failedAt) == 60)

            let blocked = await harness.load(url)
            #expect(blocked.failureCode == .blackListed)
            #expect(server.requestCount(forPath: "/generated") == 1, "a blocked URL is not requested")

            harness.clock.advance(seconds: 61)
            #expect(harness.manager.failedURLs.isEmpty)
            #expect(await harness.load(url).failureCode == .badImageData)
            #expect(server.requestCount(forPath: "/generated") == 2)
        }
    }

    @Test func transientFailuresAndStatusCodesAreNotBlocked() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            #expect(await harness.load(server.url("/status/404")).failureCode == .invalidDownloadStatusCode)
            #expect(await harness.load(server.url("/status/503")).failureCode == .invalidDownloadStatusCode)
            #expect(await harness.load(server.url("/reset")).failureCode == .connectionLost)
            #expect(harness.manager.failedURLs.isEmpty)
        }
    }

    @Test func retryFailedBypassesTheListAndASuccessClearsIt() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            // Block a good URL by the manager's own rule, then retry it.
            harness.manager.shouldBlockFailedURL = { _, _ in true }
            var refusing = ImageContext()
            refusing.responseModifier = { _ in nil }
            #expect(await harness.load(url, context: refusing).failureCode == .invalidDownloadResponse)
            #expect(harness.manager.failedURLs[url] != nil)
            #expect(await harness.load(url).failureCode == .blackListed)

            let retried = try await harness.load(url, options: .retryFailed).get()
            #expect(retried.outcome == .loaded)
            #expect(harness.manager.failedURLs.isEmpty)

            harness.manager.removeAllFailedURLs()
            harness.manager.shouldBlockFailedURL = nil
        }
    }

    @Test func removingEntriesByHand() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let first = server.url("/generated?bytes=10&seed=1")
            let second = server.url("/generated?bytes=10&seed=2")
            _ = await harness.load(first)
            _ = await harness.load(second)
            #expect(Set(harness.manager.failedURLs.keys) == [first, second])
            harness.manager.removeFailedURL(first)
            #expect(Set(harness.manager.failedURLs.keys) == [second])
            harness.manager.removeAllFailedURLs()
            #expect(harness.manager.failedURLs.isEmpty)
        }
    }
}
