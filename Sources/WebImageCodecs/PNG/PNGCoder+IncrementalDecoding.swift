#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension PNGCoder: ProgressiveImageCoding {
    /// Whether `data`, the first bytes of a download, is PNG (8 bytes, the signature, are needed to tell).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A new progressive decoder for one download.
    ///
    /// ```swift
    /// let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
    /// decoder.update(receivedSoFar, isFinished: false)
    /// if let partial = decoder.currentImage() { show(partial) }   // coarse or partly decoded, marked isIncremental
    /// decoder.update(everything, isFinished: true)
    /// let image = decoder.currentImage()                          // as decode(everything, options:)
    /// ```
    ///
    /// libpng's progressive reader decodes the bytes as they arrive into a full-size canvas. A non-interlaced
    /// image shows the rows decoded so far, the rest transparent; an interlaced (Adam7) one shows a coarse
    /// version of the whole image that sharpens pass by pass, each pixel of an early pass filling the block of
    /// the grid it stands for, as browsers show it. Partial images have the size ``decode(_:options:)`` gives
    /// with `options` (thumbnail, scale-down limit), resampled from the canvas. An APNG shows its default
    /// image's rows while it arrives when that image is the first frame, nothing when it is hidden; the finished
    /// image is the whole animation. A canvas over ``ImageDecodeOptions/maxPixelCount``, or a canvas and partial
    /// image that would not fit in ``ImageDecodeOptions/maxDecodeMemory`` beside the final decode, gives no
    /// partial images.
    ///
    /// When the data is finished, the image is exactly the one ``decode(_:options:)`` gives; when that fails
    /// because the data was cut short, the last partial image stays.
    ///
    /// The decoder is thread-safe, but one download's updates must come in order and must not overlap.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        PhasedIncrementalDecoder(PNGIncrementalFormat(coder: self, options: options))
    }
}
