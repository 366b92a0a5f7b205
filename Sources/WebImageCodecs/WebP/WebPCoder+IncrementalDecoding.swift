#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension WebPCoder {
    /// Whether `data`, the first bytes of a download, is WebP (12 bytes are needed to tell).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A new progressive decoder for one download.
    ///
    /// ```swift
    /// let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
    /// decoder.update(receivedSoFar, isFinished: false)
    /// if let partial = decoder.currentImage() { show(partial) }   // rows decoded so far, the rest transparent
    /// ```
    ///
    /// Still images are decoded by libwebp as the bytes arrive, into the final buffer, with thumbnails and
    /// scale-down done by libwebp's scaling. Animations cannot be decoded incrementally: the decoder returns no
    /// image until the data is finished, then the whole animation (or the first frame with
    /// ``ImageDecodeOptions/firstFrameOnly``).
    ///
    /// The decoder is thread-safe, but one download's updates must come in order.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        WebPIncrementalDecoder(coder: self, options: options)
    }
}
