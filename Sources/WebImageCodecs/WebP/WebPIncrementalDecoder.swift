#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Progressive decoding of one WebP download.
///
/// A still image is decoded by libwebp's incremental decoder as bytes arrive, into the final buffer (scaled by
/// libwebp when the options ask for a thumbnail or scale-down). Partial images are copies of the rows decoded so
/// far, with the rows below transparent; they are marked ``Image/isIncremental`` and report alpha.
///
/// libwebp cannot decode an animation incrementally. With ``ImageDecodeOptions/framesOnDemand`` (and not
/// ``ImageDecodeOptions/firstFrameOnly``), an animated file's partial images are animations of the frames that have
/// fully come, frames on demand, read from those frames as a file of their own (``WebPAnimationPrefix``) by the
/// decoder of the final image; their frame count grows as frames complete. Otherwise ``currentImage()`` is nil
/// until the data is finished. The finished data is decoded as ``WebPCoder/decode(_:options:)`` does.
///
/// The image is complete, and no longer marked incremental, once libwebp has decoded every pixel and the data
/// reaches the length the headers declare (the RIFF size, the image's chunk), as the one-shot decode requires.
/// A file whose data ends short of that keeps its last image marked incremental, even when every pixel is
/// there: ``WebPCoder/decode(_:options:)`` refuses it as truncated, as libwebp's own decoder and its demuxer
/// do, where a browser shows the pixels it has.
///
/// When the data is finished and libwebp's incremental decoder failed or stopped short, the data is decoded in one
/// go, which is more lenient with some damaged files, so that the result never depends on how the data arrived.
/// When that fails too, the last partial image of a cut-short image stays available; malformed data or an image
/// over the pixel limit or the decode memory budget makes ``currentImage()`` nil from then on. A still
/// image that fits the budget only without a partial image beside it gets no partial images, and is decoded
/// whole once the data is finished.
///
/// Calls may come from any thread but must not overlap (``IncrementalImageDecoding``'s contract). The lock only
/// hands the state from one call to the next: decoding and copying run outside it. The libwebp decoder is
/// deleted exactly once, when this object (or the finished state) releases it.
final class WebPIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase {
        /// Waiting for enough bytes to read the headers.
        case readingHeaders
        /// A still image being decoded.
        case decoding(WebPIncrementalSession)
        /// An animation, or a still image whose partial images would not fit in the decode memory budget:
        /// decoded whole once the data is finished.
        case wholeAtEnd
        /// An animation with frames on demand: its complete frames so far, as a partial animation, until the data
        /// is finished.
        case growingAnimation(frameCount: Int, image: Image?)
        /// The complete image, or, for data that ended short of the length its headers declare, the last
        /// image, marked incremental.
        case finished(Image)
        /// Malformed data or over the limits.
        case failed
        /// An update is working on the state (a call that overlaps it, against the contract, sees nothing).
        case busy
    }

    private struct State {
        var phase: Phase = .readingHeaders
        /// Bytes of the data already given to libwebp.
        var consumed = 0
        /// Whether the finished data went through the one-shot decode already (successful or not).
        var decodedInOneGo = false
    }

    private let coder: WebPCoder
    private let options: ImageDecodeOptions
    private let state = Locked(State())

    /// Creates a decoder for one download, decoding as `coder` does with `options`.
    init(coder: WebPCoder, options: ImageDecodeOptions) {
        self.coder = coder
        self.options = options
    }

    /// Gives the decoder all the data received so far; only the bytes not given before are decoded.
    func update(_ data: Data, isFinished: Bool) {
        var current = state.withLock { state in
            let taken = state
            state.phase = .busy
            return taken
        }
        if case .busy = current.phase { return }
        do {
            try advance(&current, with: data, isFinished: isFinished)
        } catch {
            current.phase = .failed
        }
        if isFinished {
            finishInOneGo(&current, with: data)
        }
        state.withLock { $0 = current }
    }

    /// The image as far as the data goes: nil before the first row, a partial image while rows or the end of the
    /// file are missing, the complete image once libwebp has decoded all of it and the file is whole.
    func currentImage() -> Image? {
        switch state.withLock({ $0.phase }) {
        case .finished(let image):
            return image
        case .decoding(let session):
            // Outside the lock: no update runs during this call, by the contract.
            guard let pixels = try? session.snapshot() else { return nil }
            return Image(
                pixels: pixels,
                scale: options.effectiveScale,
                format: .webp,
                hasAlpha: true,
                isIncremental: true
            )
        case .growingAnimation(_, let image):
            return image
        case .readingHeaders, .wholeAtEnd, .failed, .busy:
            return nil
        }
    }

    private func advance(_ state: inout State, with data: Data, isFinished: Bool) throws(WebImageError) {
        if case .readingHeaders = state.phase {
            try readHeaders(&state, from: data, isFinished: isFinished)
        }
        switch state.phase {
        case .decoding(let session):
            if data.count > state.consumed {
                let start = state.consumed
                try data.withBytes { bytes throws(WebImageError) in
                    try session.append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                }
                state.consumed = data.count
            }
            guard session.isComplete else { break }
            // libwebp's incremental decoder finishes with the last pixel; the one-shot decode also wants the
            // rest of the file the headers declare, and refuses a shorter one as truncated.
            let isWhole = data.count >= data.withUnsafeBytes { WebPFeatures.declaredByteCount($0) }
            if isWhole || isFinished {
                state.phase = .finished(Image(
                    pixels: session.pixels,
                    scale: options.effectiveScale,
                    format: .webp,
                    hasAlpha: session.hasAlpha,
                    isIncremental: !isWhole
                ))
            }
        case .wholeAtEnd:
            if isFinished {
                state.decodedInOneGo = true
                state.phase = .finished(try coder.decode(data, options: options))
            }
        case .growingAnimation(let known, _):
            if isFinished {
                state.decodedInOneGo = true
                state.phase = .finished(try coder.decode(data, options: options))
            } else if let (file, count) = WebPAnimationPrefix.completeFrames(of: data), count > known {
                let image = try coder.decodeForLoad(file, options: options)
                state.phase = .growingAnimation(frameCount: count, image: image.markedIncremental())
            }
        case .readingHeaders, .finished, .failed, .busy:
            break
        }
    }

    /// Decodes the finished data in one go when libwebp's incremental decoder failed, stopped short of the last
    /// pixel, or finished before bytes past the file's declared end came: its one-shot decoder is more lenient
    /// with some damaged files (a bitstream longer than its chunk, or one right after the RIFF header without its
    /// chunk header), and the result must not depend on how the data arrived. Data the one-shot decode refuses
    /// too keeps what it had, marked partial: the last partial image or the one it finished, or nothing.
    private func finishInOneGo(_ state: inout State, with data: Data) {
        guard !state.decodedInOneGo else { return }
        switch state.phase {
        case .failed:
            break
        case .decoding(let session) where !session.isComplete:
            break
        case .finished where data.count > data.withUnsafeBytes({ WebPFeatures.declaredByteCount($0) }):
            // Bytes past the end the RIFF header declares can change what libwebp's one-shot decoder reads of a
            // damaged bitstream, which the incremental decoder finished without: the one-shot decode decides.
            break
        default:
            return
        }
        state.decodedInOneGo = true
        if let image = try? coder.decode(data, options: options) {
            state.phase = .finished(image)
        } else if case .finished(let image) = state.phase {
            // What the incremental decoder finished, the one-shot decode refuses: it is a partial image.
            state.phase = .finished(image.markedIncremental())
        }
    }

    /// Whether the first chunk after the RIFF header is one a WebP file starts with: `VP8 `, `VP8L` or `VP8X`.
    private static func startsWithChunkHeader(_ data: Data) -> Bool {
        guard data.count >= 16 else { return false }
        let start = data.startIndex + 12
        let fourCC = [UInt8](data[start..<(start + 4)])
        return fourCC == Array("VP8 ".utf8) || fourCC == Array("VP8L".utf8) || fourCC == Array("VP8X".utf8)
    }

    private func readHeaders(_ state: inout State, from data: Data, isFinished: Bool) throws(WebImageError) {
        if data.count >= 12, ImageFormat.detect(data) != .webp {
            throw .badImageData(.webp, "the data does not start with a RIFF header of type WEBP")
        }
        let features = try data.withBytes { bytes throws(WebImageError) in
            data.count >= 12 ? try WebPFeatures(prefix: bytes) : nil
        }
        guard let features else {
            if isFinished { throw .badImageData(.webp, "the data ends before the image headers") }
            return
        }
        // A bitstream right after the RIFF header, without its chunk header, declares no length: libwebp's
        // incremental decoder then sizes its last partition by the bytes it has at the time, and finishes with
        // other pixels than the one-shot decode of the same file. Such a file is decoded whole at the end.
        if !Self.startsWithChunkHeader(data) {
            state.phase = .wholeAtEnd
            return
        }
        if features.isAnimated {
            let grows = options.framesOnDemand && !options.firstFrameOnly
            state.phase = grows ? .growingAnimation(frameCount: 0, image: nil) : .wholeAtEnd
            return
        }
        let target = try WebPCoder.stillTargetSize(features, options: options)
        // Partial images are copies of the buffer libwebp decodes into: one is kept beside it.
        var memory = WebPMemoryEstimate.still(features, target: target)
        memory.add("last partial image", pixels: target)
        guard options.allowsDecodeMemory(memory) else {
            state.phase = .wholeAtEnd
            return
        }
        state.phase = .decoding(try WebPIncrementalSession(features: features, targetSize: target))
        state.consumed = 0
    }
}
