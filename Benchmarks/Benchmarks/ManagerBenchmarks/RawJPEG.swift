import CRawCodecs
import Foundation

/// The decoding baseline: TurboJPEG called directly (`CRawCodecs`), to RGBA8 in a fresh buffer that is freed before
/// it returns, as an Image's buffer is. One decompressor for the whole run, so it runs on one thread at a time.
enum RawJPEG {
    /// Decodes `data`; returns its pixel count. Fails the benchmark when TurboJPEG fails.
    static func decode(_ data: Data) -> Int {
        decode(data, into: nil)
    }

    /// Decodes `data` `count` times, each time into a buffer of `bytes` bytes of its own that stays allocated until
    /// the caller frees it (as a memory tier keeps its images), and returns the buffers; free each with `free`.
    static func decodeKeeping(_ data: Data, count: Int, bytes: Int) -> [UnsafeMutableRawPointer] {
        (0..<count).map { _ in
            guard let buffer = malloc(bytes) else { fatalError("cannot allocate \(bytes) bytes") }
            let pixels = decode(data, into: buffer.assumingMemoryBound(to: UInt8.self))
            precondition(pixels * 4 == bytes, "the benchmark input is not \(bytes / 4) pixels")
            return buffer
        }
    }

    /// Decodes `data` into `out` (RGBA8, big enough), or into a buffer freed before it returns when `out` is nil;
    /// returns its pixel count. Fails the benchmark when TurboJPEG fails.
    private static func decode(_ data: Data, into out: UnsafeMutablePointer<UInt8>?) -> Int {
        var width: Int32 = 0
        var height: Int32 = 0
        let result = data.withUnsafeBytes { bytes in
            raw_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, out, &width, &height)
        }
        precondition(result == 0, "TurboJPEG failed on the benchmark input")
        return Int(width) * Int(height)
    }

    /// Reads the file at `path` and decodes it.
    static func readAndDecode(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return decode(data)
    }
}
