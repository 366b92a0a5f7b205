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
}
