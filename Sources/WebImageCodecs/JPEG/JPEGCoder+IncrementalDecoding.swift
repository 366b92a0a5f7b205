#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension JPEGCoder: ProgressiveImageCoding {
    /// Whether `data`, the first bytes of a download, starts with the JPEG start-of-image marker `FF D8`.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        data.starts(with: [0xFF, 0xD8])
    }

    /// A new progressive decoder for one download.
    ///
    /// ```swift
    /// let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
    /// decoder.update(receivedSoFar, isFinished: false)
    /// if let partial = decoder.currentImage() { show(partial) }   // a blurry whole frame, or the top rows
    /// ```
    ///
    /// libjpeg decodes the bytes as they arrive, at the DCT scale the one-shot decode uses. A progressive file
    /// gives a whole frame after each complete scan, sharper each time; a baseline file gives its rows from the
    /// top, with the rows below transparent. Partial images have the size and orientation of the final image
    /// (thumbnail, scale-down limit and EXIF orientation applied) and are marked ``Image/isIncremental``. Once the
    /// data is finished the image is ``decode(_:options:)``'s, pixel for pixel. CMYK and YCCK files, images
    /// over the pixel limit, and images whose partial decode would not fit in the decode memory budget beside
    /// the final one-shot decode (``JPEGIncrementalDecoder`` says what counts) give no partial images.
    ///
    /// The decoder is thread-safe, but one download's updates must come in order and must not overlap.
    /// Releasing it at any point frees libjpeg's state.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        JPEGIncrementalDecoder(coder: self, options: options)
    }
}
