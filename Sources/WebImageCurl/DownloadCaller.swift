import WebImageCore

/// One caller waiting on a shared download: how to reach it and how it wants the image decoded.
///
/// A class, so that the tables of a download with many callers copy one reference per caller, not every field.
final class DownloadCaller: Sendable {
    /// What callers share a decode by: equal options and the same (shared) coder. A caller whose context names
    /// its own coder decodes alone.
    struct DecodeKey: Hashable, Sendable {
        let options: ImageDecodeOptions
        /// The caller's number when it has its own coder; nil for the downloader's coder.
        let soleCaller: Int?
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
