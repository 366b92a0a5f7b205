#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension JXLCoder {
    /// Whether `data`, the first bytes of a download, is JPEG XL (2 bytes tell a bare codestream, 12 the
    /// container).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A new progressive decoder for one download.
    ///
    /// ```swift
    /// let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
    /// decoder.update(receivedSoFar, isFinished: false)
    /// if let partial = decoder.currentImage() { show(partial) }   // what libjxl has decoded so far
    /// ```
    ///
    /// Still images are decoded by libjxl as the bytes arrive; see ``JXLIncrementalFormat`` for what partial
    /// images show. Animations are decoded whole when the data is finished.
    ///
    /// The decoder is thread-safe, but one download's updates must come in order.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        PhasedIncrementalDecoder(JXLIncrementalFormat(coder: self, options: options))
    }
}
