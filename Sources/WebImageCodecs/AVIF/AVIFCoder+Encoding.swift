#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CAVIF
import WebImageCore

extension AVIFCoder {
    /// Encodes `image` as AVIF: a still image, or an image sequence when the image has several frames.
    ///
    /// Lossy, 8 bits a sample in 4:2:0, with ``ImageEncodeOptions/quality`` 0...1 mapped onto libavif's
    /// quantizers 63...0 (libavif 0.11 has no quality setting of its own); the alpha channel, written only when
    /// the image has alpha, is kept losslessly. With ``ImageEncodeOptions/lossless`` the colour is stored in
    /// 4:4:4 with the identity matrix at quantizer 0, so that the pixels come back exactly.
    /// ``ImageEncodeOptions/maxPixelSize`` scales the frames down first and ``ImageEncodeOptions/firstFrameOnly``
    /// writes only the first frame. A sequence keeps the frame durations (to the millisecond); libavif 0.11
    /// cannot write a loop count, so it plays forever. The speed is the coder's ``encoderSpeed``.
    ///
    /// Lossy, ``ImageEncodeOptions/maxFileSize`` replaces the quality with a search for the highest quality that
    /// fits, then for the largest size that fits at ``ImageEncodeOptions/fileSizeQualityFloor``.
    ///
    /// Runs on the caller's thread alone (the encoder is given one thread).
    ///
    /// - Throws: `unsupportedFormat` unless `format` is AVIF; `encodingFailed` when libavif or its AV1 encoder
    ///   fails.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard canEncode(to: format) else {
            throw .unsupportedFormat(format, "encode")
        }
        let frames = try image.framesForEncoding(options, animated: true)
        let hasAlpha = image.hasAlpha
        guard let limit = options.fileSizeLimit, !options.lossless else {
            return try encodeFrames(frames, hasAlpha: hasAlpha, quality: options.clampedQuality, lossless: options.lossless)
        }
        let search = FileSizeSearch(limit: limit, hasAlpha: hasAlpha)
        return try search.run(frames) { frames, quality throws(WebImageError) in
            try encodeFrames(frames, hasAlpha: hasAlpha, quality: quality, lossless: false)
        }.data
    }

    /// libavif's quantizer for a quality 0...1: 63 (worst) at 0, 0 (best) at 1.
    static func quantizer(forQuality quality: Double) -> Int32 {
        let worst = Double(cavif_quantizer_worst_quality)
        let best = Double(cavif_quantizer_best_quality)
        return Int32((worst + (best - worst) * min(1, max(0, quality))).rounded())
    }

    /// A still image for one frame, a sequence (timescale 1000, durations in milliseconds) for several.
    private func encodeFrames(_ frames: [ImageFrame], hasAlpha: Bool, quality: Double, lossless: Bool) throws(WebImageError) -> Data {
        guard let encoder = avifEncoderCreate() else {
            throw WebImageError(.encodingFailed, "AVIF: libavif could not allocate an encoder")
        }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = lossless ? Int32(cavif_quantizer_best_quality) : Self.quantizer(forQuality: quality)
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(encoderSpeed)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = Int32(cavif_quantizer_best_quality)
        encoder.pointee.maxQuantizerAlpha = Int32(cavif_quantizer_best_quality)
        encoder.pointee.timescale = 1000
        let diagnostics = { AVIFLibrary.text(of: encoder.pointee.diag) }

        let single = frames.count == 1
        for (index, frame) in frames.enumerated() {
            let action = single ? "encoding the image" : "encoding frame \(index + 1) of the sequence"
            try Self.withImage(of: frame.pixels, hasAlpha: hasAlpha, lossless: lossless) { image throws(WebImageError) in
                let milliseconds = UInt64(max(1, (frame.duration * 1000).rounded()))
                let flags = single ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
                try AVIFLibrary.check(
                    avifEncoderAddImage(encoder, image, milliseconds, flags),
                    .encoding,
                    diagnostics: diagnostics(),
                    while: action
                )
            }
        }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try AVIFLibrary.check(avifEncoderFinish(encoder, &output), .encoding, diagnostics: diagnostics(), while: "finishing the file")
        guard let bytes = output.data, output.size > 0 else {
            throw WebImageError(.encodingFailed, "AVIF: the encoder wrote nothing")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// Calls `body` with a libavif image holding `pixels` converted to YUV (4:2:0, or 4:4:4 with the identity
    /// matrix when lossless), with an alpha plane when `hasAlpha`; the image is destroyed when `body` returns.
    private static func withImage(
        of pixels: PixelBuffer,
        hasAlpha: Bool,
        lossless: Bool,
        _ body: (UnsafeMutablePointer<avifImage>) throws(WebImageError) -> Void
    ) throws(WebImageError) {
        let layout = lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avifImageCreate(UInt32(pixels.width), UInt32(pixels.height), 8, layout) else {
            throw WebImageError(.encodingFailed, "AVIF: libavif could not allocate an image of \(pixels.size)")
        }
        defer { avifImageDestroy(image) }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if lossless {
            image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.ignoreAlpha = hasAlpha ? 0 : 1
        rgb.rowBytes = UInt32(pixels.bytesPerRow)
        // libavif reads the pixels only; its struct has no const pointer.
        rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress.assumingMemoryBound(to: UInt8.self))
        try AVIFLibrary.check(avifImageRGBToYUV(image, &rgb), .encoding, while: "converting the pixels to YUV")
        try body(image)
    }
}
