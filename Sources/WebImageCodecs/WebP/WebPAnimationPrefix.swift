#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The part of an animated WebP download that holds whole frames, as a file of its own: the bytes up to the end of
/// the last complete `ANMF` chunk, with the RIFF size rewritten to match. libwebp's demuxer and animation decoder
/// want a whole file; this one is whole, with fewer frames, so the animation decoder reads it as it reads the
/// finished download, and a partial animation's frames are decoded on demand by the same code as the final one's.
enum WebPAnimationPrefix {
    /// The file made of `data`'s complete frames and their number; nil before the first frame has fully come, or
    /// when the data is not a RIFF container.
    static func completeFrames(of data: Data) -> (file: Data, frameCount: Int)? {
        let found: (end: Int, frames: Int)? = data.withUnsafeBytes { bytes in
            guard bytes.count >= 12 else { return nil }
            var offset = 12
            var end = 0
            var frames = 0
            while offset + 8 <= bytes.count {
                let size = WebPFeatures.uint32(bytes, at: offset + 4)
                let chunkEnd = offset + 8 + size + (size & 1)
                guard chunkEnd <= bytes.count else { break }
                if bytes[offset] == 0x41, bytes[offset + 1] == 0x4E, bytes[offset + 2] == 0x4D, bytes[offset + 3] == 0x46 {
                    // "ANMF"
                    frames += 1
                    end = chunkEnd
                }
                offset = chunkEnd
            }
            return frames > 0 ? (end, frames) : nil
        }
        guard let found else { return nil }
        var file = Data(data.prefix(found.end))
        let riffSize = UInt32(found.end - 8)
        file.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: riffSize >> (8 * $0)) })
        return (file, found.frames)
    }
}
