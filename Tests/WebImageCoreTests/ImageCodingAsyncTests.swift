import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// A coder that records, for each call, whether it ran inside a Swift task, and counts its calls.
private final class TaskObservingCoder: ImageCoding, Sendable {
    let inner = MockCoder(magic: "MOCK", format: .png, color: .green)
    private let ranInTask = Locked<[Bool]>([])

    var callsInsideATask: [Bool] { ranInTask.withLock { $0 } }

    private func record() {
        let inTask = withUnsafeCurrentTask { $0 != nil }
        ranInTask.withLock { $0.append(inTask) }
    }

    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        record()
        return try inner.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        record()
        return try inner.encode(image, as: format, options: options)
    }
}

/// The async decode and encode of every coder: run on a bounded executor, never in the caller's task.
@Suite struct ImageCodingAsyncTests {
    let data = Data("MOCK-image".utf8)

    @Test func decodeAndEncodeRunOnTheExecutorOutsideTheTaskAndMatchTheSyncForms() async throws {
        let coder = TaskObservingCoder()
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 4))
        let image = try await coder.decode(data, options: options, on: .decoding)
        let encoded = try await coder.encode(image, as: .png, on: .decoding)
        let syncImage = try coder.decode(data, options: options)
        // The pool's threads run tasks; the executor's run plain work items. The sync call, made in this test's
        // task, shows that the check sees the difference.
        #expect(coder.callsInsideATask == [false, false, true])

        #expect(image.pixelSize == syncImage.pixelSize)
        #expect(image.frames[0].pixels == syncImage.frames[0].pixels)
        #expect(encoded == (try coder.encode(syncImage, as: .png, options: ImageEncodeOptions())))
    }

    @Test func errorsAreTheSyncForms() async throws {
        let coder = MockCoder(magic: "MOCK", format: .png)
        let image = try coder.decode(data)
        await #expect(throws: WebImageError.self) { _ = try await coder.decode(Data("JUNK".utf8), on: .decoding) }
        do {
            _ = try await coder.encode(image, as: .gif, on: .decoding)
            Issue.record("encoding to a format the coder lacks succeeded")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
    }

    @Test func workWaitsForASlotOfTheExecutorItWasGiven() async throws {
        let coder = MockCoder(magic: "MOCK", format: .png)
        let executor = BoundedExecutor(width: 1)
        let gate = DispatchSemaphore(value: 0)
        executor.submit { gate.wait() }
        let data = data
        let task = Task { try await coder.decode(data, on: executor) }
        let queued = await waitUntil(timeout: .seconds(10)) { executor.waitingCount == 1 }
        gate.signal()
        #expect(queued, "the decode waits behind the executor's busy slot")
        let image = try await task.value
        #expect(image.pixelSize == PixelSize(width: 8, height: 8))
        #expect(coder.decodeCount == 1)
    }

    @Test func cancellationBeforeTheStartThrowsCancelledAndRunsNothing() async throws {
        let coder = MockCoder(magic: "MOCK", format: .png)
        let image = try coder.decode(data)
        let data = data
        let task = Task { () -> (decoded: Result<Image, WebImageError>, encoded: Result<Data, WebImageError>) in
            withUnsafeCurrentTask { $0?.cancel() }
            let decoded: Result<Image, WebImageError>
            do throws(WebImageError) {
                decoded = .success(try await coder.decode(data, on: .decoding))
            } catch {
                decoded = .failure(error)
            }
            let encoded: Result<Data, WebImageError>
            do throws(WebImageError) {
                encoded = .success(try await coder.encode(image, as: .png, on: .decoding))
            } catch {
                encoded = .failure(error)
            }
            return (decoded, encoded)
        }
        let outcome = await task.value
        #expect(outcome.decoded.failureCode == .cancelled)
        #expect(outcome.encoded.failureCode == .cancelled)
        #expect(coder.decodeCount == 1, "only the test's own sync decode")
        #expect(coder.encodeCount == 0)
    }

    @Test func cancellationWhileWaitingForASlotThrowsAtOnceAndTheWorkNeverRuns() async throws {
        let coder = MockCoder(magic: "MOCK", format: .png)
        let executor = BoundedExecutor(width: 1)
        let gate = DispatchSemaphore(value: 0)
        executor.submit { gate.wait() }
        let data = data
        let task = Task { try await coder.decode(data, on: executor) }
        let queued = await waitUntil(timeout: .seconds(10)) { executor.waitingCount == 1 }
        #expect(queued)
        task.cancel()
        // Thrown while the slot is still busy: the caller does not wait for the work it no longer wants.
        let outcome = await task.result
        gate.signal()
        if case .failure(let error as WebImageError) = outcome {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("decoding"))
        } else {
            Issue.record("expected cancelled, got \(outcome)")
        }
        // Anything submitted later runs after the cancelled item has left the queue: it was skipped.
        try await executor.run(cancellationMessage: "drain") {}
        #expect(coder.decodeCount == 0)
    }
}
