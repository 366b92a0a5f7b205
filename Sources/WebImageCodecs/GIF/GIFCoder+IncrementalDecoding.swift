#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension GIFCoder: ProgressiveImageCoding {
    /// Whether `data`, the first bytes of a download, is GIF (6 bytes, `GIF87a` or `GIF89a`, are needed to tell).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A new progressive decoder for one download, which shows frames as they complete.
    ///
    /// ```swift
    /// let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
    /// decoder.update(receivedSoFar, isFinished: false)
    /// if let partial = decoder.currentImage() { show(partial) }   // the frames completed so far, isIncremental
    /// decoder.update(everything, isFinished: true)
    /// let image = decoder.currentImage()                          // as decode(everything, options:)
    /// ```
    ///
    /// The image is nil until the first frame's data has all arrived; then a still image of that frame; then an
    /// animation of every frame completed so far, with its durations (one frame only with
    /// ``ImageDecodeOptions/firstFrameOnly``). Frames are composited as ``decode(_:options:)`` composites them,
    /// on a canvas kept between updates, so each frame is decoded once; an update that completes no frame
    /// decodes nothing. Frames have the size ``decode(_:options:)`` gives them with a thumbnail size; under a
    /// scale-down limit, which depends on the whole frame count, they are sized for the next power of two of
    /// the frames so far. A logical screen over ``ImageDecodeOptions/maxPixelCount`` gives no partial images.
    ///
    /// When the data is finished, the image is exactly the one ``decode(_:options:)`` gives; when that fails
    /// because the data was cut short, the frames completed before the cut stay.
    ///
    /// The decoder is thread-safe, but one download's updates must come in order and must not overlap.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        PhasedIncrementalDecoder(GIFIncrementalFormat(coder: self, options: options))
    }
}
