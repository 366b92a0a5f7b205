#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The search a lossy encoder runs to meet ``ImageEncodeOptions/maxFileSize``: the best quality that fits,
/// then, when even the lowest quality is too big, smaller and smaller sizes, each with its best quality.
///
/// At the original size the search first tries quality 1 (the common case, a file that fits, costs one encode),
/// then ``ImageEncodeOptions/fileSizeQualityFloor``; when the floor fits, it bisects the quality between the two
/// in steps of 0.01 and keeps the highest that fits. When the floor does not fit, the frames are resampled from
/// the originals to a smaller size, chosen from how far the last file was over (the byte count of a file goes
/// roughly with its pixel count), by a factor of 0.5 to 0.9 a side, and the quality is searched again there,
/// floor first. It stops at the first size whose floor fits, or when the image is 1 x 1 or after
/// ``maxScaleSteps`` sizes; then the smallest file made is the answer.
///
/// The encoder is called synchronously on the caller's thread, up to about a dozen times; nothing is shared
/// between calls of ``run(_:encode:)``.
package struct FileSizeSearch {
    /// One encode the search made.
    package struct Attempt: Equatable, Sendable {
        /// The quality asked for, 0...1.
        package var quality: Double
        /// The size of the frames encoded.
        package var pixelSize: PixelSize
        /// The byte count of the file.
        package var byteCount: Int
    }

    /// What the search found.
    package struct Outcome {
        /// The file: the best that fits, or the smallest made when none does.
        package var data: Data
        /// Whether ``data`` fits the limit.
        package var fits: Bool
        /// Every encode, in the order made.
        package var attempts: [Attempt]
    }

    /// The most sizes tried below the original.
    package static let maxScaleSteps = 24

    /// The most bytes a file may take; at least 1.
    package let limit: Int
    /// Whether the frames have alpha, for the resampling.
    package let hasAlpha: Bool

    package init(limit: Int, hasAlpha: Bool) {
        self.limit = max(1, limit)
        self.hasAlpha = hasAlpha
    }

    /// The quality floor in hundredths.
    private static var floorPercent: Int {
        Int((ImageEncodeOptions.fileSizeQualityFloor * 100).rounded())
    }

    /// Runs the search over `frames` (one for a still image), calling `encode` with frames of one size and a
    /// quality 0...1.
    package func run(
        _ frames: [ImageFrame],
        encode: ([ImageFrame], Double) throws(WebImageError) -> Data
    ) throws(WebImageError) -> Outcome {
        var search = Progress(limit: limit)
        if let fit = try search.bestQuality(frames, topFirst: true, encode: encode) {
            return Outcome(data: fit, fits: true, attempts: search.attempts)
        }
        let original = frames[0].pixels.size
        var size = original
        for _ in 0..<Self.maxScaleSteps {
            let over = Double(search.lastByteCount) / Double(limit)
            let factor = min(0.9, max(0.5, (1 / over).squareRoot()))
            let next = PixelSize(
                width: max(1, Int((Double(size.width) * factor).rounded(.down))),
                height: max(1, Int((Double(size.height) * factor).rounded(.down)))
            )
            guard next != size else { break }
            size = next
            let scaled = try Self.resample(frames, to: size, hasAlpha: hasAlpha)
            if let fit = try search.bestQuality(scaled, topFirst: false, encode: encode) {
                return Outcome(data: fit, fits: true, attempts: search.attempts)
            }
        }
        return Outcome(data: search.smallest ?? Data(), fits: false, attempts: search.attempts)
    }

    /// The attempts made so far and the smallest file among them.
    private struct Progress {
        let limit: Int
        var attempts: [Attempt] = []
        var smallest: Data?
        var lastByteCount = 0

        /// Encodes at `percent` hundredths of quality; returns the file when it fits.
        mutating func attempt(
            _ frames: [ImageFrame],
            percent: Int,
            encode: ([ImageFrame], Double) throws(WebImageError) -> Data
        ) throws(WebImageError) -> Data? {
            let quality = Double(percent) / 100
            let data = try encode(frames, quality)
            attempts.append(Attempt(quality: quality, pixelSize: frames[0].pixels.size, byteCount: data.count))
            lastByteCount = data.count
            if data.count < smallest?.count ?? .max { smallest = data }
            return data.count <= limit ? data : nil
        }

        /// The file at the highest quality that fits at this size, or nil when the floor does not fit.
        mutating func bestQuality(
            _ frames: [ImageFrame],
            topFirst: Bool,
            encode: ([ImageFrame], Double) throws(WebImageError) -> Data
        ) throws(WebImageError) -> Data? {
            var high = 101  // the lowest quality known not to fit; 101 when 100 is not tried yet
            if topFirst {
                if let fit = try attempt(frames, percent: 100, encode: encode) { return fit }
                high = 100
            }
            guard var best = try attempt(frames, percent: FileSizeSearch.floorPercent, encode: encode) else { return nil }
            var low = FileSizeSearch.floorPercent
            while high - low > 1 {
                let middle = (low + high) / 2
                if let fit = try attempt(frames, percent: middle, encode: encode) {
                    best = fit
                    low = middle
                } else {
                    high = middle
                }
            }
            return best
        }
    }

    /// `frames` resampled to `size`; frames that shared a buffer share the resampled one.
    private static func resample(_ frames: [ImageFrame], to size: PixelSize, hasAlpha: Bool) throws(WebImageError) -> [ImageFrame] {
        var scaled: [ObjectIdentifier: PixelBuffer] = [:]
        var result: [ImageFrame] = []
        result.reserveCapacity(frames.count)
        for frame in frames {
            let key = ObjectIdentifier(frame.pixels)
            let pixels: PixelBuffer
            if let done = scaled[key] {
                pixels = done
            } else {
                pixels = try frame.pixels.resampled(to: size, hasAlpha: hasAlpha)
                scaled[key] = pixels
            }
            result.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        return result
    }
}
