import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

@Suite struct DataURLImageLoaderTests {
    let coder = MockCoder(magic: "MOCK", format: .png)
    var loader: DataURLImageLoader { DataURLImageLoader(coder: coder, maxDataSize: 64) }

    func load(_ string: String, context: ImageContext = ImageContext()) async -> Result<DownloadedImage, WebImageError> {
        await withCheckedContinuation { continuation in
            loader.requestImage(url: URL(string: string)!, options: [], context: context, progress: nil) {
                continuation.resume(returning: $0)
            }
        }
    }

    @Test func handlesOnlyDataURLs() {
        #expect(loader.canRequestImage(for: URL(string: "data:,x")!))
        #expect(loader.canRequestImage(for: URL(string: "DATA:,x")!))
        #expect(!loader.canRequestImage(for: URL(string: "https://example.com/a.png")!))
    }

    @Test func decodesBase64AndPercentEncodedPayloads() async throws {
        let base64 = try await load("data:image/png;base64," + Data("MOCK-image".utf8).base64EncodedString()).get()
        #expect(base64.data == Data("MOCK-image".utf8))
        #expect(base64.image.pixelSize == PixelSize(width: 8, height: 8))
        let percent = try await load("data:image/png,MOCK%00%FF%2C").get()
        #expect(percent.data == Data([0x4d, 0x4f, 0x43, 0x4b, 0x00, 0xff, 0x2c]))
    }

    @Test func malformedURLsFailWithInvalidURL() async {
        for string in ["data:image/png;base64", "data:;base64,QQ"] {
            let result = await load(string)
            #expect(result.failureCode == .invalidURL, "\(string)")
        }
        // Foundation escapes a stray `%` when it makes the URL; a string that still has one is refused.
        for string in ["data:,MOCK%4", "data:,MOCK%zz", "https://x.org/a.png"] {
            #expect(throws: WebImageError.self) { try DataURL.payload(of: string, limit: 100) }
        }
    }

    @Test func payloadsOverTheLimitFail() async {
        let result = await load("data:;base64," + Data(repeating: 0x4d, count: 100).base64EncodedString())
        #expect(result.failureCode == .responseTooLarge)
    }

    @Test func undecodableBytesFailWithTheCodersError() async {
        let result = await load("data:,not-an-image")
        #expect(result.failureCode == .badImageData)
    }

    @Test func theDecryptorRunsBeforeDecoding() async throws {
        var context = ImageContext()
        context.decryptor = { data, _ in Data(data.reversed()) }
        let result = try await load("data:,KCOM", context: context).get()
        #expect(result.data == Data("MOCK".utf8))
        context.decryptor = { _, _ in nil }
        #expect(await load("data:,MOCK", context: context).failureCode == .badImageData)
    }

    @Test func cancelledBeforeTheDecodeCompletesOnceWithCancelled() async {
        let executor = BoundedExecutor(width: 1)
        let gate = DispatchSemaphore(value: 0)
        executor.submit { gate.wait() }
        let loader = DataURLImageLoader(coder: coder, executor: executor)
        let calls = Locked<[Result<DownloadedImage, WebImageError>]>([])
        let done = DispatchSemaphore(value: 0)
        let token = loader.requestImage(url: URL(string: "data:,MOCK")!, options: [], context: ImageContext(), progress: nil) { result in
            calls.withLock { $0.append(result) }
            done.signal()
        }
        token.cancel()
        token.cancel()
        gate.signal()
        #expect(done.wait(timeout: .now() + 5) == .success)
        // Let the executor run the cancelled job; it must not deliver a second time.
        let drained = DispatchSemaphore(value: 0)
        executor.submit { drained.signal() }
        #expect(drained.wait(timeout: .now() + 5) == .success)
        #expect(calls.withLock { $0.count } == 1)
        #expect(calls.withLock { $0.first?.failureCode } == .cancelled)
        #expect(coder.decodeCount == 0)
        #expect(token.isCancelled && token.isFinished)
    }
}

extension Result where Failure == WebImageError {
    /// The error's code, or nil on success.
    var failureCode: WebImageError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
