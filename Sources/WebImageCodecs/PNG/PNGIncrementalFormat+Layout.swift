#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension PNGIncrementalFormat {
    /// What the chunks before the first `IDAT` say, read from a prefix of the file without libpng.
    struct Layout {
        /// The `IHDR` chunk.
        var header: PNGHeader
        /// The `acTL` chunk of an APNG.
        var animation: APNGAnimation.AnimationControl?
        /// Whether an `fcTL` chunk comes before the first `IDAT`: the default image is frame 0.
        var defaultImageIsFirstFrame = false

        /// Reads the chunks of `prefix` up to the first `IDAT`; nil when the data ends before it.
        ///
        /// - Throws: `badImageData` when the data is not a PNG or the chunks before the image data are damaged.
        init?(prefix bytes: UnsafeRawBufferPointer) throws(WebImageError) {
            let signature = PNGHeader.signature
            guard bytes.prefix(signature.count).elementsEqual(signature.prefix(bytes.count)) else {
                throw .badImageData(.png, "the data does not start with the PNG signature")
            }
            // The signature and a whole IHDR chunk.
            guard bytes.count >= signature.count + 25 else { return nil }
            header = try PNGHeader(parsing: bytes)
            var offset = header.chunk.whole.upperBound
            while bytes.count - offset >= 8 {
                let length = bytes.bigEndianUInt32(at: offset)
                let type = bytes.bigEndianUInt32(at: offset + 4)
                guard length <= 0x7FFF_FFFF else {
                    throw .badImageData(
                        .png,
                        "the \(PNGChunk.name(of: type)) chunk at byte \(offset) declares \(length) bytes, over PNG's maximum"
                    )
                }
                if type == PNGChunk.idat { return }
                let end = offset + 12 + Int(length)
                guard end <= bytes.count else { return nil }
                let chunk = PNGChunk(type: type, start: offset, data: (offset + 8)..<(end - 4))
                if type == PNGChunk.actl, animation == nil {
                    animation = try APNGAnimation.readAnimationControl(chunk, in: bytes)
                } else if type == PNGChunk.fctl, animation != nil {
                    defaultImageIsFirstFrame = true
                } else if type == PNGChunk.iend {
                    throw .badImageData(.png, "the file ends before any image data")
                }
                offset = end
            }
            return nil
        }
    }
}
