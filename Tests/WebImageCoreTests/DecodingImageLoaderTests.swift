import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// Core's decoding of a data loader's bytes, against a scripted data loader: no socket, no disk.
@Suite struct DecodingImageLoaderTests {
    let dataLoader = ScriptedDataLoader()
    let coder = MockCoder(magic: "M", format: .png)
    let url = URL(string: "https://example.com/a.png")!

    /// Records each caller's completions and progress, in order.
    final class Calls: Sendable {
        let results = Locked<[String: [Result<DownloadedImage, WebImageError>]]>([:])
        let progress = Locked<[String: [ImageLoadProgress]]>([:])

        func completion(_ name: String) -> DownloadedImageHandler {
            { [self] result in results.withLock { $0[name, default: []].append(result) } }
        }

        func progress(_ name: String) -> ImageLoadProgressHandler {
            { [self] report in progress.withLock { $0[name, default: []].append(report) } }
        }

        func of(_ name: String) -> [Result<DownloadedImage, WebImageError>] {
            results.withLock { $0[name] ?? [] }
        }

        func count(_ name: String) -> Int { of(name).count }
    }

    private var inline: ImageContext {
        var context = ImageContext()
        context.callbackQueue = .inline
        return context
    }

    @Test func callersOfOneLoadShareOneRequestAndOneDecode() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        for name in ["a", "b", "c"] {
            loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion(name))
        }
        #expect(dataLoader.all.count == 1, "one request for three callers")
        try #require(await dataLoader.request(for: url)).succeed(Data("M-bytes".utf8))
        #expect(await waitUntil(timeout: .seconds(10)) { ["a", "b", "c"].allSatisfy { calls.count($0) == 1 } })
        let images = try ["a", "b", "c"].map { try #require(calls.of($0).first).get().image }
        #expect(images.allSatisfy { $0 === images[0] }, "one decoded image for all")
        #expect(coder.decodeCount == 1)
    }

    @Test func differentDecodeOptionsAndPrioritiesMakeLoadsOfTheirOwn() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        var thumbnail = inline
        thumbnail.thumbnailPixelSize = PixelSize(square: 4)
        loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("full"))
        loader.requestImage(url: url, options: [], context: thumbnail, progress: nil, completion: calls.completion("thumb"))
        loader.requestImage(url: url, options: [.highPriority], context: inline, progress: nil, completion: calls.completion("high"))
        // Options only the manager reads change nothing.
        loader.requestImage(url: url, options: [.retryFailed, .waitStoreCache], context: inline, progress: nil, completion: calls.completion("same"))
        #expect(dataLoader.all.count == 3)
        for request in dataLoader.all { request.succeed(Data("M".utf8)) }
        #expect(await waitUntil(timeout: .seconds(10)) { ["full", "thumb", "high", "same"].allSatisfy { calls.count($0) == 1 } })
        #expect(try calls.of("thumb")[0].get().image.pixelSize == PixelSize(square: 4))
        #expect(try calls.of("full")[0].get().image.pixelSize == PixelSize(square: 8))
        let full = try calls.of("full")[0].get().image
        let same = try calls.of("same")[0].get().image
        #expect(full === same)
    }

    @Test func aDecryptorRunsInCoreAndItsCallerLoadsAlone() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        var decrypting = inline
        decrypting.decryptor = { data, _ in Data(data.reversed()) }
        loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("plain"))
        loader.requestImage(url: url, options: [], context: decrypting, progress: nil, completion: calls.completion("decrypted"))
        let requests = dataLoader.all
        #expect(requests.count == 2, "a caller with a decryptor shares with no one")
        #expect(requests.allSatisfy { $0.context.decryptor == nil }, "the loader never runs the decryptor")
        requests[0].succeed(Data("M1".utf8))
        requests[1].succeed(Data("1M".utf8))
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("plain") == 1 && calls.count("decrypted") == 1 })
        #expect(try calls.of("decrypted")[0].get().data == Data("M1".utf8))

        var refusing = inline
        refusing.decryptor = { _, _ in nil }
        loader.requestImage(url: url, options: [], context: refusing, progress: nil, completion: calls.completion("refused"))
        try #require(dataLoader.all.last).succeed(Data("M".utf8))
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("refused") == 1 })
        #expect(calls.of("refused")[0].failureCode == .badImageData)
    }

    @Test func cancellingOneCallerLeavesTheOthersTheirResultAndTheLastStopsTheRequest() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        let first = loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("first"))
        let second = loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("second"))
        let request = try #require(dataLoader.all.first)
        first.cancel()
        first.cancel()
        #expect(calls.of("first").map(\.failureCode) == [.cancelled])
        #expect(!request.isCancelled, "the other caller still wants the bytes")
        second.cancel()
        #expect(calls.of("second").map(\.failureCode) == [.cancelled])
        #expect(request.isCancelled, "the last caller to leave stops the request")
        request.succeed(Data("M".utf8))
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.count("first") == 1 && calls.count("second") == 1)
        #expect(coder.decodeCount == 0)
    }

    @Test func theLoadersTokenIsCancelledOnceTheDecodeIsOver() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("a"))
        let request = try #require(dataLoader.all.first)
        #expect(request.cancelCalls == 0)
        request.succeed(Data("M".utf8))
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("a") == 1 && request.cancelCalls == 1 })
        #expect(!request.isCancelled, "cancelling after the completion changes nothing")
    }

    @Test func bytesThatAreEmptyOrNoImageAreBadImageData() async throws {
        let loader = DecodingImageLoader(dataLoader, coder: coder)
        let calls = Calls()
        loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("empty"))
        try #require(dataLoader.all.last).succeed(Data())
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("empty") == 1 })
        loader.requestImage(url: url, options: [], context: inline, progress: nil, completion: calls.completion("text"))
        try #require(dataLoader.all.last).succeed(Data("not an image".utf8))
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("text") == 1 })
        #expect(calls.of("empty")[0].failureCode == .badImageData)
        #expect(calls.of("text")[0].failureCode == .badImageData)
        if case .failure(let error) = calls.of("text")[0] { #expect(error.message.contains(url.absoluteString)) }
    }

    @Test func progressiveLoadsGetPartialImagesFromTheBytesSoFarAndNoneAfterTheEnd() async throws {
        let progressive = MockProgressiveCoder()
        let loader = DecodingImageLoader(dataLoader, coder: progressive, progressiveDecodeInterval: 0)
        let calls = Calls()
        loader.requestImage(url: url, options: [.progressiveLoad], context: inline, progress: calls.progress("a"), completion: calls.completion("a"))
        loader.requestImage(url: url, options: [.progressiveLoad], context: inline, progress: calls.progress("b"), completion: calls.completion("b"))
        let request = try #require(dataLoader.all.first)
        #expect(dataLoader.all.count == 1)
        let total = Int64(MockProgressiveCoder.prefix(rows: MockProgressiveCoder.height).count)
        request.report(received: 6, expected: total, data: MockProgressiveCoder.prefix(rows: 2))
        let partials: @Sendable (String) -> [Image] = { name in calls.progress.withLock { ($0[name] ?? []).compactMap(\.partialImage) } }
        #expect(await waitUntil(timeout: .seconds(10)) { !partials("a").isEmpty && !partials("b").isEmpty })
        let allIncremental = partials("a").allSatisfy { $0.isIncremental }
        #expect(allIncremental)
        let reports = calls.progress.withLock { $0["a"] ?? [] }
        #expect(reports.allSatisfy { $0.receivedData == nil }, "callers never get the bytes")
        request.succeed(MockProgressiveCoder.prefix(rows: MockProgressiveCoder.height))
        #expect(await waitUntil(timeout: .seconds(10)) { calls.count("a") == 1 && calls.count("b") == 1 })
        let final = try calls.of("a")[0].get().image
        #expect(!final.isIncremental)
        let seenAtEnd = partials("a").count
        try await Task.sleep(for: .milliseconds(100))
        #expect(partials("a").count == seenAtEnd, "no partial image after the completion")
        #expect(progressive.incrementalDecoderCount == 1, "one incremental decoder for the shared load")
    }
}
