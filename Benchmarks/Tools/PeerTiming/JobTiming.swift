import Foundation
import WebImage

/// The job an image server does, through the library as a user would wire it: an `ImageManager` over an
/// `ImageCache` whose disk cache is in `cacheDirectory` and an `ImageDownloader`. Each load asks for a thumbnail
/// (`thumbnailPixelSize`), so the manager downloads, decodes reduced, and stores the original bytes and the encoded
/// thumbnail on disk before completing (`waitStoreCache`). At most `workers` loads run at once, as in the Python
/// peer's pool.
///
/// Two passes, each with a manager of its own: the cold pass into the empty directory, then the warm pass with a
/// new cache over the same directory, whose memory cache is empty, so that every thumbnail is read from the disk
/// and decoded.
struct JobTiming {
    let urls: [URL]
    let cacheDirectory: URL
    let size: Int
    let workers: Int

    func run() async -> [String: Any] {
        let cold = await pass(expecting: .none)
        let warm = await pass(expecting: .disk)
        return ["mode": "job", "images": urls.count, "workers": workers, "cold": cold, "warm": warm]
    }

    private func pass(expecting source: ImageCacheType) async -> [String: Any] {
        let registry = ImageCoderRegistry.shared
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = workers
        let downloader = ImageDownloader(config: config, coder: registry)
        defer { downloader.invalidate() }
        let cache = ImageCache(namespace: "peers", root: cacheDirectory, coder: registry)
        let manager = ImageManager(cache: cache, loader: downloader)
        let context = {
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: size)
            return context
        }()

        var sources: [String: Int] = [:]
        var failures: [String] = []
        var largestSide = 0
        let cpuStart = Stopwatch.processCPU()
        let start = Stopwatch.now()
        await withTaskGroup(of: Result<ImageLoadResult, WebImageError>.self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let url = urls[next]
                next += 1
                group.addTask {
                    do throws(WebImageError) {
                        return .success(try await manager.loadImage(url: url, options: [.waitStoreCache], context: context))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            for _ in 0..<workers { startNext() }
            for await result in group {
                switch result {
                case .success(let loaded):
                    sources["\(loaded.cacheType)", default: 0] += 1
                    largestSide = max(largestSide, loaded.image.width, loaded.image.height)
                case .failure(let error):
                    failures.append("\(error)")
                }
                startNext()
            }
        }
        let seconds = (Stopwatch.now() - start) / 1000
        let cpuSeconds = (Stopwatch.processCPU() - cpuStart) / 1000
        if !failures.isEmpty { fail("\(failures.count) loads failed, first: \(failures[0])") }
        if largestSide != size { fail("thumbnails are \(largestSide) px, not \(size)") }
        if sources != ["\(source)": urls.count] { fail("expected every image from \(source), got \(sources)") }
        return ["seconds": seconds.roundedToMicroseconds, "cpu_seconds": cpuSeconds.roundedToMicroseconds, "sources": sources]
    }
}
