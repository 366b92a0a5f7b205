internal import CAVIF
import WebImageCore

/// What an AVIF file's container says about its image, read by `avifDecoderParse` before any AV1 data is
/// decoded: the size, bit depth and chroma layout of the planes, alpha, the `irot`/`imir` transforms and, for an
/// image sequence (`avis`), the frame count.
struct AVIFHeader: Sendable, Hashable {
    /// The size of the stored pixels (before the transforms).
    var size: PixelSize
    /// Bits a sample: 8, 10 or 12.
    var depth: Int
    /// The chroma layout of the planes.
    var chroma: Chroma
    /// Whether the file has an alpha plane.
    var hasAlpha: Bool
    /// The `irot` and `imir` transforms as an EXIF orientation.
    var orientation: ImageOrientation
    /// The number of frames: 1 for a still image, the sequence's sample count for an `avis`.
    var frameCount: Int

    /// How the colour planes are sampled.
    enum Chroma: Sendable, Hashable {
        case yuv444, yuv422, yuv420, monochrome
    }

    /// Reads the header of a decoder that has parsed its file.
    ///
    /// - Throws: `badImageData` when the container declares an empty image, no frame, or a depth or chroma layout
    ///   libavif cannot convert.
    init(parsed decoder: UnsafePointer<avifDecoder>) throws(WebImageError) {
        guard let image = decoder.pointee.image?.pointee else {
            throw .badImageData(.avif, "libavif parsed the file but gave no image")
        }
        guard image.width > 0, image.height > 0 else {
            throw .badImageData(.avif, "the container declares an empty image of \(image.width) x \(image.height)")
        }
        guard decoder.pointee.imageCount > 0 else {
            throw .badImageData(.avif, "the file has no image")
        }
        guard [8, 10, 12].contains(image.depth) else {
            throw .badImageData(.avif, "the image has \(image.depth) bits a sample; AVIF has 8, 10 or 12")
        }
        size = PixelSize(width: Int(image.width), height: Int(image.height))
        depth = Int(image.depth)
        switch image.yuvFormat {
        case AVIF_PIXEL_FORMAT_YUV444: chroma = .yuv444
        case AVIF_PIXEL_FORMAT_YUV422: chroma = .yuv422
        case AVIF_PIXEL_FORMAT_YUV420: chroma = .yuv420
        case AVIF_PIXEL_FORMAT_YUV400: chroma = .monochrome
        default: throw .badImageData(.avif, "the image has no colour planes")
        }
        hasAlpha = decoder.pointee.alphaPresent != 0
        let flags = image.transformFlags
        let rotation = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle) : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode) : nil
        orientation = Self.orientation(rotation: rotation, mirror: mirror)
        frameCount = Int(decoder.pointee.imageCount)
    }

    /// The EXIF orientation for HEIF's transforms, which a reader applies in that order: `irot` turns the
    /// stored pixels `rotation` quarter turns anticlockwise, then `imir` mirrors them, top and bottom exchanged
    /// for mode 0, left and right for mode 1.
    static func orientation(rotation: Int, mirror: Int?) -> ImageOrientation {
        switch (rotation & 3, mirror) {
        case (0, nil): .up
        case (1, nil): .left
        case (2, nil): .down
        case (3, nil): .right
        case (0, 0?): .downMirrored
        case (0, _?): .upMirrored
        case (1, 0?): .leftMirrored
        case (1, _?): .rightMirrored
        case (2, 0?): .upMirrored
        case (2, _?): .downMirrored
        case (3, 0?): .rightMirrored
        default: .leftMirrored
        }
    }

    /// Bytes a sample in libavif's planes: 1 at 8 bits, 2 above.
    var bytesPerSample: Int { depth > 8 ? 2 : 1 }

    /// Bytes of the decoded planes of one frame: luma, the two chroma planes at their sampling, and alpha.
    var planeBytes: Int {
        let w = size.width, h = size.height
        let halfW = (w + 1) / 2, halfH = (h + 1) / 2
        let chromaSamples: Int = switch chroma {
        case .yuv444: DecodeMemoryEstimate.product(w, h, 2)
        case .yuv422: DecodeMemoryEstimate.product(halfW, h, 2)
        case .yuv420: DecodeMemoryEstimate.product(halfW, halfH, 2)
        case .monochrome: 0
        }
        let planes = hasAlpha ? 2 : 1
        let samples = DecodeMemoryEstimate.sum(DecodeMemoryEstimate.product(w, h, planes), chromaSamples)
        return DecodeMemoryEstimate.product(samples, bytesPerSample)
    }
}
