import Foundation
import Testing
@testable import WebImageCurl
import WebImageCore

@Suite struct DownloadResponseCheckTests {
    let url = URL(string: "https://x.org/a.png")!

    func response(_ status: Int, type: String? = nil) -> ImageResponse {
        ImageResponse(url: url, statusCode: status, headers: type.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? [])
    }

    @Test func statusCodesOutsideTheAcceptedSetFailWithTheStatus() throws {
        let config = ImageDownloaderConfig()
        #expect(DownloadResponseCheck.failure(for: response(200), config: config, isConditional: false) == nil)
        #expect(DownloadResponseCheck.failure(for: response(299), config: config, isConditional: false) == nil)
        let failure = try #require(DownloadResponseCheck.failure(for: response(404), config: config, isConditional: false))
        #expect(failure.code == .invalidDownloadStatusCode)
        #expect(failure.statusCode == 404)
        #expect(failure.message.contains("https://x.org/a.png"))
        #expect(DownloadResponseCheck.failure(for: response(304), config: config, isConditional: false)?.code == .invalidDownloadStatusCode)
    }

    @Test func onlyAFileURLMayHaveNoStatus() throws {
        let config = ImageDownloaderConfig()
        let file = ImageResponse(url: URL(fileURLWithPath: "/tmp/a.png"), statusCode: 0)
        #expect(DownloadResponseCheck.failure(for: file, config: config, isConditional: false) == nil)
        let failure = try #require(DownloadResponseCheck.failure(for: response(0), config: config, isConditional: false))
        #expect(failure.code == .invalidDownloadStatusCode)
        #expect(failure.statusCode == 0)
    }

    @Test func notModifiedAnswersAConditionalRequest() {
        let failure = DownloadResponseCheck.failure(for: response(304), config: ImageDownloaderConfig(), isConditional: true)
        #expect(failure?.code == .cacheNotModified)
    }

    @Test func mediaTypesAreCheckedOnlyWhenConfiguredAndPresent() {
        var config = ImageDownloaderConfig()
        #expect(DownloadResponseCheck.failure(for: response(200, type: "text/html"), config: config, isConditional: false) == nil)
        config.acceptableContentTypes = ["image/png"]
        #expect(DownloadResponseCheck.failure(for: response(200, type: "Image/PNG; q=1"), config: config, isConditional: false) == nil)
        #expect(DownloadResponseCheck.failure(for: response(200), config: config, isConditional: false) == nil)
        #expect(DownloadResponseCheck.failure(for: response(200, type: "text/html"), config: config, isConditional: false)?.code == .invalidDownloadContentType)
    }

    @Test(arguments: ["", ";", "; image/png", "image", "image/", "image/png x"])
    func aContentTypeThatNamesNoMediaTypeIsNotAccepted(type: String) throws {
        var config = ImageDownloaderConfig()
        #expect(DownloadResponseCheck.failure(for: response(200, type: type), config: config, isConditional: false) == nil)
        config.acceptableContentTypes = ["image/png"]
        let failure = try #require(DownloadResponseCheck.failure(for: response(200, type: type), config: config, isConditional: false))
        #expect(failure.code == .invalidDownloadContentType)
        #expect(failure.message.contains("names no media type"))
    }
}

@Suite struct DownloadProgressThrottleTests {
    @Test func reportsEveryChunkWithoutAnInterval() {
        var throttle = DownloadProgressThrottle(interval: 0)
        var reports = 0
        for received in 1...5 where throttle.shouldReport(received: Int64(received), expected: 100) { reports += 1 }
        #expect(reports == 5)
    }

    @Test func reportsWhenTheFractionGrowsByTheInterval() {
        var throttle = DownloadProgressThrottle(interval: 0.25)
        var reported: [Int] = []
        for received in stride(from: 0, through: 100, by: 10) where throttle.shouldReport(received: Int64(received), expected: 100) {
            reported.append(received)
        }
        #expect(reported == [0, 30, 60, 90])
        let final = throttle.shouldReport(received: 100, expected: 100, isFinal: true)
        #expect(final, "the last report always goes out")
    }

    @Test func unknownLengthsAreNotThrottled() {
        var throttle = DownloadProgressThrottle(interval: 0.5)
        let first = throttle.shouldReport(received: 1, expected: -1)
        let second = throttle.shouldReport(received: 2, expected: -1)
        #expect(first && second)
    }

    @Test func revalidationSendsBothValidators() {
        let headers = ImageRevalidation(entityTag: "\"abc\"", lastModified: "Sun, 22 Nov 2026 10:00:00 GMT").headers
        #expect(headers.map(\.name) == ["If-None-Match", "If-Modified-Since"])
        #expect(ImageRevalidation().headers.isEmpty)
    }
}
