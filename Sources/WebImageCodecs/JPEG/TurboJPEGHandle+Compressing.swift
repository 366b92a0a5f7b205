#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CTurboJPEG

extension TurboJPEGHandle {
    /// How the compressor samples colour: chroma at full resolution or halved both ways.
    enum ChromaSubsampling {
        /// 4:4:4, no subsampling: sharp colour edges, larger files.
        case none
        /// 4:2:0, chroma halved horizontally and vertically: the usual choice for photographs.
        case half

        var turboJPEGValue: Int32 {
            switch self {
            case .none: Int32(TJSAMP_444.rawValue)
            case .half: Int32(TJSAMP_420.rawValue)
            }
        }
    }

    /// The source of a compression: packed pixels in memory that TurboJPEG reads.
    struct CompressionSource {
        /// The first byte of the first row.
        var base: UnsafeRawPointer
        /// The size in pixels.
        var size: PixelSize
        /// Bytes from one row to the next.
        var bytesPerRow: Int
        /// Whether a pixel is 3 bytes of R, G, B (true) or 4 bytes of R, G, B and an ignored fourth byte (false).
        var isRGB: Bool
    }

    /// The largest side libjpeg writes.
    static let maximumSide = 65_500

    /// Compresses `source` to a JPEG file.
    ///
    /// TurboJPEG allocates the output; it is copied once into the returned `Data` and freed with `tjFree` right
    /// away, since TurboJPEG's buffer may be far larger than the file it holds.
    /// - Parameters:
    ///   - quality: libjpeg's quality, 1 to 100.
    ///   - subsampling: The chroma subsampling.
    /// - Throws: `encodingFailed` with TurboJPEG's message.
    func compress(
        _ source: CompressionSource,
        quality: Int,
        subsampling: ChromaSubsampling
    ) throws(WebImageError) -> Data {
        precondition(kind == .compressor)
        guard source.size.width <= TurboJPEGHandle.maximumSide, source.size.height <= TurboJPEGHandle.maximumSide,
              !source.size.isEmpty, let pitch = Int32(exactly: source.bytesPerRow) else {
            throw WebImageError(
                .encodingFailed,
                "JPEG: \(source.size) pixels cannot be written; each side must be 1 to \(TurboJPEGHandle.maximumSide)"
            )
        }
        let format = source.isRGB ? Int32(TJPF_RGB.rawValue) : Int32(TJPF_RGBX.rawValue)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = tjCompress2(
            raw,
            source.base.assumingMemoryBound(to: UInt8.self),
            Int32(source.size.width),
            pitch,
            Int32(source.size.height),
            format,
            &output,
            &outputSize,
            subsampling.turboJPEGValue,
            Int32(min(100, max(1, quality))),
            TJFLAG_ACCURATEDCT
        )
        defer { if let output { tjFree(output) } }
        try check(status, .encoding)
        guard let output, outputSize > 0 else {
            throw WebImageError(.encodingFailed, "JPEG: TurboJPEG returned no data")
        }
        return Data(bytes: output, count: Int(outputSize))
    }
}
