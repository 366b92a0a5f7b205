import Foundation
import Synchronization
import WebImage

/// The codec work of the whole job alone, with no network, disk, cache or manager, every file already in memory:
/// - cold: the thumbnail decode the job asks for (`thumbnailPixelSize`, decoded reduced where the format allows)
///   and the encoding of the thumbnail in the source's format with the default options, as the cache stores it;
/// - warm: the decode of those stored thumbnails, as the warm pass reads them.
///
/// The files are spread over the cores with `DispatchQueue.concurrentPerform`, every file once a batch.
///
/// Our codecs run at the speed of the C libraries under them (section 1 of the results), so this is what these
/// libraries need for the job: no implementation over them, Python's included, does a pass in less wall time on
/// this machine. The Python side's wall time over this one bounds the ratio any implementation could reach.
struct CodecWorkTiming {
    let size: Int
    let files: [Data]

    private static func thumbnailOptions(_ size: Int) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: size)
        return options
    }

    /// The cold pass's codec work on one file: its stored thumbnail.
    private static func thumbnail(_ data: Data, size: Int) -> Data {
        let coder = ImageCoderRegistry.shared
        do {
            let image = try coder.decode(data, options: thumbnailOptions(size))
            guard max(image.width, image.height) == size else {
                fail("a thumbnail is \(image.width)x\(image.height), not \(size) px on its long side")
            }
            return try coder.encode(image, as: coder.encodingFormat(for: image), options: ImageEncodeOptions())
        } catch {
            fail("the codec work failed: \(error)")
        }
    }

    /// The warm pass's codec work on one stored thumbnail.
    private static func decodeStored(_ data: Data, size: Int) -> Int {
        do {
            return try ImageCoderRegistry.shared.decode(data, options: thumbnailOptions(size)).width
        } catch {
            fail("a stored thumbnail does not decode: \(error)")
        }
    }

    /// Batches of `work` over every index of `count`, for at least `seconds` and 3 batches: wall and CPU times.
    private static func batches(
        _ count: Int, seconds: Double, _ work: @escaping @Sendable (Int) -> Int
    ) -> (wall: [Double], cpu: [Double]) {
        var wall: [Double] = []
        var cpu: [Double] = []
        let end = Stopwatch.now() + seconds * 1000
        while wall.count < 3 || Stopwatch.now() < end {
            let cpuStart = Stopwatch.processCPU()
            let total = Atomic<Int>(0)
            wall.append(Stopwatch.milliseconds {
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    total.add(work(index), ordering: .relaxed)
                }
            })
            cpu.append(Stopwatch.processCPU() - cpuStart)
            guard total.load(ordering: .relaxed) > 0 else { fail("the work produced nothing") }
        }
        return (wall, cpu)
    }

    func run(seconds: Double) -> [String: Any] {
        let size = self.size
        let files = self.files
        let stored = files.map { Self.thumbnail($0, size: size) }
        let cold = Self.batches(files.count, seconds: seconds) { Self.thumbnail(files[$0], size: size).count }
        let warm = Self.batches(files.count, seconds: seconds) { Self.decodeStored(stored[$0], size: size) }
        return [
            "mode": "codec", "size": size, "files": files.count,
            "cold": ["wall_ms": cold.wall.map(\.roundedToMicroseconds), "cpu_ms": cold.cpu.map(\.roundedToMicroseconds)],
            "warm": ["wall_ms": warm.wall.map(\.roundedToMicroseconds), "cpu_ms": warm.cpu.map(\.roundedToMicroseconds)],
        ]
    }
}
