#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CAVIF
import WebImageCore

/// libavif's decoder (`avifDecoder`) over a private copy of an AVIF file, parsed when it is made.
///
/// libavif reads the encoded bytes in place for the decoder's whole life (`avifDecoderSetIOMemory` copies
/// nothing), so the decoder owns a copy of them, freed after the decoder is destroyed.
///
/// Settings: one thread (decodes run on the caller's thread, and the coder's callers decode in parallel);
/// Exif and XMP are not read (the orientation comes from `irot`/`imir`); libavif's own size limit is its default
/// (16384 x 16384 pixels), which is also the most it accepts, and the coder's pixel limit applies after parsing,
/// from the container, before any AV1 data is decoded; for a still image it is then lowered to the container's
/// size, so that the AV1 decoder refuses a larger frame; libavif's frame limit is its default too (12 hours at
/// 60 frames a second), to bound the parse of sample tables, and the coder's frame limit applies after parsing.
/// Of libavif's strict checks only `AVIF_STRICT_ALPHA_ISPE_REQUIRED` is kept, so that the alpha plane's size is
/// known from the container: files without a `pixi` box (written by older encoders) and with an odd clean
/// aperture (which the coder does not apply) are accepted.
///
/// Not thread-safe: one decode, or one provider behind its lock, uses it.
final class AVIFDecoder {
    /// The container's description.
    let header: AVIFHeader
    /// The index of the frame the next ``decodeFrame()`` decodes.
    private(set) var nextIndex = 0

    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>

    /// Copies `data` and parses its container.
    ///
    /// - Throws: `badImageData` when the container is malformed or truncated, or declares an image libavif
    ///   refuses; `imageTooLarge` when libavif cannot allocate what it needs.
    init(copying data: Data) throws(WebImageError) {
        guard let decoder = avifDecoderCreate() else {
            throw WebImageError(.imageTooLarge, "AVIF: libavif could not allocate a decoder")
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        let count = data.copyBytes(to: bytes)
        decoder.pointee.maxThreads = 1
        decoder.pointee.ignoreExif = 1
        decoder.pointee.ignoreXMP = 1
        decoder.pointee.imageSizeLimit = cavif_default_image_size_limit
        decoder.pointee.imageDimensionLimit = cavif_default_image_dimension_limit
        decoder.pointee.imageCountLimit = cavif_default_image_count_limit
        decoder.pointee.strictFlags = AVIF_STRICT_ALPHA_ISPE_REQUIRED.rawValue
        do throws(WebImageError) {
            let base = UnsafePointer(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            try AVIFLibrary.check(avifDecoderSetIOMemory(decoder, base, count), .decoding, while: "setting up the decoder")
            try AVIFLibrary.check(
                avifDecoderParse(decoder),
                .decoding,
                diagnostics: AVIFLibrary.text(of: decoder.pointee.diag),
                while: "reading the container"
            )
            header = try AVIFHeader(parsed: decoder)
            // The AV1 decoder is opened at the first frame with this limit: a still image's AV1 frame may not be
            // larger than its container says (libavif scales a frame of another size to the container's), so
            // that a few bytes of AV1 data cannot make the AV1 decoder allocate up to libavif's default limit.
            if header.frameCount == 1 {
                decoder.pointee.imageSizeLimit = UInt32(clamping: max(1, header.size.pixelCount))
            }
        } catch {
            avifDecoderDestroy(decoder)
            bytes.deallocate()
            throw error
        }
        self.bytes = bytes
        self.decoder = decoder
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    /// How long frame `index` is shown, in seconds, from the sequence's sample table; 0 for a still image or a
    /// frame the table does not time.
    ///
    /// libavif sums the durations of the frames before `index` to give its timestamp, so each call costs a walk
    /// of the table: read only the frames that will be shown.
    func duration(ofFrameAt index: Int) -> Double {
        guard header.frameCount > 1, index >= 0, index < header.frameCount else { return 0 }
        var timing = avifImageTiming()
        guard avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK,
              timing.timescale > 0 else { return 0 }
        return Double(timing.durationInTimescales) / Double(timing.timescale)
    }

    /// Decodes the next frame with libavif, checking it against the container; the frame stays in the decoder
    /// until ``convert(_:into:bytesPerRow:)`` is called or the decoder moves on.
    ///
    /// - Throws: `badImageData` when the AV1 data is malformed or truncated, when there is no frame left, or when
    ///   the decoded frame's size is not what the container declared.
    func decodeFrame() throws(WebImageError) -> DecodedFrame {
        let (image, action) = try decodeNext()
        return DecodedFrame(image: image, action: action)
    }

    /// A frame libavif has decoded, valid until the decoder moves on.
    struct DecodedFrame {
        fileprivate let image: UnsafeMutablePointer<avifImage>
        fileprivate let action: String
    }

    /// Converts `frame` to 8-bit RGBA (straight alpha; opaque when the file has no alpha) at
    /// ``AVIFHeader/size``, into `destination`. libavif scales 10- and 12-bit samples to 8 bits while converting.
    ///
    /// - Parameters:
    ///   - destination: Room for the stored size, `bytesPerRow` bytes a row; valid only during the call.
    /// - Throws: `badImageData` when libavif cannot convert the frame's layout.
    func convert(_ frame: DecodedFrame, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(WebImageError) {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, frame.image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.alphaPremultiplied = 0
        rgb.pixels = destination.assumingMemoryBound(to: UInt8.self)
        rgb.rowBytes = UInt32(bytesPerRow)
        try AVIFLibrary.check(avifImageYUVToRGB(frame.image, &rgb), .decoding, while: "converting to RGBA while \(frame.action)")
    }

    /// Decodes the next frame without converting it, to reach a later one: AV1 frames refer to the frames
    /// before them.
    ///
    /// - Throws: `badImageData` when the frame cannot be decoded or there is no frame left.
    func skipFrame() throws(WebImageError) {
        try decodeNext()
    }

    /// Decodes the next frame with `avifDecoderNextImage` and checks it against the container.
    ///
    /// - Returns: libavif's image, valid until the next call on the decoder, and the action, for messages.
    @discardableResult
    private func decodeNext() throws(WebImageError) -> (UnsafeMutablePointer<avifImage>, String) {
        let action = header.frameCount > 1 ? "decoding frame \(nextIndex + 1) of the sequence" : "decoding the image"
        guard nextIndex < header.frameCount else {
            throw .badImageData(.avif, "there is no frame left while \(action)")
        }
        try AVIFLibrary.check(
            avifDecoderNextImage(decoder),
            .decoding,
            diagnostics: AVIFLibrary.text(of: decoder.pointee.diag),
            while: action
        )
        nextIndex += 1
        guard let image = decoder.pointee.image else {
            throw .badImageData(.avif, "libavif decoded nothing while \(action)")
        }
        guard Int(image.pointee.width) == header.size.width, Int(image.pointee.height) == header.size.height else {
            throw .badImageData(
                .avif,
                "the AV1 data holds \(image.pointee.width) x \(image.pointee.height) pixels where the container declares \(header.size) while \(action)"
            )
        }
        return (image, action)
    }

    /// Goes back to before the first frame.
    func reset() throws(WebImageError) {
        try AVIFLibrary.check(avifDecoderReset(decoder), .decoding, while: "going back to the first frame")
        nextIndex = 0
    }
}
