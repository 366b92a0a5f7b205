import WebImageCore

/// One caller waiting on a shared download: how to reach it and how it wants the image decoded.
///
/// A class, so that the tables of a download with many callers copy one reference per caller, not every field.
final class DownloadCaller: Sendable {
    /// What callers share a decode by: equal options and the same coder (the downloader's, or one coder object
    /// that their contexts name). A caller whose context names a coder value, a response modifier or a decryptor
    /// decodes alone. Callers that want the body alone share one key, unless they have their own response modifier
    /// or decryptor.
    struct DecodeKey: Hashable, Sendable {
        let options: ImageDecodeOptions
        /// The caller's number when it runs something of its own on the body (a response modifier or decryptor,
        /// or a coder of its own that is not an object); nil for callers that share.
        let soleCaller: Int?
        /// The coder object of the caller's context, when it brought one: callers that bring the same object share
        /// its decode. Valid while the callers keep their coder, as they do until they complete.
        let coder: ObjectIdentifier?
        /// Whether the callers want the body alone, undecoded.
        let dataOnly: Bool
        /// Computed once: a download with many callers groups them by key.
        private let hash: Int

        init(options: ImageDecodeOptions, soleCaller: Int?, coder: ObjectIdentifier? = nil, dataOnly: Bool = false) {
            self.options = options
            self.soleCaller = soleCaller
            self.coder = coder
            self.dataOnly = dataOnly
            var hasher = Hasher()
            hasher.combine(options)
            hasher.combine(soleCaller)
            hasher.combine(coder)
            hasher.combine(dataOnly)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        /// The key of every caller who wants the body alone with nothing of its own to run on it; made once.
        static let sharedData = DecodeKey(options: ImageDecodeOptions(), soleCaller: nil, dataOnly: true)

        /// The key of the callers who want the body alone and share its checks: nothing to decode, so the
        /// download completes them as soon as the transfer ends, without a thread switch of its own.
        var isSharedData: Bool { dataOnly && soleCaller == nil }
    }

    let id: Int
    let token: ImageDownloadToken
    let progress: ImageLoadProgressHandler?
    let callbackQueue: CallbackQueue
    let decodeKey: DecodeKey
    let coder: any ImageCoding
    let decryptor: ImageDataDecryptor?
    let responseModifier: ImageResponseModifier?
    let priority: CurlRequest.Priority
    /// Whether the caller asked for a progressive load (and listens for progress).
    let wantsPartialImages: Bool

    init(
        id: Int,
        token: ImageDownloadToken,
        progress: ImageLoadProgressHandler?,
        callbackQueue: CallbackQueue,
        decodeKey: DecodeKey,
        coder: any ImageCoding,
        decryptor: ImageDataDecryptor?,
        responseModifier: ImageResponseModifier?,
        priority: CurlRequest.Priority,
        wantsPartialImages: Bool
    ) {
        self.id = id
        self.token = token
        self.progress = progress
        self.callbackQueue = callbackQueue
        self.decodeKey = decodeKey
        self.coder = coder
        self.decryptor = decryptor
        self.responseModifier = responseModifier
        self.priority = priority
        self.wantsPartialImages = wantsPartialImages
    }

    /// The last progress report, to run with the completion in one block so that it comes before it; nil
    /// without a progress handler.
    func lastReport(_ progress: ImageLoadProgress?) -> (@Sendable () -> Void)? {
        guard let handler = self.progress, let progress else { return nil }
        return { handler(progress) }
    }

    /// Hands `progress` to the caller on its callback queue, unless it has already finished or cancelled.
    func report(_ progress: ImageLoadProgress) {
        guard let handler = self.progress else { return }
        let token = token
        callbackQueue.execute(duringCall: false) {
            guard !token.isFinished else { return }
            handler(progress)
        }
    }
}
