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

    /// Reads the file at `path` and decodes it.
    static func readAndDecode(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return decode(data)
    }
}
