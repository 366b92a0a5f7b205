#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JPEGCoder {
    /// The quality at and above which colour is not subsampled.
    static let fullChromaQuality = 0.9

    /// libjpeg's quality (1...100) for a quality of 0...1: 0 gives 1, 1 gives 100.
    static func libjpegQuality(_ quality: Double) -> Int {
        let clamped = min(1, max(0, quality.isNaN ? 1 : quality))
        return max(1, min(100, Int((clamped * 100).rounded())))
    }

    /// Encodes the first frame of `image`; see ``encode(_:as:options:)``.
    ///
    /// With a file size limit the quality (and if need be the size) comes from Core's file size search, which
    /// compresses several times; otherwise it is the options' quality.
    func encodeImage(_ image: Image, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        let frames = try image.framesForEncoding(options, animated: false)
        guard let limit = options.fileSizeLimit else {
            return try compress(
                frames[0].pixels, hasAlpha: image.hasAlpha, quality: options.clampedQuality, background: options.backgroundColor
            )
        }
        let search = FileSizeSearch(limit: limit, hasAlpha: image.hasAlpha)
        return try search.run(frames) { frames, quality throws(WebImageError) in
            try compress(frames[0].pixels, hasAlpha: image.hasAlpha, quality: quality, background: options.backgroundColor)
        }.data
    }

    /// Compresses `pixels` at `quality` (0...1).
    ///
    /// Opaque pixels are compressed straight from their buffer. Pixels with alpha are first laid over
    /// `background`, row by row, into a pooled RGB scratch buffer.
    func compress(
        _ pixels: PixelBuffer,
        hasAlpha: Bool,
        quality: Double,
        background: RGBAColor
    ) throws(WebImageError) -> Data {
        let subsampling: TurboJPEGHandle.ChromaSubsampling = quality >= JPEGCoder.fullChromaQuality ? .none : .half
        let libjpegQuality = JPEGCoder.libjpegQuality(quality)
        return try TurboJPEGHandlePool.shared.withHandle(.compressor) { handle throws(WebImageError) in
            guard hasAlpha else {
                let source = TurboJPEGHandle.CompressionSource(
                    base: pixels.baseAddress,
                    size: pixels.size,
                    bytesPerRow: pixels.bytesPerRow,
                    isRGB: false
                )
                return try handle.compress(source, quality: libjpegQuality, subsampling: subsampling)
            }
            let rowBytes = pixels.width * 3
            return try ScratchBufferPool.shared.withBuffer(byteCount: rowBytes * pixels.height) { rgb throws(WebImageError) in
                guard let base = rgb.baseAddress else {
                    throw WebImageError(.encodingFailed, "JPEG: no scratch memory for the flattened pixels")
                }
                let bytes = base.bindMemory(to: UInt8.self, capacity: rowBytes * pixels.height)
                for y in 0..<pixels.height {
                    pixels.writeFlattenedRGBRow(y, over: background, into: bytes + y * rowBytes)
                }
                let source = TurboJPEGHandle.CompressionSource(
                    base: UnsafeRawPointer(base),
                    size: pixels.size,
                    bytesPerRow: rowBytes,
                    isRGB: true
                )
                return try handle.compress(source, quality: libjpegQuality, subsampling: subsampling)
            }
        }
    }
}
