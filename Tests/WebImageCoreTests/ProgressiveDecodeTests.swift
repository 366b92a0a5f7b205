import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// Partial decodes catch up with the bytes that came while they could not start, without waiting for more bytes.
@Suite struct ProgressiveDecodeTests {
    /// Hands over `bodies` in order while the executor's one slot is held, so that the first decode is still
    /// waiting when the later bodies arrive; then lets the executor go.
    private func partials(after bodies: [Data], interval: Double = 0) async -> [Image] {
        let executor = BoundedExecutor(width: 1)
        let hold = DispatchSemaphore(value: 0)
        executor.submit { hold.wait() }
        let delivered = Locked<[Image]>([])
        let progressive = ProgressiveDecode(
            coder: MockProgressiveCoder(), options: ImageDecodeOptions(), executor: executor, interval: interval
        ) { image in delivered.withLock { $0.append(image) } }
        for body in bodies { progressive.received(body) }
        hold.signal()
        _ = await waitUntil(timeout: .seconds(20)) { !delivered.withLock { $0.isEmpty } }
        try? await Task.sleep(for: .milliseconds(100))
        progressive.finish()
        return delivered.withLock { $0 }
    }

    @Test func bytesThatCameDuringADecodeAreDecodedWithoutMoreComing() async throws {
        // The first body is too short for any image; the longer one comes while its decode waits.
        let images = await partials(after: [MockProgressiveCoder.prefix(rows: 0), MockProgressiveCoder.prefix(rows: 2)])
        let first = try #require(images.first, "a partial image from the longer body, though no more bytes came")
        #expect(first.isIncremental)
        #expect(first.pixelSize == PixelSize(width: MockProgressiveCoder.width, height: MockProgressiveCoder.height))
    }

    @Test func bytesThatCameBeforeTheIntervalAreDecodedOnceItHasPassed() async throws {
        let images = await partials(after: [MockProgressiveCoder.prefix(rows: 0), MockProgressiveCoder.prefix(rows: 2)], interval: 0.2)
        #expect(images.first?.isIncremental == true, "a partial image once the interval has passed")
    }

    @Test func aShorterBodyChangesNothingAndNothingComesAfterTheFinish() async throws {
        let executor = BoundedExecutor(width: 1)
        let delivered = Locked<[Image]>([])
        let progressive = ProgressiveDecode(
            coder: MockProgressiveCoder(), options: ImageDecodeOptions(), executor: executor
        ) { image in delivered.withLock { $0.append(image) } }
        progressive.received(MockProgressiveCoder.prefix(rows: 2))
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { $0.count } == 1 })
        progressive.received(MockProgressiveCoder.prefix(rows: 1))
        progressive.finish()
        progressive.received(MockProgressiveCoder.prefix(rows: 3))
        try await Task.sleep(for: .milliseconds(100))
        #expect(delivered.withLock { $0.count } == 1)
    }
}
