import CRawCodecs
import Foundation

/// The decoding baseline: TurboJPEG called directly (`CRawCodecs`), to RGBA8 in a fresh buffer that is freed before
/// it returns, as an Image's buffer is. One decompressor for the whole run, so it runs on one thread at a time.
enum RawJPEG {
    /// Decodes `data`; returns its pixel count. Fails the benchmark when TurboJPEG fails.
    static func decode(_ data: Data) -> Int {
        var width: Int32 = 0
        var height: Int32 = 0
        let result = data.withUnsafeBytes { bytes in
            raw_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, nil, &width, &height)
        }
        precondition(result == 0, "TurboJPEG failed on the benchmark input")
        return Int(width) * Int(height)
    }

    /// Decodes `data` `count` times, each time into a buffer of its own that stays allocated until the caller frees
    /// it (as a memory tier keeps its images), and returns the buffers; free each with `free`.
    static func decodeKeeping(_ data: Data, count: Int) -> [UnsafeMutableRawPointer] {
        let bytes = decode(data) * 4
        return (0..<count).map { _ in
            guard let buffer = malloc(bytes) else { fatalError("cannot allocate \(bytes) bytes") }
            var width: Int32 = 0
            var height: Int32 = 0
            let result = data.withUnsafeBytes { source in
                raw_jpeg_decode(
                    source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count,
                    buffer.assumingMemoryBound(to: UInt8.self), &width, &height
                )
            }
            precondition(result == 0 && Int(width) * Int(height) * 4 == bytes, "TurboJPEG failed on the benchmark input")
            return buffer
        }
    }

    /// Reads the file at `path` and decodes it.
    static func readAndDecode(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return decode(data)
    }
}
