internal import CWebP
import WebImageCore

/// What a WebP file's headers say about its image, read with `WebPGetFeatures` (no pixels are decoded).
struct WebPFeatures {
    /// The canvas size: the image's size, or an animation's canvas.
    var size: PixelSize
    /// Whether the file declares an alpha channel.
    var hasAlpha: Bool
    /// Whether the file is an animation.
    var isAnimated: Bool
    /// Whether the image is lossless (VP8L), or of a kind the headers do not tell.
    var isLossless: Bool

    /// Whether libwebp keeps a full-size plane while decoding, even when it scales the output: the lossless
    /// decoder holds the whole ARGB image (backward references reach anywhere above), and the lossy decoder
    /// holds a full alpha plane. Only opaque lossy images decode row by row.
    var needsFullSizePlane: Bool { isLossless || hasAlpha }

    /// Reads the features of a complete file.
    ///
    /// - Throws: `badImageData` when the headers are malformed or cut short.
    init(bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard let features = try WebPFeatures(prefix: bytes) else {
            throw .badImageData(.webp, "the data is truncated before the image headers end")
        }
        self = features
    }

    /// Reads the features of the first bytes of a file, or returns nil when more bytes are needed.
    ///
    /// - Throws: `badImageData` when the headers are malformed.
    init?(prefix bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var raw = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &raw)
        if status == VP8_STATUS_NOT_ENOUGH_DATA { return nil }
        try WebPLibrary.check(.decoding(status), while: "reading the headers")
        guard raw.width > 0, raw.height > 0 else {
            throw .badImageData(.webp, "the headers declare an empty image of \(raw.width) x \(raw.height)")
        }
        self.size = PixelSize(width: Int(raw.width), height: Int(raw.height))
        self.hasAlpha = raw.has_alpha != 0
        self.isAnimated = raw.has_animation != 0
        self.isLossless = raw.format != 1
    }

    /// How far into a file libwebp reads to tell a still image's features, found by walking the RIFF chunks of
    /// `bytes`, the first bytes of a file of `totalCount` bytes.
    enum HeaderExtent: Equatable {
        /// The features lie in the first `count` bytes: the chunks before the image's bitstream (each read whole
        /// by libwebp) and the first bytes of that bitstream.
        case bytes(Int)
        /// The chunks run past the bytes given: at least `count` bytes are needed to go on.
        case atLeast(Int)
        /// An animation, whose frame count needs every frame, or chunks that do not add up within the file: only
        /// the whole file tells.
        case wholeFile
    }

    /// Walks the chunks after the RIFF header of `bytes` up to the image's bitstream (`VP8 ` or `VP8L`).
    static func headerExtent(_ bytes: UnsafeRawBufferPointer, totalCount: Int) -> HeaderExtent {
        var offset = 12
        while true {
            guard offset + 8 <= bytes.count else {
                return offset + 8 <= totalCount ? .atLeast(offset + 8) : .wholeFile
            }
            let tag = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            let payload = offset + 8
            switch tag {
            case "VP8 ", "VP8L":
                // VP8's frame header is 10 bytes, VP8L's 5.
                return payload + 10 <= totalCount ? .bytes(payload + 10) : .wholeFile
            case "ANIM", "ANMF":
                return .wholeFile
            case "VP8X":
                guard payload < bytes.count else { return payload < totalCount ? .atLeast(payload + 1) : .wholeFile }
                if bytes[payload] & 0x02 != 0 { return .wholeFile }
            default:
                break
            }
            let next = payload + size + (size & 1)
            guard next <= totalCount else { return .wholeFile }
            offset = next
        }
    }

    /// The length the headers at the start of `bytes` give the file: the RIFF size, or the end of the image's
    /// bitstream chunk (`VP8 `, `VP8L`) when that runs further; at least 12.
    ///
    /// libwebp's one-shot decoder refuses a file shorter than this as truncated, although its incremental decoder
    /// may already have every pixel (the end of the file holds no pixel data, or the decoder read past the end
    /// of its chunk).
    static func declaredByteCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 12 else { return 12 }
        let riffEnd = 8 + Self.uint32(bytes, at: 4)
        var offset = 12
        while offset + 8 <= bytes.count {
            let tag = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
            let size = Self.uint32(bytes, at: offset + 4)
            if tag == "VP8 " || tag == "VP8L" {
                return max(riffEnd, offset + 8 + size)
            }
            offset += 8 + size + (size & 1)
        }
        return riffEnd
    }

    /// The little-endian 32-bit value at `offset` of `bytes`.
    static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
