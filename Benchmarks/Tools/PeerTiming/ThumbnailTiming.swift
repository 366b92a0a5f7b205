import Foundation
import Synchronization
import WebImage

/// Thumbnails with our coder for the files' format (`thumbnailPixelSize`; for JPEG, libjpeg-turbo's DCT scaling to
/// the smallest scale that still covers the size, then our resampler; for AVIF, HEIC and JPEG XL, a full decode,
/// then our resampler), one at a time on one thread, then as batches: every file once, spread over the cores with
/// `DispatchQueue.concurrentPerform`. The files are all of one format, the first file's.
struct ThumbnailTiming {
    let size: Int
    let files: [Data]

    private static func thumbnail(_ data: Data, size: Int, coder: any ImageCoding) -> Image {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: size)
        do {
            return try coder.decode(data, options: options)
        } catch {
            fail("our thumbnail decode failed: \(error)")
        }
    }

    func run(seconds: Double) -> [String: Any] {
        let size = self.size
        let files = self.files
        let format = ImageFormat.detect(files[0])
        let coder = Coders.coder(format.name)
        let first = Self.thumbnail(files[0], size: size, coder: coder)
        guard max(first.width, first.height) == size else { fail("thumbnail is \(first.width)x\(first.height)") }
        // Single images: each file in turn, one thread.
        var single: [Double] = []
        var end = Stopwatch.now() + seconds * 500
        while single.count < files.count || Stopwatch.now() < end {
            for data in files {
                single.append(Stopwatch.milliseconds { _ = Self.thumbnail(data, size: size, coder: coder) })
            }
        }
        // Batches: all files, concurrently; the time per image of each batch, and CPU time over wall time.
        var batch: [Double] = []
        var cpuOverWall: [Double] = []
        let threads = Mutex(Set<UInt>())
        end = Stopwatch.now() + seconds * 500
        while batch.count < 3 || Stopwatch.now() < end {
            let cpu = Stopwatch.processCPU()
            let wall = Stopwatch.milliseconds {
                DispatchQueue.concurrentPerform(iterations: files.count) { index in
                    _ = Self.thumbnail(files[index], size: size, coder: coder)
                    let thread = UInt(pthread_self())
                    threads.withLock { _ = $0.insert(thread) }
                }
            }
            batch.append(wall / Double(files.count))
            cpuOverWall.append((Stopwatch.processCPU() - cpu) / wall)
        }
        return [
            "mode": "thumb", "format": format.name, "size": size, "files": files.count, "width": first.width, "height": first.height,
            "single_ms": ["ours": single.map(\.roundedToMicroseconds)],
            "batch_ms_per_image": ["ours": batch.map(\.roundedToMicroseconds)],
            "batch_cores_busy": ["ours": cpuOverWall.map { ($0 * 100).rounded() / 100 }],
            "batch_threads": ["ours": threads.withLock { $0.count }],
        ]
    }
}
