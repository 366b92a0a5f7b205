import Foundation
import WebImage

/// What a decode made, without its pixels: the size, the loop count, and each frame's duration and a hash of its
/// pixels. A harness compares later decodes of the same input with it instead of holding the image, so that the
/// memory a run takes is one decode's, and a memory finding is the library's, not the harness's.
struct ImageFingerprint: Equatable, CustomStringConvertible {
    struct Frame: Equatable {
        /// A hash of the frame's pixels (row padding ignored).
        let pixels: UInt64
        let duration: Double
    }

    let pixelSize: PixelSize
    let loopCount: Int
    let frames: [Frame]

    init(_ image: Image) {
        pixelSize = image.pixelSize
        loopCount = image.loopCount
        // Frames that share a buffer share its hash.
        var hashes: [ObjectIdentifier: UInt64] = [:]
        frames = image.frames.map { frame in
            let key = ObjectIdentifier(frame.pixels)
            let hash = hashes[key] ?? Self.hash(frame.pixels)
            hashes[key] = hash
            return Frame(pixels: hash, duration: frame.duration)
        }
    }

    var isAnimated: Bool { frames.count > 1 }

    var description: String { "\(frames.count) frame(s) of \(pixelSize)" }

    /// FNV-1a over the pixels, eight bytes at a step.
    static func hash(_ pixels: PixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let rowBytes = pixels.width * 4
        pixels.withUnsafeBytes { bytes in
            for y in 0..<pixels.height {
                let row = UnsafeRawBufferPointer(rebasing: bytes[(y * pixels.bytesPerRow)..<(y * pixels.bytesPerRow + rowBytes)])
                var offset = 0
                while offset + 8 <= rowBytes {
                    hash = (hash ^ row.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01b3
                    offset += 8
                }
                while offset < rowBytes {
                    hash = (hash ^ UInt64(row[offset])) &* 0x0000_0100_0000_01b3
                    offset += 1
                }
            }
        }
        return hash
    }
}
