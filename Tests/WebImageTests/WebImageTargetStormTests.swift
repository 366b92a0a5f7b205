import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// One target rebound to many URLs in quick succession, against the loopback server with random latencies: the
/// latest-load guard must keep every late result of an earlier URL away from the target.
@Suite struct WebImageTargetStormTests {
    /// A deterministic generator, so that a failing run can be replayed.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Without options, each bind cancels the load before it (1,000 URLs); with `avoidAutoCancelImage`, every load
    /// runs to the end (decoded and stored, so 400 URLs) and only the guard keeps the late ones out.
    @Test(.timeLimit(.minutes(4)), arguments: [ImageOptions(), .avoidAutoCancelImage])
    func reuseStormEndsOnTheLastURLAndNeverGoesBack(options: ImageOptions) async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let target = RecordingTarget(manager: harness.manager)
            let placeholder = solidImage(width: 1, color: .red)
            var random = SplitMix(state: 0x5EED)
            let count = options.contains(.avoidAutoCancelImage) ? 400 : 1000
            let urls = (0..<count).map { index in
                let latency = Int.random(in: 0...25, using: &random)
                return server.url("/trickle/png/rgb8.png?parts=1&interval_ms=\(latency)&n=\(index)")
            }
            let completions = ResultLog()
            for (index, url) in urls.enumerated() {
                _ = target.onQueue {
                    target.setImage(with: url, placeholder: placeholder, options: options, completion: completions.handler)
                }
                // Bursts with short pauses: some loads finish before the next bind, most are replaced first.
                if index % 10 == 9 {
                    try await Task.sleep(for: .microseconds(Int.random(in: 0...8_000, using: &random)))
                }
            }
            let done = await waitUntil(timeout: .seconds(150)) { completions.count >= count }
            #expect(done, "every load completes: \(completions.count) of \(count)")
            try await Task.sleep(for: .milliseconds(100))
            await target.drain()
            #expect(completions.count == count, "exactly once each")

            let index = { (shown: RecordingTarget.Shown) -> Int in
                let query = shown.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
                return Int(query.first { $0.name == "n" }?.value ?? "") ?? -1
            }
            let shown = target.shown
            let order = shown.map(index)
            #expect(order == order.sorted(), "no result of an earlier URL was set after a later one")
            #expect(shown.allSatisfy { $0.onQueue })
            let last = try #require(shown.last)
            #expect(last.url == urls.last)
            #expect(last.image != nil && last.image?.width != 1, "the target ends showing the last URL's image, not its placeholder")
            let loadedBeforeReplaced = shown.filter { $0.image?.width != 1 }.count
            let cancelled = completions.errorCodes.filter { $0 == .cancelled }.count
            #expect(cancelled + completions.images.count == count, "nothing failed but by cancellation")
            if options.contains(.avoidAutoCancelImage) {
                #expect(cancelled == 0)
                #expect(loadedBeforeReplaced < count / 2, "most late results were kept out (\(loadedBeforeReplaced) set)")
            } else {
                #expect(cancelled > count / 2, "most loads were replaced while running (\(cancelled) cancelled)")
            }
            #expect(loadedBeforeReplaced >= 1)
            #expect(target.imageURL == urls.last)
        }
    }
}
