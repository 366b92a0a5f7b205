#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The part of an APNG download that holds whole frames, as a file of its own: the bytes up to the end of the last
/// frame whose data has fully come (a frame's `IDAT` or `fdAT` chunks end where the next chunk of another kind
/// starts), then an `IEND` chunk, with the `acTL` chunk's frame count rewritten (and its CRC with it). The APNG
/// decoder checks a file's frames against `acTL`; this one is whole, with fewer frames, so it reads it as it reads
/// the finished download, and a partial animation's frames are decoded on demand by the same code as the final one's.
enum APNGAnimationPrefix {
    /// The file made of `data`'s complete frames and their number; nil before the first frame has fully come, or
    /// when the data has no `acTL` chunk before its frames.
    static func completeFrames(of data: Data) -> (file: Data, frameCount: Int)? {
        let found: (end: Int, frames: Int, actl: Int)? = data.withUnsafeBytes { bytes in
            var offset = PNGHeader.signature.count
            var actl: Int?
            var frames = 0
            var end = 0
            // Whether an fcTL has opened a frame, and whether that frame has data yet.
            var isInFrame = false
            var frameHasData = false
            while bytes.count - offset >= 8 {
                let length = Int(bytes.bigEndianUInt32(at: offset))
                let type = bytes.bigEndianUInt32(at: offset + 4)
                let isFrameData = type == PNGChunk.fdat || (type == PNGChunk.idat && isInFrame)
                if isInFrame, frameHasData, !isFrameData {
                    // The start of the chunk after a frame's data: that frame is whole.
                    frames += 1
                    end = offset
                    isInFrame = false
                }
                let chunkEnd = offset + 12 + length
                guard length <= 0x7FFF_FFFF, chunkEnd <= bytes.count else { break }
                if type == PNGChunk.actl, actl == nil {
                    actl = offset
                } else if type == PNGChunk.fctl {
                    isInFrame = true
                    frameHasData = false
                } else if isFrameData {
                    frameHasData = true
                }
                offset = chunkEnd
            }
            guard let actl, frames > 0, actl + 20 <= end else { return nil }
            return (end, frames, actl)
        }
        guard let found else { return nil }
        var file = Data(data.prefix(found.end))
        // acTL: length, type, num_frames, num_plays, CRC.
        file.replaceSubrange((found.actl + 8)..<(found.actl + 12), with: bigEndian(UInt32(found.frames)))
        let crc = file.withUnsafeBytes { bytes in
            PNGChunk.crc(over: UnsafeRawBufferPointer(rebasing: bytes[(found.actl + 4)..<(found.actl + 16)]))
        }
        file.replaceSubrange((found.actl + 16)..<(found.actl + 20), with: bigEndian(crc))
        // IEND: no data, and the CRC of its type alone.
        file.append(contentsOf: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        return (file, found.frames)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
}
