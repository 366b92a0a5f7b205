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
    /// An opaque image is compressed straight from its pixel buffer. An image with alpha is first laid over the
    /// background colour, row by row, into a pooled RGB scratch buffer.
    func encodeImage(_ image: Image, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        let pixels = try image.framesForEncoding(options, animated: false)[0].pixels
        let quality = options.clampedQuality
        let subsampling: TurboJPEGHandle.ChromaSubsampling = quality >= JPEGCoder.fullChromaQuality ? .none : .half
        let libjpegQuality = JPEGCoder.libjpegQuality(quality)
        return try TurboJPEGHandlePool.shared.withHandle(.compressor) { handle throws(WebImageError) in
            guard image.hasAlpha else {
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
                    pixels.writeFlattenedRGBRow(y, over: options.backgroundColor, into: bytes + y * rowBytes)
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
