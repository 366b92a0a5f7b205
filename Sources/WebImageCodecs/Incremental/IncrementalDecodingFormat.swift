#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// One format's part of a progressive decode run by ``PhasedIncrementalDecoder``: how to start once the headers
/// have arrived, how to feed the session the bytes so far, what partial image it shows, and the one-shot decode
/// for the finished data.
protocol IncrementalDecodingFormat: Sendable {
    /// The format's decoding state, used by one call at a time (Sendable so that the decoder can hand it from one
    /// call to the next).
    associatedtype Session: AnyObject, Sendable

    /// What the start of the data allows: wait for more, a session for partial images, or no partial images
    /// (the image is decoded whole when the data is finished). Throws when the data is not this format or is
    /// over the limits.
    func start(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> IncrementalStart<Session>

    /// Feeds `session` every byte received so far; it decodes those it has not seen.
    func advance(_ session: Session, with bytes: UnsafeRawBufferPointer) throws(WebImageError)

    /// The image as far as `session` has decoded, or nil before any pixels.
    func partialImage(of session: Session) -> Image?

    /// The finished data decoded in one shot, or nil when it cannot be.
    func decodeWhole(_ data: Data) -> Image?

    /// For a start that said ``IncrementalStart/growingAnimation``: the animation of the frames of `data` that have
    /// fully come, marked incremental, and their number; nil when no more than `frameCount` frames have (or the
    /// frames cannot be read).
    func partialAnimation(of data: Data, beyond frameCount: Int) -> (image: Image, frameCount: Int)?
}

extension IncrementalDecodingFormat {
    /// No partial animations: the format never starts with ``IncrementalStart/growingAnimation``.
    func partialAnimation(of data: Data, beyond frameCount: Int) -> (image: Image, frameCount: Int)? { nil }
}

/// What the start of a download allows an ``IncrementalDecodingFormat``.
enum IncrementalStart<Session> {
    /// The headers have not all arrived.
    case waiting
    /// Partial images, from this session.
    case partials(Session)
    /// No partial images; the image is decoded whole when the data is finished.
    case wholeAtEnd
    /// An animation with frames on demand: partial images are animations of the frames that have fully come
    /// (``IncrementalDecodingFormat/partialAnimation(of:beyond:)``); the image is decoded whole when the data is
    /// finished.
    case growingAnimation
}
