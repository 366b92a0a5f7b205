internal import CTurboJPEG

/// One TurboJPEG compressor or decompressor instance, destroyed with its owner.
///
/// TurboJPEG instances are not thread-safe. A handle is only used through ``TurboJPEGHandlePool/withHandle(_:_:)``,
/// which lends it to one caller at a time.
final class TurboJPEGHandle: @unchecked Sendable {
    // Sendable because a handle is touched by one thread at a time: it sits either in the pool's locked idle
    // list, where nobody uses it, or with exactly one borrower, which uses it synchronously inside
    // `TurboJPEGHandlePool.withHandle` and gives it back before that returns. The instance is destroyed
    // exactly once, in `deinit`.

    /// What the instance does.
    enum Kind: Sendable {
        case compressor
        case decompressor
    }

    let kind: Kind
    /// The C instance; valid for the life of this object.
    let raw: tjhandle

    /// Creates a TurboJPEG instance.
    ///
    /// - Throws: `encodingFailed` or `badImageData` with TurboJPEG's message when the instance cannot be made.
    init(_ kind: Kind) throws(WebImageError) {
        let made = kind == .compressor ? tjInitCompress() : tjInitDecompress()
        guard let made else {
            throw TurboJPEGHandle.error(handle: nil, kind == .compressor ? .encoding : .decoding)
        }
        self.kind = kind
        self.raw = made
    }

    deinit {
        tjDestroy(raw)
    }
}
