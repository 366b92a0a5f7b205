#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coder that can show an image while its data is still arriving, as SDWebImage's `SDProgressiveImageCoder`.
public protocol ProgressiveImageCoding: ImageCoding {
    /// Whether the coder can start decoding `data`, the first bytes of a download.
    func canDecodeIncrementally(_ data: Data) -> Bool

    /// A new decoder for one download; make one per download, never share one between downloads.
    func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding
}

/// The state of one progressive decode.
///
/// Calls may come from any thread but must not overlap: the loader feeds one download's data in order. The
/// decoder holds the C library's state until it is released.
public protocol IncrementalImageDecoding: AnyObject, Sendable {
    /// Gives the decoder all the data received so far: every byte from the first, not only the new ones.
    ///
    /// - Parameter isFinished: Whether this is all the data there will be.
    func update(_ data: Data, isFinished: Bool)

    /// The image as far as the data given so far goes, or nil when there is not yet enough for any pixels.
    /// Partial images are marked ``Image/isIncremental``; when the data is finished the image is complete.
    func currentImage() -> Image?
}
