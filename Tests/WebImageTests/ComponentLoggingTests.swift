import Foundation
import Logging
import Testing
import WebImage
import WebImageCore
import WebImageTestSupport

/// The downloader's and the cache's own log lines: each step at debug level, what goes wrong as a warning, URLs and
/// keys with their credentials redacted, and nothing from a logger that is not given or not at that level.
@Suite struct ComponentLoggingTests {
    private func logger(_ records: LogRecords, level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records) }
        logger.logLevel = level
        return logger
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("logging-\(UUID().uuidString)")
    }

    @Test func theDownloaderAndTheCacheLogTheirStepsRedacted() async throws {
        try await withTestHTTPServer { server in
            let downloads = LogRecords()
            let caching = LogRecords()
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let registry = ImageCoderRegistry.makeDefault()
            let cache = ImageCache(namespace: "logging", root: directory, coder: registry, logger: logger(caching, level: .debug))
            let downloader = ImageDownloader(coder: registry, logger: logger(downloads, level: .debug))
            defer { downloader.invalidate() }
            let manager = ImageManager(cache: cache, loader: downloader)

            var components = URLComponents(url: server.url("/image/jpeg/photo.jpg"), resolvingAgainstBaseURL: false)!
            components.user = "user"
            components.password = "secret"
            let url = try #require(components.url)
            _ = try await manager.loadImage(url: url, options: .waitStoreCache)

            #expect(downloads.all.map(\.message) == ["transfer started", "transfer finished"])
            let finished = try #require(downloads.all.last)
            #expect(finished.metadata["status"] == "200")
            #expect(finished.metadata["bytes"] == "\(Fixtures.data("jpeg/photo.jpg").count)")
            #expect(finished.metadata["queued_ms"] != nil && finished.metadata["duration_ms"] != nil)
            #expect(caching.all.map(\.message) == ["stored on disk"])
            let lines = (downloads.all + caching.all).map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(!lines.contains("secret"), "\(lines)")
            #expect(lines.contains("user:***@"))
            #expect((downloads.all + caching.all).allSatisfy { $0.level == .debug })

            // An error status is a finished transfer with its status; a transfer cut off is a failed one. Both are
            // debug lines: the manager reports the failed loads.
            _ = try? await manager.loadImage(url: server.url("/status/404"))
            #expect(downloads.all.last?.message == "transfer finished")
            #expect(downloads.all.last?.metadata["status"] == "404")
            _ = try? await manager.loadImage(url: server.url("/reset?after=100"))
            #expect(downloads.all.last?.message == "transfer failed")
            #expect(downloads.all.last?.metadata["error_code"] == "connectionLost")
        }
    }

    @Test func aCacheThatCannotWriteWarnsAndAQuietOneSaysNothing() async throws {
        // The cache's root is a file: no directory can be made under it, so every disk write fails.
        let file = temporaryDirectory()
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let warnings = LogRecords()
        let silent = LogRecords()
        let image = Image(pixels: try PixelBuffer(width: 4, height: 4, color: .white), hasAlpha: false)
        for (records, level) in [(warnings, Logger.Level.warning), (silent, Logger.Level.error)] {
            let cache = ImageCache(namespace: "logging", root: file, coder: ImageCoderRegistry.makeDefault(), logger: logger(records, level: level))
            let stored = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebImageError>, Never>) in
                cache.store(image, data: Data([1, 2, 3]), key: "https://user:secret@example.com/a.png") { continuation.resume(returning: $0) }
            }
            #expect(throws: WebImageError.self) { try stored.get() }
        }
        #expect(warnings.all.map(\.message) == ["disk write failed"])
        #expect(warnings.all.first?.metadata["error_code"] == "diskIO")
        let warning = "\(warnings.all.first?.metadata ?? [:])"
        #expect(!warning.contains("secret"), "\(warning)")
        #expect(silent.all.isEmpty, "a logger at error level hears no warning")
    }
}
