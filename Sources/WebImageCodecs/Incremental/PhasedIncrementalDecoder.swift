#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The phases of a progressive decode shared by the formats that decode from their headers on (PNG, GIF):
/// reading the headers, decoding into a session, or waiting for the end; then the finished image.
///
/// When the data is finished the image is the format's one-shot decode. When that fails (data cut short), the
/// last partial image stays available, unless the data was found malformed or over the limits, which makes
/// ``currentImage()`` nil.
///
/// Calls may come from any thread but must not overlap (``IncrementalImageDecoding``'s contract). The lock only
/// hands the state from one call to the next: decoding runs outside it.
final class PhasedIncrementalDecoder<Format: IncrementalDecodingFormat>: IncrementalImageDecoding {
    private enum Phase {
        /// Waiting for the headers.
        case readingHeaders
        /// Decoding into the session as data arrives.
        case decoding(Format.Session)
        /// No partial images for this data; decoded whole once it is finished.
        case awaitingEnd
        /// An animation's frames so far, as a partial animation (nil before the first), until the data is finished.
        case growingAnimation(frameCount: Int, image: Image?)
        /// The complete image, or the last partial one of data that was cut short.
        case finished(Image)
        /// Malformed data or over the limits.
        case failed
        /// An update is working on the state (a call that overlaps it, against the contract, sees nothing).
        case busy
    }

    private let format: Format
    private let phase = Locked(Phase.readingHeaders)

    init(_ format: Format) {
        self.format = format
    }

    func update(_ data: Data, isFinished: Bool) {
        var current = phase.withLock { phase in
            let taken = phase
            phase = .busy
            return taken
        }
        if case .busy = current { return }
        do {
            try advance(&current, with: data)
        } catch {
            current = .failed
        }
        if isFinished {
            current = finish(current, data: data)
        }
        phase.withLock { $0 = current }
    }

    func currentImage() -> Image? {
        switch phase.withLock({ $0 }) {
        case .finished(let image):
            return image
        case .decoding(let session):
            // Outside the lock: no update runs during this call, by the contract.
            return format.partialImage(of: session)
        case .growingAnimation(_, let image):
            return image
        case .readingHeaders, .awaitingEnd, .failed, .busy:
            return nil
        }
    }

    private func advance(_ phase: inout Phase, with data: Data) throws(WebImageError) {
        if case .readingHeaders = phase {
            phase = switch try data.withBytes({ bytes throws(WebImageError) in try format.start(bytes) }) {
            case .waiting: .readingHeaders
            case .partials(let session): .decoding(session)
            case .wholeAtEnd: .awaitingEnd
            case .growingAnimation: .growingAnimation(frameCount: 0, image: nil)
            }
        }
        switch phase {
        case .decoding(let session):
            try data.withBytes { bytes throws(WebImageError) in try format.advance(session, with: bytes) }
        case .growingAnimation(let known, _):
            if let (image, count) = format.partialAnimation(of: data, beyond: known) {
                phase = .growingAnimation(frameCount: count, image: image)
            }
        default:
            break
        }
    }

    /// The phase once the data is finished: the one-shot decode, else the last partial image when nothing was
    /// found wrong with the data.
    private func finish(_ phase: Phase, data: Data) -> Phase {
        if case .finished = phase { return phase }
        if let image = format.decodeWhole(data) { return .finished(image) }
        if case .decoding(let session) = phase, let partial = format.partialImage(of: session) {
            return .finished(partial)
        }
        if case .growingAnimation(_, let partial?) = phase {
            return .finished(partial)
        }
        return .failed
    }
}
