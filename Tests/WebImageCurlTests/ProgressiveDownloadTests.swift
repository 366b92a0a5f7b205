import Dispatch
import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Partial decodes catch up with the bytes that came while they could not start, without waiting for more bytes.
@Suite struct ProgressiveDownloadTests {
    /// Feeds `chunks` in order while the executor's one slot is held, so that the first decode is still waiting
    /// when the later chunks arrive; then lets the executor go.
    private func partials(after chunks: [Data], interval: Double = 0) async -> [Image] {
        let executor = BoundedExecutor(width: 1)
        let hold = DispatchSemaphore(value: 0)
        executor.submit { hold.wait() }
        let progressive = ProgressiveDownload(
            coder: ImageCoderRegistry.shared, options: ImageDecodeOptions(), executor: executor, interval: interval
        )
        let delivered = Locked<[Image]>([])
        for chunk in chunks {
            chunk.withUnsafeBytes { bytes in
                progressive.append(bytes) { image in delivered.withLock { $0.append(image) } }
            }
        }
        hold.signal()
        _ = await waitUntil(timeout: .seconds(20)) { !delivered.withLock { $0.isEmpty } }
        try? await Task.sleep(for: .milliseconds(100))
        progressive.finish()
        return delivered.withLock { $0 }
    }

    @Test func bytesThatCameDuringADecodeAreDecodedWithoutMoreComing() async throws {
        let data = Fixtures.data("jpeg/photo-progressive.jpg")
        // The first chunk is too short for any image; the rest of the first half comes while its decode waits.
        let images = await partials(after: [data.prefix(64), data.prefix(data.count / 2).dropFirst(64)])
        let first = try #require(images.first, "a partial image from the first half, though no more bytes came")
        #expect(first.isIncremental)
        #expect(first.pixelSize == PixelSize(width: 320, height: 240))
    }

    @Test func bytesThatCameBeforeTheIntervalAreDecodedOnceItHasPassed() async throws {
        let data = Fixtures.data("jpeg/photo-progressive.jpg")
        let images = await partials(after: [data.prefix(64), data.prefix(data.count / 2).dropFirst(64)], interval: 0.2)
        #expect(images.first?.isIncremental == true, "a partial image once the interval has passed")
    }
}
