#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// Progressive decoding of one JPEG download.
///
/// libjpeg (through the C shim's suspending source) decodes as bytes arrive, at the DCT scale the one-shot
/// decode would use, into a buffer kept for the whole download:
/// - a progressive (or multi-scan) file gives a whole frame after each complete scan, sharper each time;
/// - a sequential (baseline) file gives its rows from the top as their data arrives; the rows below are
///   transparent, and such partial images report alpha.
///
/// A partial image is that buffer finished as ``JPEGCoder/decode(_:options:)`` finishes its decode (resampled to
/// the thumbnail or scale-down size, turned upright for the EXIF orientation), so it has the final image's size
/// and orientation; it is marked ``Image/isIncremental``. It is copied from the buffer only when asked for, and
/// asking twice with no new pixels in between returns the same image.
///
/// When the data is finished, the image is the one-shot decode of all of it, so its pixels are exactly
/// ``JPEGCoder/decode(_:options:)``'s. When that decode fails (a file cut short, damaged data), libjpeg finishes
/// the partial decode instead (the missing part grey, as libjpeg shows it) and that partial image stays.
///
/// No partial images: for CMYK and YCCK files, for images over the pixel limit, and for images whose partial
/// decode would not fit in the decode memory budget (``ImageDecodeOptions/maxDecodeMemory``) beside the one-shot
/// decode of the finished data, which runs while the session still holds libjpeg's state, its canvas and the last
/// partial image (all checked from the header, before any pixel memory is allocated); only the finished data can
/// then give an image. Damaged data stops the partial images where they are: the last one stays.
///
/// Calls may come from any thread but must not overlap (``IncrementalImageDecoding``'s contract). The lock only
/// hands the state from one call to the next: decoding and copying run outside it. libjpeg's state is freed
/// exactly once, when the decode ends or this object is released.
final class JPEGIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase {
        /// Partial images come from the session (which may have stopped; its last pixels stay).
        case partial(Session)
        /// No partial images for this data; only the finished data can give an image.
        case none
        /// The data is finished: the one-shot decode, or the last partial image when that failed, or nil.
        case finished(Image?)
        /// An update is working on the state (a call that overlaps it, against the contract, sees nothing).
        case busy
    }

    private let coder: JPEGCoder
    private let options: ImageDecodeOptions
    private let state: Locked<Phase>

    /// Creates a decoder for one download, decoding as `coder` does with `options`.
    init(coder: JPEGCoder, options: ImageDecodeOptions) {
        self.coder = coder
        self.options = options
        state = Locked(Session(options: options).map(Phase.partial) ?? .none)
    }

    /// Gives the decoder all the data received so far; libjpeg resumes where it stopped.
    func update(_ data: Data, isFinished: Bool) {
        let current = state.withLock { phase in
            let taken = phase
            phase = .busy
            return taken
        }
        if case .busy = current { return }
        let next = advance(current, with: data, isFinished: isFinished)
        state.withLock { $0 = next }
    }

    /// The image as far as the data goes: nil before the first rows or scan, a partial image while the data is
    /// arriving, the one-shot decode once it is finished.
    func currentImage() -> Image? {
        switch state.withLock({ $0 }) {
        case .finished(let image):
            return image
        case .partial(let session):
            // Outside the lock: no update runs during this call, by the contract.
            return session.image(scale: options.effectiveScale)
        case .none, .busy:
            return nil
        }
    }

    private func advance(_ phase: Phase, with data: Data, isFinished: Bool) -> Phase {
        switch phase {
        case .finished, .busy:
            return phase
        case .none:
            return isFinished ? .finished(try? coder.decode(data, options: options)) : .none
        case .partial(let session):
            if isFinished {
                if let image = try? coder.decode(data, options: options) {
                    return .finished(image)
                }
                session.advance(data, isFinished: true)
                return .finished(session.image(scale: options.effectiveScale))
            }
            session.advance(data, isFinished: false)
            return session.isStopped && !session.hasPixels ? .none : .partial(session)
        }
    }
}
