import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

@Suite struct FileImageLoaderTests {
    let coder = MockCoder(magic: "MOCK", format: .png)
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func load(_ url: URL, limit: Int = 1 << 20) async -> Result<DownloadedImage, WebImageError> {
        let loader = FileImageLoader(coder: coder, maxFileSize: limit)
        return await withCheckedContinuation { continuation in
            loader.requestImage(url: url, options: [], context: ImageContext(), progress: nil) { continuation.resume(returning: $0) }
        }
    }

    @Test func readsAndDecodesAFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.png")
        try Data("MOCK-file".utf8).write(to: file)
        let result = try await load(file).get()
        #expect(result.data == Data("MOCK-file".utf8))
        #expect(result.image.pixelSize == PixelSize(width: 8, height: 8))
        #expect(FileImageLoader(coder: coder).canRequestImage(for: file))
        #expect(!FileImageLoader(coder: coder).canRequestImage(for: URL(string: "https://x.org/a.png")!))
    }

    @Test func missingFilesDirectoriesAndLargeFilesFail() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await load(directory.appendingPathComponent("missing.png")).failureCode == .diskIO)
        #expect(await load(directory).failureCode == .invalidURL)
        let large = directory.appendingPathComponent("large.png")
        try Data(repeating: 0x4d, count: 2_000).write(to: large)
        #expect(await load(large, limit: 1_000).failureCode == .responseTooLarge)
    }
}
