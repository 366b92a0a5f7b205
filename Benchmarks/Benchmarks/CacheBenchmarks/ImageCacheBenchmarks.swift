import Benchmark
import BenchmarkPairs
import CRawCodecs
import Foundation
import WebImage

/// ImageCache's disk hit — read on the IO queue, decode a 256 px JPEG — against reading the same file and
/// decoding it with TurboJPEG called directly, timed back to back in each iteration.
func imageCacheBenchmarks() {
    let inputs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")
    let file = inputs.appendingPathComponent("photo-256.jpg")
    guard let jpeg = try? Data(contentsOf: file) else {
        fatalError("missing benchmark input Benchmarks/Inputs/photo-256.jpg; run Scripts/bench.sh")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-bench-\(getpid())")
    let cache = ImageCache(
        memoryCache: MemoryCache(costLimit: 0),
        diskCache: DiskCache(directory: directory),
        coder: ImageCoderRegistry.shared
    )
    let key = "https://example.com/photos/photo-256.jpg"
    do {
        try cache.diskCache.setData(jpeg, forKey: key)
    } catch {
        fatalError("cannot prepare the disk cache: \(error)")
    }
    let path = cache.diskCache.path(forKey: key)
    // Disk hits only: nothing goes back into memory.
    var diskOnly = ImageContext()
    diskOnly.storeCacheType = .disk

    Benchmark("ImageCache disk hit (256 px JPEG), synchronous: ours vs read + TurboJPEG, alternating", configuration: Pairs.configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            Pairs.measure(benchmark) {
                guard let image = cache.imageFromDisk(forKey: key, context: diskOnly) else { fatalError("the disk hit failed") }
                blackHole(image)
            } baseline: {
                blackHole(readAndDecode(path))
            }
        }
    }

    Benchmark("ImageCache disk hit (256 px JPEG), asynchronous query: ours vs read + TurboJPEG, alternating", configuration: Pairs.configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            Pairs.measure(benchmark) {
                let done = DispatchSemaphore(value: 0)
                cache.query(key: key, context: diskOnly, cacheType: .disk) { result in
                    guard case .success(let found) = result, found.image != nil else { fatalError("the disk hit failed") }
                    done.signal()
                }
                done.wait()
            } baseline: {
                blackHole(readAndDecode(path))
            }
        }
    }
}

/// The baseline: read the file, decode it with TurboJPEG into a fresh buffer.
private func readAndDecode(_ path: String) -> Int32 {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    var width: Int32 = 0
    var height: Int32 = 0
    let result = data.withUnsafeBytes { bytes in
        raw_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, nil, &width, &height)
    }
    precondition(result == 0, "TurboJPEG failed on the benchmark input")
    return width &* height
}
