import Benchmark
import BenchmarkPairs
import Foundation
import WebImage

/// An encoded-data memory hit through `ImageManager.loadImageData` (a server's warm request for a variant) against
/// the encoded memory tier's own look-up (`encodedMemoryCache.encodedImage(forKey:)`) for the same key, 10,000 of
/// each per pair. The call derives the variant's key from the URL and a thumbnail context, as a server's handler
/// has it do; the look-up is given the key ready-made. The tier holds one 256 px JPEG thumbnail's bytes. The
/// per-hit time is the pair's time divided by 10,000.
func encodedHitBenchmarks() {
    let hits = 10_000
    let fixture = EncodedHitFixture()
    Benchmark(
        "Encoded hit x \(hits), loadImageData callback: ours vs EncodedMemoryCache.encodedImage(forKey:), alternating",
        configuration: Pairs.configuration
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            Pairs.measure(benchmark) {
                fixture.hitThroughCallback(hits)
            } baseline: {
                fixture.hitTier(hits)
            }
        }
    }
}

/// A manager whose encoded memory tier holds one thumbnail's bytes, with its URL, context and key. Nothing is
/// written to disk, and memory hits do not read it.
private final class EncodedHitFixture: Sendable {
    let manager: ImageManager
    let url: URL
    let context: ImageContext
    let key: String

    init() {
        guard let url = URL(string: "https://images.example.com/photos/000042/photo.jpg") else { fatalError("not a URL") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-benchmark-encoded-\(UUID().uuidString)", isDirectory: true)
        let cache = ImageCache(memoryCache: MemoryCache(), diskCache: DiskCache(directory: directory), coder: ImageCoderRegistry.shared)
        manager = ImageManager(
            cache: cache,
            loader: ImageDownloader(config: ImageDownloaderConfig(), coder: ImageCoderRegistry.shared),
            coder: ImageCoderRegistry.shared
        )
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(width: 256, height: 256)
        self.url = url
        self.context = context
        key = manager.cacheKey(for: url, context: context)
        let bytes = EncodedImage(data: Data(repeating: 0xFF, count: 9_000), format: .jpeg, pixelSize: PixelSize(width: 256, height: 192))
        manager.encodedMemoryCache.setEncodedImage(bytes, forKey: key)
    }

    /// `count` calls of the callback form; each must complete during the call, from the encoded tier.
    func hitThroughCallback(_ count: Int) {
        for _ in 0..<count {
            let operation = manager.loadImageData(url: url, context: context, completion: Self.expectMemoryHit)
            precondition(operation.isFinished, "the encoded hit did not complete during the call")
        }
    }

    /// `count` look-ups in the encoded tier.
    func hitTier(_ count: Int) {
        let tier = manager.encodedMemoryCache
        for _ in 0..<count {
            guard let entry = tier.encodedImage(forKey: key) else { fatalError("the tier lost the bytes") }
            blackHole(entry)
        }
    }

    private static let expectMemoryHit: ImageDataResultHandler = { result in
        guard case .success(let loaded) = result, loaded.cacheType == .memory else {
            fatalError("the data load was not a memory hit: \(result)")
        }
        blackHole(loaded.data)
    }
}
